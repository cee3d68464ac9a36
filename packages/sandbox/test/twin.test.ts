// The sandbox answers as a twin: a twin that chooses otherwise than our document at every point where the
// interface is silent (as a staging service behind a gateway and a storage host could), each behaviour
// enacted over real HTTP, with the response self-check still on (a deliberate twin answer is not a
// violation). The built-in twins keep their own tests (personality.test.ts and every other file).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseRateLimitHeaders } from '@videogen/openapi/rules';
import { builtinTwinPath, parseTwin, type PresignedQuery, type TwinFile } from '@videogen/openapi/twin';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, FIXTURES, SANDBOX_KEYS, startSandbox, TwinError } from '../src/index.js';
import { Sampler } from '../src/sampling.js';
import { UrlSigner } from '../src/signing.js';
import { compileTwin } from '../src/twin-behaviour.js';
import { responseProblems } from '../src/response-check.js';
import { specModel } from '../src/spec.js';
import { call, expectError, form, manualClock, sandbox } from './helpers.js';

const A = FIXTURES.acme;
const G = FIXTURES.globex;
const key: string = SANDBOX_KEYS.acme;
const TARGET = 'https://staging.example/v1';

type Behaviours = Record<string, { value?: unknown; provenance: unknown }>;

/** The default twin with `changes`, each observed on a made-up staging target. */
export function twinWith(name: string, changes: Record<string, unknown>): TwinFile {
  const file = JSON.parse(readFileSync(builtinTwinPath('default'), 'utf8')) as TwinFile;
  const behaviours = file.behaviours as unknown as Behaviours;
  for (const [k, value] of Object.entries(changes)) {
    if (!(k in behaviours)) throw new Error(`no behaviour ${k}`);
    behaviours[k] = {
      value,
      provenance: {
        source: 'observed',
        target: TARGET,
        observed_at: '2026-11-02T03:00:00Z',
        evidence: [{ method: 'GET', url: '/videos/', status: 200 }],
      },
    };
  }
  return { ...file, name, created_by: 'twin.test.ts', target: { base_url: TARGET } };
}

const envelope = (status: number, error_code: string) => ({ status, error_code });
const constant = (unit: 'ms' | 's', value: number) => ({ family: 'constant', unit, value });
const TEXT_DURATION = { family: 'lognormal', unit: 's', p50: 45, p95: 110, min: 5 };

