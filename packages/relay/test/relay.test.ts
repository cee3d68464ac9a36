// One relay in this process against a sandbox on a free port and a real receiver over loopback, its
// state in a file: the events of announced, listed, failed, expiring and converted videos, signed as
// Standard Webhooks say (verified with the stock `standardwebhooks` package, not our verifier), retried
// with the same id, dead-lettered, replayed; the announce endpoint's refusals; a restart on the state file.
import { join } from 'node:path';
import { createClient, relayToken } from '@videogen/client';
import { FIXTURES, MAGIC, type RunningSandbox, SANDBOX_KEYS } from '@videogen/sandbox';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelay, downloadUrlExpiry, type Relay, type RelayOptions } from '../src/index.js';
import {
  type Delivery,
  fastRelayOptions,
  fastSandbox,
  OLD_SECRET,
  payloadOf,
  type Receiver,
  SECRET,
  startReceiver,
  tempDir,
  until,
} from './helpers.js';

let sb: RunningSandbox;
let receiver: Receiver;
const dir = tempDir('relay');
const key = SANDBOX_KEYS.acme;
const text = FIXTURES.acme.settings.text;

beforeAll(async () => {
  // Generations of 1 s (100 service seconds at 100×): an expiring video stays completed 1 s, ten polls.
  sb = await fastSandbox({ generationSeconds: 100 });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await sb?.close();
});

/** A relay on its own state file and its own path of the receiver; fast intervals for a sandbox at 100×. */
async function relay(name: string, o: Partial<RelayOptions> = {}): Promise<Relay> {
  return createRelay({
    // Only the videos made after it starts (backfill 0): the earlier tests' are not this relay's to tell.
    ...fastRelayOptions({ receiverUrl: receiver.url, name, baseUrl: sb.baseUrl }),
    stateFile: join(dir, `${name}.json`),
    listIntervalMs: 200,
    retryScheduleMs: [0, 50, 100],
    leaseMs: 2_000,
    logLevel: 'off',
    ...o,
  });
}

const to = (name: string) => receiver.deliveries.filter((d) => d.path === `/${name}`);
const verified = (name: string) =>
  to(name).map((d) => new Webhook(SECRET).verify(d.body, d.headers as Record<string, string>));

