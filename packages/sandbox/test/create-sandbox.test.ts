// createSandbox as an application's tests use it: the real @videogen/client against sb.fetch (no
// port, no socket) with sb.clock (no real wait), and against a port; sb.fetch's fetch semantics
// (Request or (input, init), streamed bodies, abort signals, download URLs, the same envelopes as
// over a socket); the clock, the faults, reset and stats as functions.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient, isVideoApiError, type Clock } from '@videogen/client';
import { createSandbox, FIXTURES, MAGIC, SANDBOX_KEYS, startSandbox, type Sandbox } from '../src/index.js';
import { SAMPLE_MP4 } from '../src/routes/downloads.js';

const A = FIXTURES.acme;
const key = SANDBOX_KEYS.acme;
const auth = { authorization: `Bearer ${key}` };
/** A JSON answer's body (fetch types it unknown). */
const json = (res: Response): Promise<any> => res.json();
const work = mkdtempSync(join(tmpdir(), 'create-sandbox-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Sockets and servers this process holds (Node's own list of its active handles). */
const sockets = () => process.getActiveResourcesInfo().filter((r) => /TCP|Pipe/.test(r)).length;

async function sandboxFor(options: Parameters<typeof createSandbox>[0] = {}): Promise<Sandbox> {
  const sb = await createSandbox({ validateResponses: true, ...options });
  afterAll(async () => {
    await sb.close();
    expect(sb.violations).toEqual([]);
  });
  return sb;
}

/** A client of the sandbox as the README shows it: its fetch and its clock. */
const clientOf = (sb: Sandbox, apiKey: string = key, clock: Clock = sb.clock) =>
  createClient({ apiKey, baseUrl: sb.baseUrl, fetch: sb.fetch, clock, plan: 'business' });

describe('the sample flow through the client, in-process', () => {
  // 30 s generations at the real time scale: only the sandbox clock can make this quick.
  it('lists settings, generates, polls, downloads, converts and polls with no socket and no real wait', async () => {
    const before = sockets();
    const sb = await sandboxFor();
    expect(sb.port).toBeUndefined();
    expect(sb.baseUrl).toMatch(/^https:\/\/sandbox-\d+\.videogen\.test\/v1$/);
    const start = sb.clock.now();
    const client = clientOf(sb);

    const settings = [];
    for await (const s of client.settings.list()) settings.push(s);
    expect(settings.map((s) => s.video_setting_id)).toContain(A.settings.text);
    const progress: string[] = [];
    const video = await client.generateAndWait(
      { video_setting_id: A.settings.text, text: 'In-process flow' },
      { onProgress: (v) => progress.push(v.status) },
    );
    expect(video.status).toBe('completed');
    expect(progress[0]).toBe('running');
    expect(video.download_url.startsWith(`${sb.origin}/downloads/`)).toBe(true);

    const file = join(work, 'flow.mp4');
    const { bytes } = await client.download(video.video_id, file);
    expect(bytes).toBe(statSync(SAMPLE_MP4).size);
    expect(readFileSync(file).equals(readFileSync(SAMPLE_MP4))).toBe(true);

    const options = await client.conversions.get(video.video_id);
    expect(options.is_convertible).toBe(true);
    const converted = await client.convertAndWait(video.video_id, { language: 'fr', aspect_ratio: '9:16' }, {
      conversionOptions: options,
    } as never);
    expect(converted.status).toBe('completed');
    expect(converted.video_id).not.toBe(video.video_id);

    // Two 30 s generations and 10 s polls went by in sandbox time; the client was paced, never refused.
    expect(sb.clock.now() - start).toBeGreaterThanOrEqual(60_000);
    expect(sb.stats()).not.toHaveProperty('429');
    expect(sb.stats(key)['200']).toBeGreaterThanOrEqual(10);
    expect(sockets()).toBe(before);
  });

  it('uploads a file part as a stream (the client sends a streamed FormData, duplex half)', async () => {
    const sb = await sandboxFor();
    const client = clientOf(sb);
    const pdf = join(work, 'deck.pdf');
    writeFileSync(pdf, Buffer.alloc(3_000_000, 7));
    const progress: number[] = [];
    const { video_id } = await client.videos.generate(
      { video_setting_id: A.settings.pdf, pdf_file: pdf },
      { onUploadProgress: (p) => progress.push(p.loaded) },
    );
    expect(progress.at(-1)).toBeGreaterThanOrEqual(3_000_000);
    expect((await client.videos.get(video_id)).status).toBe('running');
    // The magic values work in a file name, as over HTTP.
    const failing = await client.videos.generate({
      video_setting_id: A.settings.audio,
      audio_file: { data: new Uint8Array(10), filename: `talk${MAGIC.fail}.mp3` },
    });
    await expect(client.waitForVideo(failing.video_id)).rejects.toMatchObject({ kind: 'video_failed' });
  });

  it('gives each in-process sandbox its own base URL, so that a new one meets a fresh pacer and state', async () => {
    for (let i = 0; i < 2; i++) {
      const sb = await createSandbox();
      try {
        const client = clientOf(sb);
        await client.generateAndWait({ video_setting_id: A.settings.text, text: `round ${i}` });
        expect(sb.stats()).not.toHaveProperty('429');
      } finally {
        await sb.close();
      }
    }
    const [one, two] = [await createSandbox(), await createSandbox()];
    expect(one.baseUrl).not.toBe(two.baseUrl);
    await Promise.all([one.close(), two.close()]);
  });
});

describe('with a port', () => {
  it('listens too: the client over loopback and sb.fetch see the same state', async () => {
    const sb = await sandboxFor({ port: 0, timeScale: 100 });
    expect(sb.port).toBeGreaterThan(0);
    expect(sb.baseUrl).toBe(`http://127.0.0.1:${sb.port}/v1`);
    const overSocket = createClient({ apiKey: key, baseUrl: sb.baseUrl, clock: sb.clock });
    const { video_id } = await overSocket.videos.generate({
      video_setting_id: A.settings.text,
      text: 'over the socket',
    });
    sb.clock.advance(2); // this unpaced read must not come within class B's 2 s of the client's last one
    const inProcess = await sb.fetch(`${sb.baseUrl}/videos/${video_id}/`, { headers: auth });
    expect(inProcess.status).toBe(200);
    expect((await json(inProcess)).video_id).toBe(video_id);
    const done = await overSocket.waitForVideo(video_id);
    // A download URL of a listening sandbox works both ways.
    expect((await fetch(done.download_url)).status).toBe(200);
    expect((await sb.fetch(done.download_url)).status).toBe(200);
  });

  it('publicUrl names the origin clients use, in baseUrl and download URLs (a wildcard bind names loopback)', async () => {
    // A port that was free a moment ago, so that the name given can carry it.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const wildcard = await sandboxFor({ port: 0, host: '0.0.0.0' });
    expect(wildcard.origin).toBe(`http://127.0.0.1:${wildcard.port}`);

    // "localhost" stands for the name other machines would use (a LAN address, a compose service).
    const sb = await sandboxFor({ port, host: '0.0.0.0', publicUrl: `http://localhost:${port}/`, timeScale: 100 });
    expect(sb.baseUrl).toBe(`http://localhost:${port}/v1`);
    const client = createClient({ apiKey: key, baseUrl: sb.baseUrl, clock: sb.clock });
    const { video_id } = await client.videos.generate({ video_setting_id: A.settings.text, text: 'by name' });
    const done = await client.waitForVideo(video_id);
    expect(new URL(done.download_url).origin).toBe(`http://localhost:${port}`);
    const video = await fetch(done.download_url);
    expect(video.status).toBe(200);
    expect(video.headers.get('content-type')).toBe('video/mp4');
  });

  it('publicUrl that is not an origin is refused, naming what is wrong', async () => {
    await expect(createSandbox({ publicUrl: 'sandbox:4010' })).rejects.toThrow(/http:\/\/ or https:\/\/ origin/);
    await expect(createSandbox({ publicUrl: 'ftp://sandbox:4010' })).rejects.toThrow(/http:\/\/ or https:\/\/ origin/);
    await expect(createSandbox({ publicUrl: 'http://sandbox:4010/v1' })).rejects.toThrow(/origin only .* \/v1/);
  });

  it('startSandbox is createSandbox with a port (4010 unless given), with the same members', async () => {
    const sb = await startSandbox({ port: 0 });
    try {
      expect(typeof sb.fetch).toBe('function');
      expect((await sb.fetch(`${sb.baseUrl}/videos/${A.videos.convertible}/`, { headers: auth })).status).toBe(200);
      sb.clock.advance(2); // class B: one request per 2 s
      expect((await fetch(`${sb.baseUrl}/videos/${A.videos.convertible}/`, { headers: auth })).status).toBe(200);
    } finally {
      await sb.close();
    }
  });
});

describe('sb.fetch', async () => {
  const sb = await sandboxFor({ rateLimits: false });
  const url = `${sb.baseUrl}/videos/${A.videos.convertible}/`;

  it('takes a string, a URL, a Request, and a Request with init, as fetch does', async () => {
    for (const answer of [
      await sb.fetch(url, { headers: auth }),
      await sb.fetch(new URL(url), { headers: auth }),
      await sb.fetch(new Request(url, { headers: auth })),
      await sb.fetch(new Request(url, { headers: { authorization: 'Bearer wrong' } }), { headers: auth }),
    ]) {
      expect(answer).toBeInstanceOf(Response);
      expect(answer.status).toBe(200);
      expect(answer.url).toBe(url);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(answer.headers.get('ratelimit-policy')).toBeTruthy();
      expect((await json(answer)).video_id).toBe(A.videos.convertible);
    }
  });

  it('sends a JSON body, and a body streamed with duplex half', async () => {
    const plain = await sb.fetch(`${sb.baseUrl}/videos/${A.videos.limitedVoices}/conversions/`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ language: 'fr' }),
    });
    expect(plain.status).toBe(400);
    expect((await json(plain)).error_code).toBe('LANGUAGE_NOT_SUPPORTED_BY_VOICES');

    const bytes = new TextEncoder().encode(JSON.stringify({ language: 'en' }));
    const streamed = await sb.fetch(`${sb.baseUrl}/videos/${A.videos.convertible}/conversions/`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: new ReadableStream({ start: (c) => (c.enqueue(bytes.slice(0, 5)), c.enqueue(bytes.slice(5)), c.close()) }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(200);
  });

  it('reads an upload as it streams: a file past the plan limit is refused before the body has all been produced', async () => {
    const total = 60_000_000; // globex (Personal): audio_file up to 50 MB
    let produced = 0;
    const chunk = new Uint8Array(1 << 20);
    const boundary = 'in-process-boundary';
    const head = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="video_setting_id"\r\n\r\n${FIXTURES.globex.settings.audio}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="audio_file"; filename="long.mp3"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const body = new ReadableStream<Uint8Array>({
      start: (c) => c.enqueue(head),
      pull: (c) => {
        if (produced >= total) return c.close();
        produced += chunk.length;
        c.enqueue(chunk);
      },
    });
    const res = await sb.fetch(`${sb.baseUrl}/videos/generate/`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${SANDBOX_KEYS.globex}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(400);
    expect((await json(res)).error_code).toBe('FILE_UPLOAD_ERROR');
    expect(produced).toBeLessThan(total);
  });

  it('downloads from the URLs the sandbox issues (GET with the body, HEAD without)', async () => {
    const video = await json(await sb.fetch(url, { headers: auth }));
    const get = await sb.fetch(video.download_url);
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toBe('video/mp4');
    expect(Number(get.headers.get('content-length'))).toBe(statSync(SAMPLE_MP4).size);
    expect(Buffer.from(await get.arrayBuffer()).equals(readFileSync(SAMPLE_MP4))).toBe(true);
    const head = await sb.fetch(video.download_url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
    // (Its first hex digit changed to another one.)
    const tampered = await sb.fetch(
      video.download_url.replace(/signature=(.)/, (_: string, c: string) => `signature=${c === '0' ? '1' : '0'}`),
    );
    expect(tampered.status).toBe(403);
  });

  it('rejects with the signal reason: already aborted, or aborted while the sandbox holds the request', async () => {
    await expect(sb.fetch(url, { headers: auth, signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
    sb.faults.add(key, { kind: 'latency', latency_ms: 60_000 });
    const controller = new AbortController();
    const pending = sb.fetch(url, { headers: auth, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('test gave up')), 20);
    await expect(pending).rejects.toThrow('test gave up');
  });

  it('fails as fetch fails on a connection the sandbox drops (fault drop), and the client retries it', async () => {
    sb.faults.add(key, { kind: 'drop' });
    await expect(sb.fetch(url, { headers: auth })).rejects.toMatchObject({
      name: 'TypeError',
      message: 'fetch failed',
    });
    sb.faults.add(key, { kind: 'drop' });
    const video = await clientOf(sb).videos.get(A.videos.convertible);
    expect(video.status).toBe('completed');
    expect(sb.faults.list(key)).toEqual([]);
  });

  it('reaches only its own sandbox, and nothing once closed', async () => {
    await expect(sb.fetch('https://example.com/v1/videos/')).rejects.toThrow(/reaches only this sandbox/);
    const other = await createSandbox();
    await other.close();
    await expect(other.fetch(`${other.baseUrl}/video-settings/`, { headers: auth })).rejects.toMatchObject({
      message: 'fetch failed',
    });
  });
});

describe('bad input gets the same answers through sb.fetch as over a socket', async () => {
  const sb = await sandboxFor({ port: 0 });
  const jsonHeaders = { ...auth, 'content-type': 'application/json' };
  const form = (fields: Array<[string, string | [Blob, string]]>) => () => {
    const f = new FormData();
    for (const [name, value] of fields)
      if (typeof value === 'string') f.append(name, value);
      else f.append(name, ...value);
    return f;
  };
  // A body that is a function is made anew for each of the two sends (a FormData is read once).
  type Init = Omit<RequestInit, 'body'> & { body?: RequestInit['body'] | (() => FormData) };
  const cases: Array<[string, string, Init?]> = [
    ['no key', `/v1/videos/`],
    ['unknown key', `/v1/videos/`, { headers: { authorization: 'Bearer nope' } }],
    ['malformed key', `/v1/videos/`, { headers: { authorization: 'Basic abc' } }],
    ['unknown path', `/v1/nothing/`, { headers: auth }],
    ['no trailing slash', `/v1/videos`, { headers: auth }],
    ['wrong method', `/v1/videos/`, { method: 'DELETE', headers: auth }],
    ['malformed id', `/v1/videos/not-a-uuid/`, { headers: auth }],
    ['urn id', `/v1/videos/urn:uuid:${A.videos.convertible}/`, { headers: auth }],
    ['bad percent-encoding', `/v1/videos/%zz/`, { headers: auth }],
    ['page 0', `/v1/videos/?page=0`, { headers: auth }],
    ['page not an integer', `/v1/video-settings/?page=1.5`, { headers: auth }],
    ['unknown video', `/v1/videos/00000000-0000-4000-8000-000000000000/`, { headers: auth }],
    ["another account's video", `/v1/videos/${FIXTURES.globex.videos.convertible}/`, { headers: auth }],
    [
      'conversion: not JSON',
      `/v1/videos/${A.videos.convertible}/conversions/`,
      { method: 'POST', headers: jsonHeaders, body: '{nope' },
    ],
    [
      'conversion: an array',
      `/v1/videos/${A.videos.convertible}/conversions/`,
      { method: 'POST', headers: jsonHeaders, body: '[]' },
    ],
    [
      'conversion: no target',
      `/v1/videos/${A.videos.convertible}/conversions/`,
      { method: 'POST', headers: jsonHeaders, body: '{}' },
    ],
    [
      'conversion: unknown language',
      `/v1/videos/${A.videos.convertible}/conversions/`,
      { method: 'POST', headers: jsonHeaders, body: '{"language":"xx"}' },
    ],
    [
      'conversion: body over 64 KiB',
      `/v1/videos/${A.videos.convertible}/conversions/`,
      { method: 'POST', headers: jsonHeaders, body: `{"language":"${'x'.repeat(70_000)}"}` },
    ],
    [
      'conversion: text/plain',
      `/v1/videos/${A.videos.convertible}/conversions/`,
      { method: 'POST', headers: { ...auth, 'content-type': 'text/plain' }, body: 'en' },
    ],
    [
      'conversion: free plan',
      `/v1/videos/${FIXTURES.initech.videos.convertible}/conversions/`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${SANDBOX_KEYS.initech}`, 'content-type': 'application/json' },
        body: '{"language":"en"}',
      },
    ],
    ['generate: not multipart', `/v1/videos/generate/`, { method: 'POST', headers: jsonHeaders, body: '{}' }],
    [
      'generate: broken multipart',
      `/v1/videos/generate/`,
      {
        method: 'POST',
        headers: { ...auth, 'content-type': 'multipart/form-data; boundary=x' },
        body: '--x\r\nnonsense',
      },
    ],
    [
      'generate: image_files[]',
      `/v1/videos/generate/`,
      {
        method: 'POST',
        headers: auth,
        body: form([
          ['video_setting_id', A.settings.text],
          ['image_files[]', [new Blob(['x']), 'a.png']],
        ]),
      },
    ],
    [
      'generate: wrong extension',
      `/v1/videos/generate/`,
      {
        method: 'POST',
        headers: auth,
        body: form([
          ['video_setting_id', A.settings.pdf],
          ['pdf_file', [new Blob(['x']), 'a.doc']],
        ]),
      },
    ],
    [
      'generate: two inputs',
      `/v1/videos/generate/`,
      {
        method: 'POST',
        headers: auth,
        body: form([
          ['video_setting_id', A.settings.text],
          ['text', 'x'],
          ['audio_file', [new Blob(['x']), 'a.mp3']],
        ]),
      },
    ],
    [
      'generate: setting of another mode',
      `/v1/videos/generate/`,
      {
        method: 'POST',
        headers: auth,
        body: form([
          ['video_setting_id', A.settings.pdf],
          ['text', 'x'],
        ]),
      },
    ],
    [
      'generate: unknown-error token',
      `/v1/videos/generate/`,
      {
        method: 'POST',
        headers: auth,
        body: form([
          ['video_setting_id', A.settings.text],
          ['text', MAGIC.unknownError],
        ]),
      },
    ],
    [
      'generate: no credit',
      `/v1/videos/generate/`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${SANDBOX_KEYS.umbrella}` },
        body: form([
          ['video_setting_id', FIXTURES.umbrella.settings.text],
          ['text', 'x'],
        ]),
      },
    ],
    [
      'download: bad signature',
      `/downloads/${A.videos.convertible}.mp4?expires=9999999999999&signature=${'0'.repeat(64)}`,
    ],
    ['download: extra parameter', `/downloads/${A.videos.convertible}.mp4?expires=1&signature=${'0'.repeat(64)}&x=1`],
    ['sandbox API without a key', `/_sandbox/clock`],
    [
      'sandbox API: bad advance',
      `/_sandbox/clock/advance`,
      { method: 'POST', headers: jsonHeaders, body: '{"seconds":-1}' },
    ],
    ['sandbox API: bad fault', `/_sandbox/faults`, { method: 'POST', headers: jsonHeaders, body: '{"kind":"teapot"}' }],
  ];
  const pick = (h: Headers) =>
    Object.fromEntries(
      ['content-type', 'allow', 'retry-after', 'ratelimit-limit', 'ratelimit-policy'].map((n) => [n, h.get(n)]),
    );
  const read = async (res: Response) => ({ status: res.status, headers: pick(res.headers), body: await res.text() });

  it.each(cases)('%s', async (_name, path, init = {}) => {
    const make = (): RequestInit => ({ ...init, body: typeof init.body === 'function' ? init.body() : init.body });
    await sb.reset();
    const socket = await read(await fetch(sb.origin + path, make()));
    await sb.reset();
    const inProcess = await read(await sb.fetch(sb.origin + path, make()));
    expect(socket.status).toBeGreaterThanOrEqual(400);
    expect(JSON.parse(inProcess.body)).toMatchObject({ error_code: expect.any(String), error: expect.any(String) });
    expect(inProcess).toEqual(socket);
  });

  it('a rate-limited request too (429 with Retry-After)', async () => {
    await sb.reset();
    const twice = async (f: typeof fetch) => {
      await f(`${sb.baseUrl}/videos/`, { headers: auth });
      return read(await f(`${sb.baseUrl}/videos/`, { headers: auth }));
    };
    const socket = await twice(fetch);
    await sb.reset();
    const inProcess = await twice(sb.fetch);
    expect(socket.status).toBe(429);
    expect(inProcess).toEqual(socket);
  });
});

describe('the clock', async () => {
  const sb = await sandboxFor();
  const generate = async (apiKey: string, setting: string) => {
    const f = new FormData();
    f.append('video_setting_id', setting);
    f.append('text', 'clock');
    const res = await sb.fetch(`${sb.baseUrl}/videos/generate/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}` },
      body: f,
    });
    expect(res.status).toBe(200);
    return (await json(res)).video_id as string;
  };
  const status = async (apiKey: string, id: string) =>
    (await json(await sb.fetch(`${sb.baseUrl}/videos/${id}/`, { headers: { authorization: `Bearer ${apiKey}` } })))
      .status;

  it('advance(seconds) moves every account; advance(seconds, account) only that one', async () => {
    const mine = await generate(key, A.settings.text);
    const theirs = await generate(SANDBOX_KEYS.globex, FIXTURES.globex.settings.text);
    sb.clock.advance(31, 'acme');
    expect(await status(key, mine)).toBe('completed');
    expect(await status(SANDBOX_KEYS.globex, theirs)).toBe('running');
    expect(sb.clock.read(key)).toMatchObject({ account: 'acme', advanced_seconds: 31, time_scale: 1 });
    expect(sb.clock.now('acme') - sb.clock.now()).toBe(31_000);
    sb.clock.advance(31);
    expect(await status(SANDBOX_KEYS.globex, theirs)).toBe('completed');
    expect(sb.clock.read('globex').advanced_seconds).toBe(31);
    expect(sb.clock.read('acme').advanced_seconds).toBe(62);
    expect(() => sb.clock.advance(-1)).toThrow(TypeError);
    expect(() => sb.clock.advance(1, 'nobody')).toThrow(/no sandbox account/i);
  });

  it('sleep(ms) wakes sleepers earliest first, each at or after its time, without a real wait', async () => {
    const woke: Array<[string, number]> = [];
    const t0 = sb.clock.now();
    const sleeper = (name: string, ms: number) => sb.clock.sleep(ms).then(() => woke.push([name, sb.clock.now() - t0]));
    await Promise.all([sleeper('late', 3_600_000), sleeper('early', 10_000), sleeper('middle', 60_000)]);
    expect(woke.map(([n]) => n)).toEqual(['early', 'middle', 'late']);
    expect(woke[0][1]).toBeGreaterThanOrEqual(10_000);
    expect(woke[1][1]).toBeGreaterThanOrEqual(60_000);
    expect(woke[2][1]).toBeGreaterThanOrEqual(3_600_000);
    const controller = new AbortController();
    const aborted = sb.clock.sleep(1000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
  });

  it('a client with clock: sb.clock waits for 503 and 429 answers in sandbox time', async () => {
    const client = clientOf(sb);
    sb.faults.add('acme', [{ kind: '503', retry_after_seconds: 45 }, { kind: '429' }]);
    const t0 = sb.clock.now();
    expect((await client.videos.get(A.videos.convertible)).status).toBe('completed');
    expect(sb.clock.now() - t0).toBeGreaterThanOrEqual(45_000);
  });
});

describe('faults, reset and stats as functions', async () => {
  const sb = await sandboxFor();

  it('queues faults by key or account name, lists and clears them; refuses bad ones', async () => {
    expect(sb.faults.add('acme', { kind: '503', count: 2 })).toEqual([{ kind: '503', remaining: 2 }]);
    expect(sb.faults.add(SANDBOX_KEYS.acme2, { kind: '500', error_code: 'BOOM' })).toHaveLength(2);
    const get = () => sb.fetch(`${sb.baseUrl}/videos/${A.videos.convertible}/`, { headers: auth });
    const answers = [];
    for (let i = 0; i < 3; i++) {
      sb.clock.advance(2); // class B: one request per 2 s
      const res = await get();
      answers.push([res.status, (await json(res)).error_code]);
    }
    expect(answers).toEqual([
      [503, 'SERVICE_UNAVAILABLE'],
      [503, 'SERVICE_UNAVAILABLE'],
      [500, 'BOOM'],
    ]);
    sb.faults.add('acme', { kind: 'latency', latency_ms: 1 });
    expect(sb.faults.list('acme')).toHaveLength(1);
    sb.faults.clear();
    expect(sb.faults.list('acme')).toEqual([]);
    expect(() => sb.faults.add('acme', { kind: 'teapot' } as never)).toThrow(TypeError);
    expect(() => sb.faults.add('acme', { kind: 'latency' } as never)).toThrow(/latency_ms/);
    expect(() => sb.faults.add('acme', { kind: 'drop', count: 0 })).toThrow(/count/);
    expect(() => sb.faults.list('nobody')).toThrow(/no sandbox account/i);
    expect(sb.stats('acme')).toMatchObject({ '500': 1, '503': 2 });
  });

  it('reset(account) takes one account back to its seed; reset() every account', async () => {
    const client = clientOf(sb);
    const { video_id } = await client.videos.generate({ video_setting_id: A.settings.text, text: 'to be reset' });
    const g = await clientOf(sb, SANDBOX_KEYS.globex).videos.generate({
      video_setting_id: FIXTURES.globex.settings.text,
      text: 'kept',
    });
    sb.clock.advance(10, 'acme');
    await sb.reset(key);
    expect(sb.stats('acme')).toEqual({});
    // Its own advance is gone; what the clients' waits moved for everyone stays.
    expect(sb.clock.read('acme').advanced_seconds).toBe(sb.clock.read('globex').advanced_seconds);
    const gone = await client.videos.get(video_id).catch((e) => e);
    expect(isVideoApiError(gone) && gone.status).toBe(404);
    expect((await clientOf(sb, SANDBOX_KEYS.globex).videos.get(g.video_id)).video_id).toBe(g.video_id);
    await sb.reset();
    const page = await json(
      await sb.fetch(`${sb.baseUrl}/videos/`, { headers: { authorization: `Bearer ${SANDBOX_KEYS.globex}` } }),
    );
    expect(page.total_count).toBe(7);
  });

  it('closes with Symbol.asyncDispose (await using)', async () => {
    const other = await createSandbox();
    await other[Symbol.asyncDispose]();
    await expect(other.fetch(`${other.baseUrl}/videos/`)).rejects.toThrow('fetch failed');
  });
});