const STAGING = twinWith('staging@2026-11-02', {
  'success.status.generateVideo': 202,
  'success.status.createConversion': 202,
  'refusal.missing_credentials': envelope(401, 'NO_KEY'),
  'refusal.malformed_credentials': envelope(400, 'BAD_AUTH_HEADER'),
  'refusal.unknown_key': envelope(403, 'KEY_INVALID'),
  'refusal.rate_limited': envelope(429, 'THROTTLED'),
  'refusal.malformed_id': envelope(422, 'BAD_ID'),
  'refusal.unknown_id': envelope(404, 'VIDEO_NOT_FOUND'),
  'refusal.bad_page': envelope(422, 'BAD_PAGE'),
  'refusal.invalid_form': envelope(422, 'FORM_INVALID'),
  'refusal.bad_combination': envelope(422, 'BAD_COMBINATION'),
  'refusal.empty_text': envelope(422, 'EMPTY_TEXT'),
  'refusal.unknown_setting': envelope(404, 'SETTING_NOT_FOUND'),
  'refusal.setting_mismatch': envelope(409, 'SETTING_MISMATCH'),
  'refusal.oversize_upload': envelope(413, 'FILE_TOO_LARGE'),
  'refusal.wrong_extension': envelope(415, 'UNSUPPORTED_FILE'),
  'refusal.too_many_images': envelope(422, 'TOO_MANY_IMAGES'),
  'refusal.generation_no_credit': envelope(402, 'PAYMENT_REQUIRED'),
  'refusal.generation_concurrency': envelope(503, 'BUSY'),
  'refusal.conversion_body_invalid': envelope(422, 'BAD_BODY'),
  'refusal.payload_too_large': envelope(413, 'BODY_TOO_LARGE'),
  'paging.videos_order': 'oldest_first',
  'paging.past_end': { answer: 'refused', status: 404, error_code: 'PAGE_NOT_FOUND' },
  'rate_limit.headers': { family: 'x-ratelimit', on: 'every_answer', reset: 'epoch_seconds' },
  'rate_limit.A.style': 'sliding',
  'rate_limit.A.limit': 3,
  'rate_limit.A.window_seconds': 20,
  'rate_limit.A.refused_count': true,
  'rate_limit.B.style': 'token-bucket',
  'rate_limit.B.limit': 1000,
  'retry_after.rate_limited': 'http_date',
  'retry_after.concurrency': 'absent',
  'retry_after.unavailable': 'http_date',
  'concurrency.limit': 1,
  'copyright.items': { form: 'object', text_field: 'text' },
  'body.timestamps': { utc: '+00:00', fraction_digits: 6 },
  'body.extra_fields.getVideo': { fields: { object: { const: 'video' }, fetched_at: { generate: 'now' } } },
  'body.extra_fields.listVideos': {
    fields: { next_page: { generate: 'next_page' } },
    item_fields: { kind: { const: 'item' } },
  },
  'body.extra_fields.error': { fields: { trace_id: { generate: 'request_id', prefix: 'tr-' } } },
  'encoding.api': { codings: ['gzip'], min_bytes: 200 },
  'download.origin': 'other',
  'download.query': {
    expires: { name: 'X-Amz-Expires', form: 'ttl_seconds', issued: 'X-Amz-Date' },
    signature: { name: 'X-Amz-Signature' },
    fixed: { 'X-Amz-Algorithm': 'AWS4-HMAC-SHA256' },
  },
  'download.ttl_seconds': 600,
  'download.authorization_header': { answer: 'refused', status: 400, form: 'xml', error_code: 'InvalidArgument' },
  'download.refusal': { status: 403, form: 'xml', error_code: 'AccessDenied' },
  'duration.generation.text': TEXT_DURATION,
  'duration.generation.pdf_file': constant('s', 90),
  'duration.conversion': constant('s', 60),
  'lifecycle.expire_after_seconds': 120,
  'rules.request_fields': 'any_listed_subset',
});

