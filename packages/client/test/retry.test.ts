import { afterEach, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import {
  createClient,
  ConcurrencyLimitError,
  InsufficientCreditError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ServerError,
  TimeoutError,
  ValidationError,
} from '../src/index.js';
import { drop, err, fakeClock, faultServer, hang, json, video, VIDEO_ID } from './helpers.js';

const SETTING = { request_fields: ['text' as const] };
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function setup(steps: Parameters<typeof faultServer>[0], opts: Parameters<typeof createClient>[0] = {}) {
  const srv = await faultServer(steps);
  close = srv.close;
  const clock = fakeClock();
  const client = createClient({ apiKey: 'k-test', baseUrl: srv.baseUrl, pacing: false, clock, ...opts });
  return { srv, clock, client };
}

describe('retries (interface 7.1)', () => {
  it('retries a 500 up to 3 times with growing, jittered backoff, then succeeds', async () => {
    const { srv, clock, client } = await setup([
      err(500, 'UNKNOWN_ERROR'),
      err(500, 'UNKNOWN_ERROR'),
      err(500, 'UNKNOWN_ERROR'),
      json(200, video('running')),
    ]);
    expect((await client.videos.get(VIDEO_ID)).status).toBe('running');
    expect(srv.seen).toHaveLength(4);
    expect(clock.sleeps).toHaveLength(3);
    clock.sleeps.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(500 * 2 ** i);
      expect(ms).toBeLessThanOrEqual(1000 * 2 ** i);
    });
  });

  it('gives up after 3 retries with a ServerError', async () => {
    const { srv, client } = await setup([err(500, 'UNKNOWN_ERROR')]);
    const e = await client.videos.get(VIDEO_ID).catch((e) => e);
    expect(e).toBeInstanceOf(ServerError);
    expect(e).toMatchObject({ status: 500, error_code: 'UNKNOWN_ERROR', retryable: true, kind: 'server' });
    expect(srv.seen).toHaveLength(4);
  });

  it('honours maxRetries and the retry options', async () => {
    const { srv, clock, client } = await setup([err(502, 'X')], {
      maxRetries: 1,
      retry: { baseDelayMs: 10, maxDelayMs: 10 },
    });
    await expect(client.videos.get(VIDEO_ID)).rejects.toBeInstanceOf(ServerError);
    expect(srv.seen).toHaveLength(2);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(10);
  });

  it('waits Retry-After (decimal seconds) on a 503', async () => {
    const { clock, client } = await setup([
      err(503, 'SERVICE_UNAVAILABLE', { 'retry-after': '2.5' }),
      json(200, video('running')),
    ]);
    await client.videos.get(VIDEO_ID);
    expect(clock.sleeps).toEqual([2500]);
  });

  it('waits 30 to 60 s on a 503 without Retry-After', async () => {
    const { clock, client } = await setup([
      err(503, 'SERVICE_UNAVAILABLE'),
      err(503, 'SERVICE_UNAVAILABLE'),
      json(200, video('running')),
    ]);
    await client.videos.get(VIDEO_ID);
    expect(clock.sleeps).toHaveLength(2);
    for (const ms of clock.sleeps) expect(ms >= 30_000 && ms <= 60_000).toBe(true);
  });

  it('throws a ConcurrencyLimitError when SIMULTANEOUS_GENERATE_LIMIT persists', async () => {
    const { srv, client } = await setup([err(503, 'SIMULTANEOUS_GENERATE_LIMIT', { 'retry-after': '1' })]);
    const e = await client.videos
      .generate({ video_setting_id: VIDEO_ID, text: 'x' }, { setting: SETTING })
      .catch((e) => e);
    expect(e).toBeInstanceOf(ConcurrencyLimitError);
    expect(srv.seen).toHaveLength(4);
  });

  it('waits until the rate limit resets on a 429: Retry-After, else RateLimit-Reset, else the class window', async () => {
    const { clock, client } = await setup([
      err(429, 'RATE_LIMIT_EXCEEDED', { 'retry-after': '4' }),
      err(429, 'RATE_LIMIT_EXCEEDED', { 'ratelimit-reset': '1.25' }),
      err(429, 'RATE_LIMIT_EXCEEDED'),
      json(200, video('running')),
    ]);
    await client.videos.get(VIDEO_ID);
    expect(clock.sleeps).toEqual([4000, 1250, 10_000]);
  });

  it('does not retry a 429 INSUFFICIENT_CREDIT (waiting adds no credit)', async () => {
    const { srv, clock, client } = await setup([err(429, 'INSUFFICIENT_CREDIT', { 'retry-after': '1' })]);
    const e = await client.videos
      .generate({ video_setting_id: VIDEO_ID, text: 'x' }, { setting: SETTING })
      .catch((e) => e);
    expect(e).toBeInstanceOf(InsufficientCreditError);
    expect(e).not.toBeInstanceOf(RateLimitError);
    expect(e).toMatchObject({ error_code: 'INSUFFICIENT_CREDIT', retryable: false });
    expect(srv.seen).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it.each([
    [400, 'INVALID_REQUEST', ValidationError],
    [413, 'PAYLOAD_TOO_LARGE', ValidationError],
    [404, 'NOT_FOUND', NotFoundError],
  ])('does not retry a %i', async (status, code, C) => {
    const { srv, client } = await setup([err(status, code)]);
    const e = await client.videos.get(VIDEO_ID).catch((e) => e);
    expect(e).toBeInstanceOf(C);
    expect(e.retryable).toBe(false);
    expect(srv.seen).toHaveLength(1);
  });

  it('retries a dropped connection on a GET like a 5xx', async () => {
    const { srv, clock, client } = await setup([drop, drop, json(200, video('running'))]);
    expect((await client.videos.get(VIDEO_ID)).status).toBe('running');
    expect(srv.seen).toHaveLength(3);
    expect(clock.sleeps).toHaveLength(2);
  });

  it('does not retry a dropped connection on a POST (it may have created a video)', async () => {
    const opts = {
      is_convertible: true,
      current_language: 'ja',
      available_languages: ['en'],
      current_aspect_ratio: '16:9',
      available_aspect_ratios: [],
    };
    const { srv, client } = await setup([json(200, opts), drop, json(200, { video_id: VIDEO_ID })]);
    const e = await client.convert(VIDEO_ID, { language: 'en' }).catch((e) => e);
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.retryable).toBe(false);
    expect(srv.seen.map((s) => s.method)).toEqual(['GET', 'POST']);
  });

  it('times out a slow response, retries the GET, then throws a TimeoutError', async () => {
    // Long enough for each attempt to reach the server on a loaded machine (at 50 ms, one attempt was cut
    // off before the server saw it).
    const { srv, client } = await setup([hang], { timeoutMs: 500, maxRetries: 1 });
    const e = await client.videos.get(VIDEO_ID).catch((e) => e);
    expect(e).toBeInstanceOf(TimeoutError);
    expect(srv.seen).toHaveLength(2);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const { srv, client } = await setup([json(200, video('running'))]);
    const ac = new AbortController();
    ac.abort(new Error('stop'));
    await expect(client.videos.get(VIDEO_ID, { signal: ac.signal })).rejects.toThrow('stop');
    expect(srv.seen).toHaveLength(0);
  });

  it('cancels a retry wait with an AbortSignal', async () => {
    const { srv, clock, client } = await setup([err(503, 'SERVICE_UNAVAILABLE')]);
    const ac = new AbortController();
    const sleep = clock.sleep;
    clock.sleep = (ms, signal) => (ac.abort(new Error('stop')), sleep(ms, signal));
    await expect(client.videos.get(VIDEO_ID, { signal: ac.signal })).rejects.toThrow('stop');
    expect(srv.seen).toHaveLength(1);
  });

  it('cancels a request in flight with an AbortSignal', async () => {
    const { client } = await setup([hang]);
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('cancelled')), 30);
    await expect(client.videos.get(VIDEO_ID, { signal: ac.signal })).rejects.toThrow('cancelled');
  });

  it('a retried JSON POST keeps its method, headers, key and body type', async () => {
    const opts = {
      is_convertible: true,
      current_language: 'ja',
      available_languages: ['en'],
      current_aspect_ratio: '16:9',
      available_aspect_ratios: [],
    };
    const { srv, client } = await setup([
      json(200, opts),
      err(503, 'UNKNOWN_ERROR', { 'retry-after': '0' }),
      json(200, { video_id: VIDEO_ID }),
    ]);
    await client.convert(VIDEO_ID, { aspect_ratio: '9:16' });
    expect(srv.seen.map((s) => [s.method, s.url, s.headers.authorization, s.headers['content-type']])).toEqual([
      ['GET', `/v1/videos/${VIDEO_ID}/conversions/`, 'Bearer k-test', undefined],
      ['POST', `/v1/videos/${VIDEO_ID}/conversions/`, 'Bearer k-test', 'application/json'],
      ['POST', `/v1/videos/${VIDEO_ID}/conversions/`, 'Bearer k-test', 'application/json'],
    ]);
  });

  it('gives client.api middleware a standard Request (and a custom fetch one too)', async () => {
    const got: unknown[] = [];
    const { srv, client } = await setup([json(200, video('running'))], {
      fetch: (r, init) => (got.push(r), fetch(r, init)),
    });
    const seen: unknown[] = [];
    const mw = {
      onRequest: ({ request }: { request: Request }) => {
        seen.push(request);
        request.headers.set('x-mw', '1');
      },
    };
    client.api.use(mw);
    const { data } = await client.api.GET('/videos/{video_id}/', { params: { path: { video_id: VIDEO_ID } } });
    expect(data).toMatchObject({ status: 'running' });
    expect(seen[0]).toBeInstanceOf(Request);
    expect(srv.seen[0].headers['x-mw']).toBe('1');
    client.api.eject(mw);
    await client.videos.get(VIDEO_ID);
    expect(seen).toHaveLength(1);
    expect(got).toHaveLength(2);
    for (const r of got) expect(r).toBeInstanceOf(Request);
  });

  it('retries a JSON POST with the same body', async () => {
    const opts = {
      is_convertible: true,
      current_language: 'ja',
      available_languages: ['en'],
      current_aspect_ratio: '16:9',
      available_aspect_ratios: [],
    };
    // A 503 proves nothing was created, so the conversion is re-sent (a 500 is not: at most once).
    const { srv, client } = await setup([
      json(200, opts),
      err(503, 'SIMULTANEOUS_GENERATE_LIMIT', { 'retry-after': '0' }),
      json(200, { video_id: VIDEO_ID }),
    ]);
    await client.convert(VIDEO_ID, { language: 'en' });
    expect(srv.seen.slice(1).map((s) => JSON.parse(s.body.toString()))).toEqual([
      { language: 'en' },
      { language: 'en' },
    ]);
  });
});

