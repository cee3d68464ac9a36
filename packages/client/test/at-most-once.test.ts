// A generate is not run twice. After an answer that does not prove nothing was
// created (a 5xx other than 503), the client looks for the video before re-sending. Real sockets.
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../src/index.js';
import { fakeClock, faultServer, json, type Seen, type Step } from './helpers.js';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});
const SETTING = '00000000-0000-4000-8000-000000000000';
const id = (n: number) => `00000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;

/** A service whose gateway answers 502 to the first create although the service made the video. */
function service(clock: { now(): number }, { gatewayTimeout = true, listed = true } = {}) {
  const videos: { video_id: string; created_at: string; prompt: string }[] = [];
  let posts = 0;
  const step = (s: Seen): Step => {
    if (s.method === 'POST') {
      posts++;
      const text = /name="text"\r\n\r\n([^\r]*)/.exec(s.body.toString())?.[1] ?? 'converted';
      const v = { video_id: id(videos.length + 1), created_at: new Date(clock.now()).toISOString(), prompt: text };
      videos.push(v);
      if (posts === 1 && gatewayTimeout) return json(502, { error_code: 'BAD_GATEWAY', error: 'upstream timed out' });
      return json(200, { video_id: v.video_id });
    }
    const results = listed ? videos : [];
    return json(200, { results, has_next: false, total_count: results.length, page: 1, items_per_page: 50 });
  };
  return { videos, step, posts: () => posts };
}

describe('at-most-once creation', () => {
  it('a generate answered 502 after the service created the video returns that video, with no second POST', async () => {
    const clock = fakeClock(Date.parse('2026-11-23T00:00:00Z'));
    const svc = service(clock);
    const srv = await faultServer((s) => svc.step(s));
    close = srv.close;
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, clock, pacing: false });
    const created = await client.videos.generate(
      { video_setting_id: SETTING, text: 'a cat' },
      { setting: { request_fields: ['text'] } },
    );
    expect(created.video_id).toBe(id(1));
    expect(svc.posts()).toBe(1);
    expect(svc.videos).toHaveLength(1);
  });

  it('when the list shows no such video, the generate is re-sent (nothing was created)', async () => {
    const clock = fakeClock(Date.parse('2026-11-23T00:00:00Z'));
    const svc = service(clock, { listed: false });
    const srv = await faultServer((s) => svc.step(s));
    close = srv.close;
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, clock, pacing: false });
    const created = await client.videos.generate(
      { video_setting_id: SETTING, text: 'a dog' },
      { setting: { request_fields: ['text'] } },
    );
    expect(created.video_id).toBe(id(2));
    expect(svc.posts()).toBe(2);
  });

  it('a conversion answered 502 is not re-sent (its new video cannot be recognised): the error says so', async () => {
    const clock = fakeClock(Date.parse('2026-11-23T00:00:00Z'));
    const svc = service(clock);
    const srv = await faultServer((s) => svc.step(s));
    close = srv.close;
    const client = createClient({ apiKey: 'k', baseUrl: srv.baseUrl, clock, pacing: false });
    const options = {
      is_convertible: true,
      current_language: 'ja',
      available_languages: ['en'],
      current_aspect_ratio: '16:9',
      available_aspect_ratios: [],
    } as never;
    const e = await client.convert(id(9), { language: 'en' }, { conversionOptions: options }).catch((x) => x);
    expect(e).toMatchObject({ kind: 'server', status: 502 });
    expect(e.message).toMatch(/not re-sent/);
    expect(svc.posts()).toBe(1);
  });
});