describe('a twin that chooses otherwise everywhere, over HTTP', async () => {
  const clock = manualClock();
  const sb = await sandbox({ twin: STAGING, now: clock.now, seed: 7 });
  /** Class A of this twin: 3 per 20 s, refused requests counted; a fresh window before each create. */
  const freshA = () => clock.advance(60_000);
  const gen = (fields: Record<string, string>, files: Parameters<typeof form>[1] = [], k = key) =>
    call(sb, 'POST', '/videos/generate/', { key: k, form: form(fields, files) });

  it('answers the twin’s success statuses (success.status.*)', async () => {
    freshA();
    const g = await gen({ video_setting_id: A.settings.text, text: 'hello' });
    expect(g.status).toBe(202);
    clock.advance(3_600_000); // past any sampled duration
    freshA();
    const c = await call(sb, 'POST', `/videos/${A.videos.convertible}/conversions/`, { key, json: { language: 'fr' } });
    expect(c.status).toBe(202);
    expect((await call(sb, 'GET', '/videos/', { key })).status).toBe(200);
    clock.advance(3_600_000);
  });

  it('answers each open refusal with the twin’s status and code (refusal.*), with its extra error fields', async () => {
    const cases: Array<[string, Promise<Awaited<ReturnType<typeof call>>>, number, string]> = [];
    const add = (what: string, p: Promise<Awaited<ReturnType<typeof call>>>, status: number, code: string) =>
      cases.push([what, p, status, code]);
    add('missing_credentials', call(sb, 'GET', '/videos/'), 401, 'NO_KEY');
    add(
      'malformed_credentials',
      call(sb, 'GET', '/videos/', { headers: { authorization: 'Basic abc' } }),
      400,
      'BAD_AUTH_HEADER',
    );
    add('unknown_key', call(sb, 'GET', '/videos/', { key: 'sandbox-key-nobody' }), 403, 'KEY_INVALID');
    add('malformed_id', call(sb, 'GET', '/videos/not-a-uuid/', { key }), 422, 'BAD_ID');
    add(
      'unknown_id',
      call(sb, 'GET', '/videos/00000000-0000-4000-8000-00000000beef/', { key }),
      404,
      'VIDEO_NOT_FOUND',
    );
    add(
      'unknown_id (conversion options)',
      call(sb, 'GET', '/videos/00000000-0000-4000-8000-00000000beef/conversions/', { key }),
      404,
      'VIDEO_NOT_FOUND',
    );
    add('bad_page', call(sb, 'GET', '/videos/?page=0', { key }), 422, 'BAD_PAGE');
    for (const [what, p, status, code] of cases) {
      const a = await p;
      expectError(a, status, code);
      expect(a.body.trace_id, what).toMatch(/^tr-[0-9a-f]{16}$/);
    }
    // Class A refusals, each in a fresh window of the twin's limiter.
    const creates: Array<[() => ReturnType<typeof call>, number, string]> = [
      [() => gen({ text: 'no setting' }), 422, 'FORM_INVALID'],
      [() => gen({ video_setting_id: A.settings.text, text: 'x' }, [['audio_file', 'a.mp3']]), 422, 'BAD_COMBINATION'],
      [() => gen({ video_setting_id: A.settings.text, text: '' }), 422, 'EMPTY_TEXT'],
      [() => gen({ video_setting_id: '00000000-0000-4000-8000-00000000beef', text: 'x' }), 404, 'SETTING_NOT_FOUND'],
      [() => gen({ video_setting_id: A.settings.pdf, text: 'x' }), 409, 'SETTING_MISMATCH'],
      [
        () => gen({ video_setting_id: A.settings.textImages, text: 'x' }, [['image_files', 'a.png', 10_000_001]]),
        413,
        'FILE_TOO_LARGE',
      ],
      [
        () => gen({ video_setting_id: A.settings.textImages, text: 'x' }, [['image_files', 'a.gif']]),
        415,
        'UNSUPPORTED_FILE',
      ],
      [
        () =>
          gen(
            { video_setting_id: A.settings.textImages, text: 'x' },
            Array.from({ length: 11 }, (_, i) => ['image_files', `${i}.png`] as [string, string]),
          ),
        422,
        'TOO_MANY_IMAGES',
      ],
      [
        () => gen({ video_setting_id: FIXTURES.umbrella.settings.text, text: 'x' }, [], SANDBOX_KEYS.umbrella),
        402,
        'PAYMENT_REQUIRED',
      ],
      [
        () =>
          call(sb, 'POST', `/videos/${A.videos.convertible}/conversions/`, {
            key,
            body: '[1]',
            headers: { 'content-type': 'application/json' },
          }),
        422,
        'BAD_BODY',
      ],
      [
        () =>
          call(sb, 'POST', `/videos/${A.videos.convertible}/conversions/`, {
            key,
            json: { language: 'fr', pad: 'x'.repeat(70_000) },
          }),
        413,
        'BODY_TOO_LARGE',
      ],
    ];
    for (const [send, status, code] of creates) {
      freshA();
      expectError(await send(), status, code);
    }
  });

  it('writes the Retry-After of any other 503 its way (retry_after.unavailable)', async () => {
    sb.faults.add('acme', { kind: '503' });
    const a = await call(sb, 'GET', '/videos/', { key });
    expectError(a, 503, 'SERVICE_UNAVAILABLE');
    expect(Date.parse(a.headers.get('retry-after') ?? '')).toBeGreaterThan(clock.now());
  });

  it('limits each class in its own style; a refused request counts against the window (rate_limit.{class}.*, refusal.rate_limited, retry_after.rate_limited, rate_limit.headers)', async () => {
    freshA();
    const bad = () => gen({ video_setting_id: A.settings.text, text: 'x' }, [['audio_file', 'a.mp3']]);
    for (let i = 0; i < 3; i++) {
      expect((await bad()).status).toBe(422); // a refused request still counts toward its class
      clock.advance(1000);
    }
    const limited = await bad();
    expectError(limited, 429, 'THROTTLED');
    expect(limited.body.error).toMatch(/class A, 3 requests per 20 seconds, enforced as a sliding window/);
    const retry = limited.headers.get('retry-after') ?? '';
    expect(retry).toMatch(/^[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT$/);
    expect(Date.parse(retry)).toBeGreaterThan(clock.now());
    expect(limited.headers.get('x-ratelimit-limit')).toBe('3');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(Math.floor(clock.now() / 1000));
    expect(limited.headers.get('ratelimit-limit')).toBeNull();
    // 20 s after the first: without counting the 429 the window would have room; counted, it has none.
    clock.advance(17_500);
    expect((await bad()).status).toBe(429);
    // Class B is a bucket of 1000: a burst that `even` would refuse goes through.
    const burst = await Promise.all(Array.from({ length: 12 }, () => call(sb, 'GET', '/video-settings/', { key })));
    expect(burst.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(burst[0].headers.get('x-ratelimit-limit')).toBe('1000');
    clock.advance(60_000);
  });

  it('holds the twin’s concurrency limit, its code and no Retry-After (concurrency.limit, refusal.generation_concurrency, retry_after.concurrency)', async () => {
    freshA();
    expect((await gen({ video_setting_id: A.settings.pdf }, [['pdf_file', 'a.pdf']])).status).toBe(202);
    freshA();
    const busy = await gen({ video_setting_id: A.settings.text, text: 'second' });
    expectError(busy, 503, 'BUSY');
    expect(busy.headers.get('retry-after')).toBeNull();
    clock.advance(3_600_000);
  });

  it('lists oldest first, refuses a page past the end, writes timestamps and extra fields its way (paging.*, body.*)', async () => {
    const page = await call(sb, 'GET', '/videos/', { key });
    const times = page.body.results.map((r: { created_at: string }) => Date.parse(r.created_at));
    expect(times).toEqual([...times].sort((a: number, b: number) => a - b));
    expect(page.body.results[0].created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
    expect(page.body.results[0].kind).toBe('item');
    expect(page.body).toHaveProperty('next_page', null);
    expectError(await call(sb, 'GET', '/videos/?page=9', { key }), 404, 'PAGE_NOT_FOUND');
    const v = await call(sb, 'GET', `/videos/${A.videos.convertible}/`, { key });
    expect(v.body).toMatchObject({
      object: 'video',
      status: 'completed',
      fetched_at: expect.stringMatching(/\+00:00$/),
    });
    expect(v.body.copyright[0]).toEqual({ text: expect.any(String) });
  });

  it('gzips answers above min_bytes when asked, and only then (encoding.api)', async () => {
    const raw = (path: string, headers: Record<string, string>) =>
      new Promise<{ status: number; headers: Record<string, unknown>; bytes: Buffer }>((resolve, reject) => {
        const req = httpRequest(
          sb.baseUrl + path,
          { headers: { authorization: `Bearer ${key}`, ...headers } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c) => chunks.push(c));
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }),
            );
          },
        );
        req.on('error', reject);
        req.end();
      });
    const big = await raw('/videos/', { 'accept-encoding': 'br;q=1, gzip;q=0.5' });
    expect(big.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(big.bytes).toString()).results.length).toBeGreaterThan(0);
    const plain = await raw('/videos/', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.bytes.toString()).results.length).toBeGreaterThan(0);
    const small = await raw('/videos/not-a-uuid/', { 'accept-encoding': 'gzip' });
    expect(small.bytes.length).toBeLessThan(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    // The in-process fetch decodes as the global fetch does.
    const inProcess = await sb.fetch(`${sb.baseUrl}/videos/`, { headers: { authorization: `Bearer ${key}` } });
    expect(inProcess.headers.get('content-encoding')).toBe('gzip');
    expect(((await inProcess.json()) as { results: unknown[] }).results.length).toBeGreaterThan(0);
  });

  it('presigns downloads on another origin, S3-style, refusing an Authorization header and an expired URL in XML (download.*)', async () => {
    const v = await call(sb, 'GET', `/videos/${G.videos.convertible}/`, { key: SANDBOX_KEYS.globex });
    const url = new URL(v.body.download_url);
    expect(url.origin).toBe(sb.downloadOrigin);
    expect(url.origin).not.toBe(sb.origin);
    expect([...url.searchParams.keys()]).toEqual(['X-Amz-Algorithm', 'X-Amz-Date', 'X-Amz-Expires', 'X-Amz-Signature']);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('600');
    expect(url.searchParams.get('X-Amz-Date')).toMatch(/^\d{8}T\d{6}Z$/);
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('video/mp4');
    await ok.arrayBuffer();
    const withKey = await fetch(url, { headers: { authorization: `Bearer ${SANDBOX_KEYS.globex}` } });
    expect(withKey.status).toBe(400);
    expect(await withKey.text()).toMatch(/<Code>InvalidArgument<\/Code>/);
    // The download host serves downloads only.
    expect(
      (await fetch(`${sb.downloadOrigin}/v1/videos/`, { headers: { authorization: `Bearer ${key}` } })).status,
    ).toBe(404);
    clock.advance(601_000);
    const expired = await fetch(url);
    expect(expired.status).toBe(403);
    expect(expired.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(await expired.text()).toMatch(/<Code>AccessDenied<\/Code><Message>The download URL has expired/);
  });

  it('runs each input mode and conversion for its fitted duration, sampled under the seed, then expires (duration.*, lifecycle.expire_after_seconds)', async () => {
    // What the sandbox draws for globex's first text generation under seed 7 (sampling.ts).
    const seconds = new Sampler(7).sample(TEXT_DURATION as never, 'duration.generation.text', 'globex');
    expect(seconds).toBeGreaterThan(5);
    freshA();
    const status = async (id: string) =>
      (await call(sb, 'GET', `/videos/${id}/`, { key: SANDBOX_KEYS.globex })).body.status;
    const g = await gen({ video_setting_id: G.settings.text, text: 'timed' }, [], SANDBOX_KEYS.globex);
    const id = g.body.video_id;
    clock.advance(seconds * 1000 - 50);
    expect(await status(id)).toBe('running');
    clock.advance(100);
    expect(await status(id)).toBe('completed');
    clock.advance(120_000 - 100);
    expect(await status(id)).toBe('completed');
    clock.advance(100);
    expect(await status(id)).toBe('expired');
    freshA();
    const pdf = await gen({ video_setting_id: G.settings.pdf }, [['pdf_file', 'a.pdf']], SANDBOX_KEYS.globex);
    clock.advance(89_900);
    expect(await status(pdf.body.video_id)).toBe('running');
    clock.advance(200);
    expect(await status(pdf.body.video_id)).toBe('completed');
    freshA();
    const c = await call(sb, 'POST', `/videos/${G.videos.convertible}/conversions/`, {
      key: SANDBOX_KEYS.globex,
      json: { aspect_ratio: '9:16' },
    });
    expect(c.status).toBe(202);
    clock.advance(59_900);
    expect(await status(c.body.video_id)).toBe('running');
    clock.advance(200);
    expect(await status(c.body.video_id)).toBe('completed');
  });

  it('reads request_fields as the twin does (rules.request_fields)', async () => {
    freshA();
    // The text + pdf_file setting with the PDF alone: our reading (#26) refuses it, this twin's does not.
    expect((await gen({ video_setting_id: A.settings.textPdf }, [['pdf_file', 'a.pdf']])).status).toBe(202);
    clock.advance(3_600_000);
  });

  it('says which twin it answers as', () => {
    expect(sb.twin.name).toBe('staging@2026-11-02');
    expect(sb.twin.behaviours['concurrency.limit'].value).toBe(1);
  });
});