describe('upload retries rebuild the body from its source', () => {
  it('re-sends the whole file from a path after a 500', async () => {
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const dir = mkdtempSync('/tmp/vg-');
    writeFileSync(`${dir}/a.pdf`, Buffer.alloc(300_000, 7));
    const { srv, client } = await setup([
      err(503, 'SIMULTANEOUS_GENERATE_LIMIT', { 'retry-after': '0' }),
      json(200, { video_id: VIDEO_ID }),
    ]);
    const progress: number[] = [];
    await client.videos.generate(
      { video_setting_id: VIDEO_ID, pdf_file: `${dir}/a.pdf` },
      {
        setting: { request_fields: ['pdf_file'] },
        onUploadProgress: (p) => p.loaded === p.total && progress.push(p.total!),
      },
    );
    expect(srv.seen).toHaveLength(2);
    expect(srv.seen[0].body.equals(srv.seen[1].body)).toBe(true);
    expect(srv.seen[1].body.length).toBe(progress[1]);
    expect(srv.seen[1].body.includes(Buffer.alloc(300_000, 7))).toBe(true);
    expect(srv.seen[1].headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
  });

  it('does not retry a one-shot stream, and says why', async () => {
    const { srv, client } = await setup([err(500, 'UNKNOWN_ERROR'), json(200, { video_id: VIDEO_ID })]);
    const e = await client.videos
      .generate(
        { video_setting_id: VIDEO_ID, audio_file: { data: Readable.from([Buffer.from('abc')]), filename: 'a.mp3' } },
        { setting: { request_fields: ['audio_file'] } },
      )
      .catch((e) => e);
    expect(e).toBeInstanceOf(ServerError);
    expect(e.message).toMatch(/not retried: a stream input is sent once/);
    expect(srv.seen).toHaveLength(1);
  });
});

describe('the traffic log sees what was sent', () => {
  it('logs a JSON POST with its body, a retried one twice, and an exchange without an answer', async () => {
    const opts = {
      is_convertible: true,
      current_language: 'ja',
      available_languages: ['en'],
      current_aspect_ratio: '16:9',
      available_aspect_ratios: [],
    };
    const lines: string[] = [];
    const { client } = await setup(
      [
        json(200, opts),
        err(503, 'SIMULTANEOUS_GENERATE_LIMIT', { 'retry-after': '0' }),
        json(200, { video_id: VIDEO_ID }),
        drop,
      ],
      { logger: (l) => lines.push(l) },
    );
    await client.convert(VIDEO_ID, { language: 'en' });
    await client.videos.get(VIDEO_ID).catch(() => {});
    // The debug lines are the exchanges; the retry in between is an info line.
    const records = lines.map((l) => JSON.parse(l)).filter((r) => r.level === 'debug');
    expect(records.slice(1, 3).map((x) => [x.request.method, x.request.body, x.response.status])).toEqual([
      ['POST', '{"language":"en"}', 503],
      ['POST', '{"language":"en"}', 200],
    ]);
    expect(records.at(-1)).toMatchObject({ request: { method: 'GET' }, error: expect.stringMatching(/./) });
    expect(records.at(-1).response).toBeUndefined();
  });
});