describe('a relay with its state in a file', () => {
  it('sends each terminal state of the videos a client creates, signed as Standard Webhooks says', async () => {
    const r = await relay('announced');
    const client = createClient({ apiKey: key, baseUrl: sb.baseUrl, relayUrl: r.url });
    const done = await client.videos.generate({ video_setting_id: text, text: 'A relay test' });
    const doomed = await client.videos.generate({ video_setting_id: text, text: `Doomed ${MAGIC.fail}` });
    await until(() => to('announced').length >= 2, 'two deliveries');
    await r.stop();

    // Stock standardwebhooks verifies every delivery (our verifier is not the judge here).
    const events = verified('announced') as Array<{ type: string; timestamp: string; data: Record<string, unknown> }>;
    const byVideo = new Map(events.map((e) => [e.data.video_id, e]));
    const completed = byVideo.get(done.video_id);
    const failed = byVideo.get(doomed.video_id);
    expect(completed?.type).toBe('video.completed');
    expect(failed).toMatchObject({ type: 'video.failed', data: { video_id: doomed.video_id, status: 'failed' } });
    // The thin payload: type, timestamp, data; the completed one carries its address and when it expires.
    expect(Object.keys(completed ?? {}).sort()).toEqual(['data', 'timestamp', 'type']);
    const data = completed?.data as { download_url: string; download_url_expires_at: string; status: string };
    expect(data.status).toBe('completed');
    expect(data.download_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/downloads\//);
    const expires = new URL(data.download_url).searchParams.get('expires');
    expect(Date.parse(data.download_url_expires_at)).toBe(Number(expires));
    expect(downloadUrlExpiry(data.download_url)?.getTime()).toBe(Number(expires));
    // The address works: the download host serves the video.
    expect((await fetch(data.download_url)).status).toBe(200);
    for (const d of to('announced')) {
      expect(d.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(d.headers['content-type']).toBe('application/json');
      expect(d.headers['user-agent']).toMatch(/^videogen-relay\//);
      expect(Math.abs(Number(d.headers['webhook-timestamp']) * 1000 - d.at)).toBeLessThan(60_000);
    }
    // Nothing was sent twice, and no two events share an id.
    expect(new Set(to('announced').map((d) => d.headers['webhook-id'])).size).toBe(2);
  });

  it('finds the videos nobody announced by listing, and the source of an announced conversion', async () => {
    const r = await relay('listed', { listen: undefined });
    // A client that knows no relay (curl would do the same): the relay lists the account's videos.
    const plain = createClient({ apiKey: key, baseUrl: sb.baseUrl });
    const made = await plain.videos.generate({ video_setting_id: text, text: 'Nobody announces me' });
    const found = await until(
      () => verified('listed').find((e) => (e as { data: { video_id: string } }).data.video_id === made.video_id),
      'the listed video',
    );
    expect(found).toMatchObject({ type: 'video.completed' });
    await r.stop();

    // No listing after the first: the announce alone tells the relay, with the conversion's source.
    const withRelay = await relay('conversion', { listIntervalMs: 60_000 });
    // Its one listing done before the conversion exists: a listing that met the conversion first could
    // see it to its end before the announce arrived, the source then unknown (seen under load).
    await until(async () => ((await withRelay.status()).counts.lists > 0 ? true : undefined), 'the first listing');
    const client = createClient({ apiKey: key, baseUrl: sb.baseUrl, relayUrl: withRelay.url });
    const source = FIXTURES.acme.videos.convertible;
    const converted = await client.convert(source, { language: 'fr' });
    const event = await until(
      () =>
        to('conversion')
          .map(payloadOf)
          .find((e) => e.data.video_id === converted.video_id),
      'the conversion',
    );
    await withRelay.stop();
    expect(event).toMatchObject({ type: 'video.completed', data: { source_video_id: source, status: 'completed' } });
  });

  it('adds what a late announce knows (the source) to the event of a video a listing found first', async () => {
    // The first attempt is refused, so that the announce comes while the event waits for its retry.
    receiver.answer = (d) => (d.path === '/merge' && to('merge').length === 1 ? 503 : 200);
    const r = await relay('merge', { retryScheduleMs: [0, 1_500, 1_500] });
    const plain = createClient({ apiKey: key, baseUrl: sb.baseUrl });
    const source = FIXTURES.acme.videos.convertible;
    const converted = await plain.convert(source, { aspect_ratio: '1:1' });
    await until(() => to('merge').length === 1, 'the first attempt');
    expect(payloadOf(to('merge')[0] as Delivery).data.source_video_id).toBeUndefined();
    expect(await r.announce({ video_id: converted.video_id, source_video_id: source })).toBe('known');
    await until(() => to('merge').length === 2, 'the retry');
    await r.stop();
    const [first, retry] = to('merge');
    expect(retry?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect(payloadOf(retry as Delivery).data).toMatchObject({ video_id: converted.video_id, source_video_id: source });
  });

  it('sends video.expired after video.completed, in that order, when asked to watch for expiry', async () => {
    const r = await relay('expiry', { watchExpiryMs: 100 });
    const client = createClient({ apiKey: key, baseUrl: sb.baseUrl, relayUrl: r.url });
    const v = await client.videos.generate({ video_setting_id: text, text: `Short-lived ${MAGIC.expire}` });
    await until(() => to('expiry').length >= 2, 'completed, then expired');
    await r.stop();
    const types = to('expiry')
      .map(payloadOf)
      .filter((e) => e.data.video_id === v.video_id)
      .map((e) => e.type);
    expect(types).toEqual(['video.completed', 'video.expired']);
  });

  it('retries a refused delivery with the same id and body, gives it up onto the dead-letter list, and replays it', async () => {
    const r = await relay('refused');
    receiver.answer = (d) => (d.path === '/refused' ? 503 : 200);
    const client = createClient({ apiKey: key, baseUrl: sb.baseUrl, relayUrl: r.url });
    const v = await client.videos.generate({ video_setting_id: text, text: 'Refused three times' });
    // Three attempts (the schedule's three waits), then the dead-letter list.
    const [letter] = await until(async () => {
      const dead = await r.failed();
      return dead.length > 0 ? dead : undefined;
    }, 'the dead letter');
    const attempts = to('refused');
    if (new Set(attempts.map((d) => d.headers['webhook-id'])).size !== 1)
      console.log(
        attempts.map((d) => d.body),
        v.video_id,
        await r.status(),
      );
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((d) => d.headers['webhook-id'])).size).toBe(1);
    expect(new Set(attempts.map((d) => d.body)).size).toBe(1);
    // Each attempt is signed afresh (its own timestamp), and verifies.
    for (const d of attempts) new Webhook(SECRET).verify(d.body, d.headers as Record<string, string>);
    expect(letter).toMatchObject({ video_id: v.video_id, event: { type: 'video.completed', attempts: 3 } });
    expect(letter?.event.lastError).toMatch(/^503: receiver says 503/);
    expect(letter?.event.id).toBe(attempts[0]?.headers['webhook-id']);

    // The receiver is fixed: the replay delivers the same event, with the same id.
    receiver.answer = () => 200;
    expect(await r.replay(letter?.event.id ?? '')).toBe('requeued');
    expect(await r.replay('msg_unknown')).toBe('unknown');
    await until(() => to('refused').length === 4, 'the replayed delivery');
    await r.stop();
    expect(to('refused')[3]?.headers['webhook-id']).toBe(letter?.event.id);
    expect(to('refused')[3]?.body).toBe(attempts[0]?.body);
    expect(await r.failed()).toEqual([]);
  });

  it('signs with every secret of a rotation: a receiver holding either one verifies', async () => {
    const r = await relay('rotation', { secret: `${SECRET} ${OLD_SECRET}` });
    const client = createClient({ apiKey: key, baseUrl: sb.baseUrl, relayUrl: r.url });
    await client.videos.generate({ video_setting_id: text, text: 'Rotating secrets' });
    const [d] = await until(() => (to('rotation').length ? to('rotation') : undefined), 'a delivery');
    await r.stop();
    const headers = d?.headers as Record<string, string>;
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    for (const s of [SECRET, OLD_SECRET]) expect(new Webhook(s).verify(d?.body ?? '', headers)).toBeTruthy();
    expect(() =>
      new Webhook(`whsec_${Buffer.from('not-a-secret-of-this-relay-000000').toString('base64')}`).verify(
        d?.body ?? '',
        headers,
      ),
    ).toThrow();
  });

  it("answers announces with the spec's envelope: a wrong token, a bad body, a large one, another path", async () => {
    const r = await relay('endpoint');
    const url = r.url ?? '';
    const token = await relayToken(key);
    const post = (body: string, t = token, path = '/announce') =>
      fetch(`${url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${t}` }, body });
    const cases: Array<[Response, number, string]> = [
      [await post('{"video_id":"x"}', 'wrong'), 401, 'UNAUTHORIZED'],
      [await post('not json'), 400, 'INVALID_REQUEST'],
      [await post('{"video_id":"../../etc"}'), 400, 'INVALID_REQUEST'],
      [
        await post(JSON.stringify({ video_id: FIXTURES.acme.videos.convertible, pad: 'x'.repeat(5000) })),
        413,
        'PAYLOAD_TOO_LARGE',
      ],
      [await post('{}', token, '/elsewhere'), 404, 'NOT_FOUND'],
      [await fetch(`${url}/announce`), 405, 'METHOD_NOT_ALLOWED'],
    ];
    for (const [res, status, code] of cases) {
      expect(res.status).toBe(status);
      expect(await res.json()).toMatchObject({ error_code: code, error: expect.any(String) });
    }
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect((await fetch(`${url}/status`)).status).toBe(401);
    const status = await fetch(`${url}/status`, { headers: { authorization: `Bearer ${token}` } });
    expect(await status.json()).toMatchObject({
      store: { where: join(dir, 'endpoint.json') },
      counts: expect.any(Object),
    });
    // Another account's video, announced: read once (404), never an event.
    const other = await post(JSON.stringify({ video_id: FIXTURES.globex.videos.convertible }));
    expect(other.status).toBe(202);
    await until(async () => (await r.status()).store.records === 0 && (await r.status()).counts.polls > 0, 'the read');
    await r.stop();
    expect(to('endpoint')).toEqual([]);
  });

  it('goes on from its state file after a restart: an event waiting for its retry is delivered by the next relay', async () => {
    receiver.answer = (d) => (d.path === '/restart' && to('restart').length === 1 ? 500 : 200);
    const first = await relay('restart', { retryScheduleMs: [0, 1_000, 1_000] });
    const client = createClient({ apiKey: key, baseUrl: sb.baseUrl, relayUrl: first.url });
    await client.videos.generate({ video_setting_id: text, text: 'Survives a restart' });
    await until(() => to('restart').length === 1, 'the first attempt');
    await first.stop();
    const second = await relay('restart', { retryScheduleMs: [0, 1_000, 1_000] });
    await until(() => to('restart').length === 2, 'the retry');
    await second.stop();
    const [a, b] = to('restart');
    expect(b?.headers['webhook-id']).toBe(a?.headers['webhook-id']);
    expect(b?.body).toBe(a?.body);
  });
});