const FLAKY = twinWith('flaky', {
  'transient.errors': {
    rate: 1,
    answers: [
      { status: 502, form: 'html', weight: 1 },
      { status: 503, form: 'envelope', error_code: 'SERVICE_UNAVAILABLE', retry_after_seconds: 40, weight: 1 },
    ],
  },
  'retry_after.unavailable': 'seconds',
  'latency.listVideoSettings': constant('ms', 3000),
});

describe('transient errors and latency, scaled (transient.errors, latency.*)', async () => {
  const sb = await sandbox({ twin: FLAKY, timeScale: 10, rateLimits: false, seed: 3 });

  it('answers every request with one of the twin’s transient forms, in the same order under the same seed', async () => {
    const seen: string[] = [];
    for (let i = 0; i < 12; i++) {
      const a = await call(sb, 'GET', `/videos/${A.videos.convertible}/`, { key });
      if (a.status === 502) {
        expect(a.headers.get('content-type')).toMatch(/^text\/html/);
        expect(a.text).toMatch(/<h1>502 Bad Gateway<\/h1>/);
      } else {
        expectError(a, 503, 'SERVICE_UNAVAILABLE');
        expect(a.headers.get('retry-after')).toBe('4'); // 40 service seconds at time scale 10
      }
      seen.push(String(a.status));
    }
    expect(new Set(seen)).toEqual(new Set(['502', '503']));
    // The same seed draws the same answers: a fresh sandbox of the same twin and seed says the same.
    const again = await startSandbox({ twin: FLAKY, timeScale: 10, rateLimits: false, seed: 3, port: 0 });
    try {
      const replay: string[] = [];
      for (let i = 0; i < 12; i++)
        replay.push(String((await call(again, 'GET', `/videos/${A.videos.convertible}/`, { key })).status));
      expect(replay).toEqual(seen);
    } finally {
      await again.close();
    }
  });

  it('waits the twin’s latency, divided by the time scale, before answering', async () => {
    const started = performance.now();
    await call(sb, 'GET', '/video-settings/', { key });
    // A lower bound only (a loaded machine may take longer): 3000 service ms at time scale 10.
    expect(performance.now() - started).toBeGreaterThanOrEqual(295);
  });
});

