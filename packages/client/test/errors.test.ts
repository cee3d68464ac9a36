import { afterEach, describe, expect, it } from 'vitest';
import { inspect } from 'node:util';
import * as api from '../src/index.js';
import { createClient, isVideoApiError, VideoApiError, AuthenticationError, ValidationError } from '../src/index.js';
import { err, fakeClock, faultServer, json, drop, VIDEO_ID, mp4Bytes } from './helpers.js';

const KEY = 'sk-live-SECRET-0123456789abcdef';
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
  delete process.env.VIDEO_API_KEY;
  delete process.env.VIDEO_API_BASE_URL;
});

describe('createClient options', () => {
  it('throws a clear error without a key', () => {
    expect(() => createClient({ baseUrl: 'https://x.example/v1' })).toThrow(/No API key.*VIDEO_API_KEY/);
    expect(() => createClient({ baseUrl: 'https://x.example/v1' })).toThrow(AuthenticationError);
  });
  it('reads VIDEO_API_KEY and VIDEO_API_BASE_URL, else the production server', () => {
    process.env.VIDEO_API_KEY = KEY;
    expect(createClient().baseUrl).toBe('https://api.video-generation.example/v1');
    process.env.VIDEO_API_BASE_URL = 'http://127.0.0.1:4010/v1/';
    expect(createClient().baseUrl).toBe('http://127.0.0.1:4010/v1');
  });
  it('refuses http:// unless the host is loopback', () => {
    expect(() => createClient({ apiKey: KEY, baseUrl: 'http://api.example.com/v1' })).toThrow(/https/);
    for (const u of [
      'http://localhost:1/v1',
      'http://127.0.0.1:1/v1',
      'http://[::1]:1/v1',
      'https://api.example.com/v1',
    ])
      expect(createClient({ apiKey: KEY, baseUrl: u }).baseUrl).toBe(u);
  });
  it('refuses a base URL with a user or password (fetch never sends them), without printing them', () => {
    const err = (() => {
      try {
        createClient({ apiKey: KEY, baseUrl: 'https://operator:S3CRET-PW@api.example.com/v1' });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err).toBeInstanceOf(TypeError);
    expect(err?.message).toBe(
      'Refusing base URL https://[redacted]:[redacted]@api.example.com/v1: a user or password in it is never sent (the API key goes in apiKey or VIDEO_API_KEY)',
    );
  });
  it('allows http:// to a host named explicitly (allowHttpHosts, or VIDEO_API_ALLOW_HTTP): a lab network', () => {
    const lab = 'http://10.0.0.5:4010/v1';
    expect(() => createClient({ apiKey: KEY, baseUrl: lab })).toThrow(
      /^Refusing base URL: the API key would cross the network in the clear; use https \(http only on loopback, or to a host named in VIDEO_API_ALLOW_HTTP\), not http:\/\/10\.0\.0\.5$/,
    );
    expect(createClient({ apiKey: KEY, baseUrl: lab, allowHttpHosts: ['10.0.0.5'] }).baseUrl).toBe(lab);
    process.env.VIDEO_API_ALLOW_HTTP = 'lab-api,.lab.example';
    try {
      expect(createClient({ apiKey: KEY, baseUrl: 'http://a.lab.example/v1' }).baseUrl).toBe('http://a.lab.example/v1');
      expect(() => createClient({ apiKey: KEY, baseUrl: lab })).toThrow(/in the clear/);
    } finally {
      delete process.env.VIDEO_API_ALLOW_HTTP;
    }
  });
});

describe('VideoApiError', () => {
  it('has one class per kind, all VideoApiError, with a guard', () => {
    const kinds = {
      AuthenticationError: 'auth',
      NotFoundError: 'not_found',
      RateLimitError: 'rate_limit',
      ConcurrencyLimitError: 'concurrency',
      ValidationError: 'validation',
      ServerError: 'server',
      TimeoutError: 'timeout',
      NetworkError: 'network',
      VideoFailedError: 'video_failed',
      VideoExpiredError: 'video_expired',
      InsufficientCreditError: 'insufficient_credit',
      VideoNotReadyError: 'not_ready',
    } as const;
    for (const [name, kind] of Object.entries(kinds)) {
      const e = new (api as any)[name]('m', { status: 1 });
      expect(e).toBeInstanceOf(VideoApiError);
      expect(e).toBeInstanceOf(Error);
      expect(isVideoApiError(e)).toBe(true);
      expect(e).toMatchObject({ name, kind, status: 1, retryable: false, message: 'm' });
      expect(String(e)).toBe(`${name}: m`);
    }
    expect(isVideoApiError(new Error('x'))).toBe(false);
    const v = new ValidationError('bad', { field: 'pdf_file', limit: 5, error_code: 'FILE_UPLOAD_ERROR' });
    const code: api.ErrorCode | undefined = v.error_code;
    expect(code).toBe('FILE_UPLOAD_ERROR');
  });
});

describe('the API key never leaks', () => {
  it('not through inspect, JSON or the client object', () => {
    const client = createClient({ apiKey: KEY, baseUrl: 'https://x.example/v1' });
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain('SECRET');
    expect(JSON.stringify(client)).not.toContain('SECRET');
    expect(inspect(client.api, { depth: 10, showHidden: true })).not.toContain('SECRET');
  });

  it('not through thrown errors (even when the server echoes it), nor their inspect/JSON output', async () => {
    const srv = await faultServer([json(401, { error_code: 'UNAUTHORIZED', error: `Key ${KEY} is not valid` }), drop]);
    close = srv.close;
    const client = createClient({
      apiKey: KEY,
      baseUrl: srv.baseUrl,
      clock: fakeClock(),
      pacing: false,
      maxRetries: 0,
    });
    const e1 = await client.videos.get(VIDEO_ID).catch((e) => e);
    expect(e1).toBeInstanceOf(AuthenticationError);
    const e2 = await client.videos.get(VIDEO_ID).catch((e) => e);
    expect(e2.kind).toBe('network');
    for (const e of [e1, e2]) {
      expect(e.message + e.error + e.stack).not.toContain('SECRET');
      expect(inspect(e, { depth: 10, showHidden: true })).not.toContain('SECRET');
      expect(JSON.stringify(e)).not.toContain('SECRET');
    }
    expect(srv.seen[0].headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('is never sent to the download host', async () => {
    const storage = await faultServer([
      (req, res) => res.writeHead(200, { 'content-type': 'video/mp4' }).end(mp4Bytes(10)),
    ]);
    const srv = await faultServer([
      json(200, {
        video_id: VIDEO_ID,
        status: 'completed',
        download_url: `${storage.origin}/v.mp4?sig=1`,
        copyright: [],
      }),
    ]);
    close = async () => {
      await storage.close();
      await srv.close();
    };
    const client = createClient({ apiKey: KEY, baseUrl: srv.baseUrl, pacing: false });
    const { mkdtempSync, readdirSync } = await import('node:fs');
    const dir = mkdtempSync('/tmp/vg-dl-');
    expect(await client.download(VIDEO_ID, `${dir}/out.mp4`)).toEqual({ path: `${dir}/out.mp4`, bytes: 10 });
    expect(storage.seen[0].headers.authorization).toBeUndefined();
    expect(readdirSync(dir)).toEqual(['out.mp4']); // the temporary file was renamed
  });

  it('refuses to download a video that is not completed with a VideoNotReadyError', async () => {
    const srv = await faultServer([
      json(200, { video_id: VIDEO_ID, status: 'running', download_url: '', copyright: [] }),
    ]);
    close = srv.close;
    const client = createClient({ apiKey: KEY, baseUrl: srv.baseUrl, pacing: false });
    const e = await client.download(VIDEO_ID, '/tmp/never.mp4').catch((e) => e);
    expect(e).toBeInstanceOf(api.VideoNotReadyError);
    expect(e).toMatchObject({ kind: 'not_ready', retryable: true, video: { status: 'running' } });
  });

  it('leaves no partial file when a download fails', async () => {
    const storage = await faultServer([
      (req, res) => {
        res.writeHead(200, { 'content-length': '100' });
        res.write(mp4Bytes(10));
        setTimeout(() => req.socket.destroy(), 20);
      },
    ]);
    const srv = await faultServer([
      json(200, { video_id: VIDEO_ID, status: 'completed', download_url: `${storage.origin}/v.mp4`, copyright: [] }),
    ]);
    close = async () => {
      await storage.close();
      await srv.close();
    };
    const client = createClient({ apiKey: KEY, baseUrl: srv.baseUrl, pacing: false });
    const { mkdtempSync, readdirSync } = await import('node:fs');
    const dir = mkdtempSync('/tmp/vg-dl-');
    await expect(client.download(VIDEO_ID, `${dir}/out.mp4`)).rejects.toThrow();
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('polling with an injected clock', () => {
  it('polls every intervalMs, reports progress, and times out with the last view', async () => {
    const srv = await faultServer([
      json(200, { video_id: VIDEO_ID, status: 'running', download_url: '', copyright: [] }),
    ]);
    close = srv.close;
    const clock = fakeClock();
    const client = createClient({ apiKey: KEY, baseUrl: srv.baseUrl, clock, pacing: false });
    const seen: number[] = [];
    const e = await client
      .waitForVideo(VIDEO_ID, { onProgress: (_, { elapsedMs }) => seen.push(elapsedMs) })
      .catch((e) => e);
    expect(e).toBeInstanceOf(api.TimeoutError);
    expect(e.video.status).toBe('running');
    expect(clock.sleeps.every((ms) => ms === 10_000)).toBe(true); // x-polling: every 10 s ...
    expect(seen.at(-1)).toBe(600_000); // ... for 600 s
    expect(srv.seen).toHaveLength(61);
  });
  it('is cancelled by its signal', async () => {
    const srv = await faultServer([
      json(200, { video_id: VIDEO_ID, status: 'running', download_url: '', copyright: [] }),
    ]);
    close = srv.close;
    const clock = fakeClock();
    const client = createClient({ apiKey: KEY, baseUrl: srv.baseUrl, clock, pacing: false });
    const ac = new AbortController();
    const p = client.waitForVideo(VIDEO_ID, {
      signal: ac.signal,
      onProgress: () => clock.sleeps.length === 2 && ac.abort(),
    });
    await expect(p).rejects.toThrow(/abort/i);
  });
  it('treats a server error code it does not know as a plain VideoApiError', async () => {
    const srv = await faultServer([err(418, 'TEAPOT')]);
    close = srv.close;
    const client = createClient({ apiKey: KEY, baseUrl: srv.baseUrl, pacing: false });
    const e = await client.videos.get(VIDEO_ID).catch((e) => e);
    expect(e.constructor).toBe(VideoApiError);
    expect(e).toMatchObject({ kind: 'api', status: 418, error_code: 'TEAPOT', retryable: false });
  });
});

describe('issue 12 item 8: the key is scrubbed from errors whatever characters it holds', () => {
  for (const key of ['key"with-quote', 'key\\with-backslash', 'k"\\"mix']) {
    it(`scrubs ${JSON.stringify(key)}`, async () => {
      const { faultServer, json } = await import('./helpers.js');
      const { createClient } = await import('../src/index.js');
      const srv = await faultServer([
        json(401, { error_code: 'INVALID_API_KEY', error: `bad key ${key}`, [key]: key }),
      ]);
      try {
        const client = createClient({ apiKey: key, baseUrl: srv.baseUrl, pacing: false });
        const e = await client.videos.get('00000000-0000-4000-8000-000000000001').catch((x) => x);
        expect(e.kind).toBe('auth');
        const seen = [e.message, e.error, e.stack, JSON.stringify(e), JSON.stringify(Object.entries(e))].join('\n');
        expect(seen).not.toContain(key);
        expect(e.error).toBe('bad key [redacted]');
      } finally {
        await srv.close();
      }
    });
  }
});