describe('the other rate-limit header families, over HTTP (rate_limit.headers)', async () => {
  const clock = manualClock();
  const sb = await sandbox({
    twin: twinWith('structured', {
      'rate_limit.headers': { family: 'ratelimit-structured', on: 'rate_limited_only' },
    }),
    now: clock.now,
  });
  it('writes RateLimit and RateLimit-Policy in the later draft form, on the 429 only, read by the rules’ parser', async () => {
    const first = await call(sb, 'GET', '/video-settings/', { key });
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit')).toBeNull();
    const limited = await call(sb, 'GET', '/video-settings/', { key });
    expectError(limited, 429, 'RATE_LIMIT_EXCEEDED');
    expect(limited.headers.get('ratelimit')).toBe('"b";r=0;t=2');
    expect(limited.headers.get('ratelimit-policy')).toBe('"b";q=1;w=2');
    expect(limited.headers.get('ratelimit-limit')).toBeNull();
    const info = parseRateLimitHeaders(limited.headers);
    expect(info).toMatchObject({ remaining: 0, resetMs: 2000, policies: [{ name: 'b', limit: 1, windowMs: 2000 }] });
    clock.advance(10_000);
  });
});

describe('createSandbox({ twin })', () => {
  const work = mkdtempSync(join(tmpdir(), 'twin-test-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('takes a twin file’s path, a twin object or a built-in name; refuses a bad one naming the field, before anything listens', async () => {
    const file = join(work, 'staging.twin.json');
    writeFileSync(file, JSON.stringify(twinWith('from-file', { 'success.status.listVideos': 203 })));
    for (const twin of [file, twinWith('from-object', {}), 'alternative'] as const) {
      const sb = await createSandbox({ twin });
      try {
        expect(sb.twin.name).toBe(typeof twin === 'string' ? (twin === file ? 'from-file' : twin) : 'from-object');
        const res = await sb.fetch(`${sb.baseUrl}/videos/`, { headers: { authorization: `Bearer ${key}` } });
        expect(res.status).toBe(twin === file ? 203 : 200);
      } finally {
        await sb.close();
      }
    }
    const bad = twinWith('bad', { 'rate_limit.B.style': 'burst' });
    await expect(createSandbox({ twin: bad, port: 0 })).rejects.toThrow(
      /bad is not|twin is not a valid twin \(format 1\):\n {2}behaviours\["rate_limit\.B\.style"\]\.value: must be one of/,
    );
    await expect(createSandbox({ twin: bad })).rejects.toBeInstanceOf(TwinError);
    await expect(createSandbox({ twin: join(work, 'none.json') })).rejects.toThrow(/none\.json is not a valid twin/);
    await expect(createSandbox({ twin: 'alternative', personality: 'default' })).rejects.toThrow(
      'give either twin or personality',
    );
  });
});

describe('samples (sampling.ts)', () => {
  const lognormal = { family: 'lognormal', unit: 's', p50: 45, p95: 110 } as const;

  it('fits the distribution: the median near p50, the 95th percentile near p95, clamped to min and max', () => {
    const sampler = new Sampler(1);
    const draws = Array.from({ length: 20_000 }, () => sampler.sample(lognormal, 'duration.generation.text', 'acme'));
    draws.sort((a, b) => a - b);
    expect(draws[10_000] / 45).toBeCloseTo(1, 1);
    expect(draws[19_000] / 110).toBeCloseTo(1, 1);
    const clamped = Array.from({ length: 2000 }, () =>
      sampler.sample({ ...lognormal, min: 40, max: 60 }, 'duration.generation.text', 'acme'),
    );
    expect(Math.min(...clamped)).toBe(40);
    expect(Math.max(...clamped)).toBe(60);
  });

  it('is a function of (seed, key, account, n): the same seed repeats, another seed or account differs', () => {
    const seq = (seed: number, account = 'acme', key = 'latency.getVideo') => {
      const sampler = new Sampler(seed);
      return Array.from({ length: 5 }, () => sampler.sample({ ...lognormal, unit: 'ms' }, key, account));
    };
    expect(seq(7)).toEqual(seq(7));
    expect(seq(7)).not.toEqual(seq(8));
    expect(seq(7)).not.toEqual(seq(7, 'globex'));
    expect(seq(7)).not.toEqual(seq(7, 'acme', 'latency.listVideos'));
    // Another key's draws in between do not move a sequence.
    const sampler = new Sampler(7);
    const mixed = Array.from({ length: 5 }, () => {
      sampler.next('transient.errors', 'acme');
      return sampler.sample({ ...lognormal, unit: 'ms' }, 'latency.getVideo', 'acme');
    });
    expect(mixed).toEqual(seq(7));
  });

  it('answers a transient error at the twin’s rate', () => {
    const flaky = compileTwin(
      parseTwin(twinWith('flaky', { 'transient.errors': { rate: 0.3, answers: [{ status: 503, form: 'empty' }] } })),
      { seed: 11 },
    );
    const hits = Array.from({ length: 4000 }, () => flaky.transient('acme')).filter(Boolean).length;
    expect(hits / 4000).toBeGreaterThan(0.27);
    expect(hits / 4000).toBeLessThan(0.33);
    expect(compileTwin(parseTwin(twinWith('calm', {}))).transient('acme')).toBeUndefined();
  });
});

describe('presigned URLs in each form (signing.ts, download.query)', () => {
  const forms: PresignedQuery[] = [
    { expires: { name: 'expires', form: 'epoch_ms' }, signature: { name: 'signature' } },
    {
      expires: { name: 'Expires', form: 'epoch_seconds' },
      signature: { name: 'Signature' },
      fixed: { 'Key-Pair-Id': 'K2' },
    },
    {
      expires: { name: 'X-Amz-Expires', form: 'ttl_seconds', issued: 'X-Amz-Date' },
      signature: { name: 'X-Amz-Signature' },
      fixed: { 'X-Amz-Algorithm': 'AWS4-HMAC-SHA256' },
    },
  ];
  const id = A.videos.convertible;
  const now = Date.UTC(2026, 10, 2, 12, 0, 0);
  for (const form of forms) {
    it(`${form.expires.form}: valid as issued, expired after its lifetime, invalid when touched`, () => {
      const signer = new UrlSigner('secret', form);
      const url = new URL(signer.issue('https://dl.example', id, now, 600_000));
      const query = () => Object.fromEntries(url.searchParams);
      expect(signer.verify(id, query(), now)).toBe('ok');
      expect(signer.verify(id, query(), now + 600_001)).toBe('expired');
      expect(signer.verify('71de0a00-0000-4000-8000-000000000002', query(), now)).toBe('invalid');
      expect(signer.verify(id, { ...query(), extra: '1' }, now)).toBe('invalid');
      const expiry = url.searchParams.get(form.expires.name) ?? '';
      url.searchParams.set(form.expires.name, String(Number(expiry) + 1));
      expect(signer.verify(id, query(), now)).toBe('invalid');
    });
  }
});

describe('the client against a twin of a staging that chose otherwise (in-process)', () => {
  it('generates, polls, downloads from the other origin and converts, with no 4xx of its own making', async () => {
    const { createClient } = await import('@videogen/client');
    const sb = await createSandbox({ twin: STAGING, validateResponses: true, seed: 2 });
    try {
      const client = createClient({
        apiKey: key,
        baseUrl: sb.baseUrl,
        fetch: sb.fetch,
        clock: sb.clock,
        plan: 'business',
      });
      const video = await client.generateAndWait({ video_setting_id: A.settings.text, text: 'Explain tides' });
      expect(video.status).toBe('completed');
      expect(new URL(video.download_url).origin).toBe(sb.downloadOrigin);
      const dir = mkdtempSync(join(tmpdir(), 'twin-client-'));
      try {
        const { bytes } = await client.download(video.video_id, join(dir, 'tides.mp4'));
        expect(bytes).toBeGreaterThan(1000);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      const converted = await client.convertAndWait(video.video_id, { aspect_ratio: '9:16' });
      expect(converted.status).toBe('completed');
      // The download succeeded, so the client sent the storage host no key (it refuses one); and no API
      // request was refused for its form (a 429 is the twin's tighter limiter, waited out).
      const stats = sb.stats('acme');
      expect(Object.keys(stats).filter((s) => /^4/.test(s) && s !== '429')).toEqual([]);
      expect(sb.violations).toEqual([]);
    } finally {
      await sb.close();
    }
  });
});

describe('the response self-check with a twin (response-check.ts)', () => {
  const twin = compileTwin(parseTwin(STAGING));
  const model = specModel();
  const op = (id: string) => model.operations.find((o) => o.operationId === id)!;
  const json = 'application/json';
  it('takes the twin’s deliberate answers for the document’s, and still finds what breaks the interface', () => {
    // Statuses and codes the document does not declare, each the twin's answer to an open case.
    expect(
      responseProblems(model, op('generateVideo'), 202, json, { video_id: A.videos.convertible }, {}, twin),
    ).toEqual([]);
    expect(
      responseProblems(model, op('generateVideo'), 402, json, { error_code: 'PAYMENT_REQUIRED', error: 'x' }, {}, twin),
    ).toEqual([]);
    expect(
      responseProblems(
        model,
        op('getVideo'),
        422,
        json,
        { error_code: 'BAD_ID', error: 'x', trace_id: 'tr-1' },
        {},
        twin,
      ),
    ).toEqual([]);
    // Without the twin, the same answers break our document's decisions.
    expect(
      responseProblems(model, op('generateVideo'), 402, json, { error_code: 'PAYMENT_REQUIRED', error: 'x' }),
    ).not.toEqual([]);
    // A code the twin gives another case is no excuse here; a missing 2.1 field is a violation whatever the twin.
    expect(
      responseProblems(model, op('getVideo'), 402, json, { error_code: 'PAYMENT_REQUIRED', error: 'x' }, {}, twin),
    ).not.toEqual([]);
    expect(
      responseProblems(
        model,
        op('getVideo'),
        200,
        json,
        { video_id: A.videos.convertible, status: 'completed', copyright: [] },
        {},
        twin,
      ),
    ).not.toEqual([]);
  });
});
