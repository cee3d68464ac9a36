// End to end against the real sandbox over loopback, at a fast time scale.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { startSandbox, SANDBOX_KEYS, FIXTURES, MAGIC, type RunningSandbox } from '@videogen/sandbox';
import {
  createClient,
  AuthenticationError,
  InsufficientCreditError,
  NotFoundError,
  ServerError,
  ValidationError,
  VideoExpiredError,
  VideoFailedError,
  type VideoClient,
} from '../src/index.js';

let sb: RunningSandbox;
let acme: VideoClient;
const dir = mkdtempSync('/tmp/vg-client-');
const F = FIXTURES.acme;
// Every client here is given `clock: sb.clock`: its polls, pacing and back-offs move the sandbox's time
// instead of waiting for real, so a loaded machine changes how long a test takes, never what it sees.
// The timeout is sandbox time too: a generation finishes GENERATION_SECONDS after it starts, far inside it.
const GENERATION_SECONDS = 30;
const wait = { intervalMs: 20, timeoutMs: 5_000 };
let seen429 = 0;
// Counts every 429 the sandbox sends to the client, retried or not.
const counting = (r: Request) => fetch(r).then((res) => (res.status === 429 && seen429++, res));

beforeAll(async () => {
  sb = await startSandbox({ port: 0, timeScale: 100, validateResponses: true, generationSeconds: GENERATION_SECONDS });
  acme = createClient({
    apiKey: SANDBOX_KEYS.acme,
    baseUrl: sb.baseUrl,
    clock: sb.clock,
    plan: 'business',
    fetch: counting,
    account: 'acme',
  });
});
afterAll(async () => {
  expect(sb.violations).toEqual([]);
  await sb.close();
});

describe('against the sandbox', () => {
  it('lists videos and settings lazily, page by page', async () => {
    const videos = [];
    for await (const v of acme.videos.list()) videos.push(v);
    expect(videos.length).toBeGreaterThanOrEqual(7);
    expect(videos.map((v) => v.video_id)).toContain(F.videos.convertible);
    const pages = [];
    for await (const p of acme.settings.list().pages()) pages.push(p);
    expect(pages[0]).toMatchObject({ page: 1, items_per_page: 50, has_next: false, total_count: 7 });
    const one = [];
    for await (const v of acme.videos.list({ page: 2 })) one.push(v);
    expect(one).toEqual([]); // past the end: an empty page, and only that page
  });

  it('generates from text, waits, and downloads a real MP4', async () => {
    const progress: string[] = [];
    const v = await acme.generateAndWait(
      { video_setting_id: F.settings.text, text: 'Explain tides' },
      { ...wait, onProgress: (x) => progress.push(x.status) },
    );
    expect(v.status).toBe('completed');
    expect(progress.at(-1)).toBe('completed');
    const loaded: number[] = [];
    const out = `${dir}/v.mp4`;
    const r = await acme.download(v.video_id, out, { onProgress: (p) => loaded.push(p.loaded) });
    expect(r.bytes).toBe(statSync(out).size);
    expect(loaded.at(-1)).toBe(r.bytes);
    expect(readFileSync(out).subarray(4, 8).toString()).toBe('ftyp');
  });

  it.each([
    ['a path streamed from disk', () => write('deck.pdf', 2_000_000)],
    ['a Buffer with a filename', () => ({ data: Buffer.alloc(1000, 1), filename: 'deck.pdf' })],
    ['a File', () => new File([Buffer.alloc(1000, 2)], 'deck.pdf')],
    ['a Blob with a filename', () => ({ data: new Blob([Buffer.alloc(1000, 3)]), filename: 'deck.pdf' })],
    [
      'a readable stream',
      () => ({ data: Readable.from([Buffer.alloc(500), Buffer.alloc(500)]), filename: 'deck.pdf' }),
    ],
    [
      'a web ReadableStream with its size',
      () => ({ data: new Blob([Buffer.alloc(700)]).stream(), filename: 'deck.pdf', size: 700 }),
    ],
  ])('generates from %s', async (_, file) => {
    let last: { loaded: number; total?: number } = { loaded: 0 };
    const { video_id } = await acme.videos.generate(
      { video_setting_id: F.settings.pdf, pdf_file: file() },
      { onUploadProgress: (p) => (last = p) },
    );
    if (last.total !== undefined) expect(last.loaded).toBe(last.total);
    expect((await acme.waitForVideo(video_id, wait)).status).toBe('completed');
  });

  it('sends text with images, and text with a PDF', async () => {
    const imgs = [write('a.png', 100), { data: Buffer.alloc(10), filename: 'b.JPG' }];
    await acme.generateAndWait({ video_setting_id: F.settings.textImages, text: 'x', image_files: imgs }, wait);
    await acme.generateAndWait(
      { video_setting_id: F.settings.textPdf, text: 'x', pdf_file: write('r.pdf', 100) },
      wait,
    );
  });

  it('validates before sending: combination, extension, size for the plan, image count, the setting', async () => {
    const globex = createClient({ apiKey: SANDBOX_KEYS.globex, baseUrl: sb.baseUrl, clock: sb.clock }); // personal plan
    const cases: [object, string, RegExp][] = [
      [{ video_setting_id: F.settings.text, text: 'x', audio_file: write('a.mp3', 1) }, 'text', /combination/],
      [{ video_setting_id: F.settings.pdf, pdf_file: write('a.doc', 1) }, 'pdf_file', /\.pdf/],
      [{ video_setting_id: F.settings.video, video_file: write('a.mov', 1) }, 'video_file', /personal/],
      [
        { video_setting_id: F.settings.audio, audio_file: sparse('big.mp3', 50_000_001) },
        'audio_file',
        /50000000 bytes/,
      ],
      [
        { video_setting_id: F.settings.textImages, text: 'x', image_files: Array(11).fill(write('i.png', 1)) },
        'image_files',
        /at most 10/,
      ],
      [{ video_setting_id: FIXTURES.globex.settings.pdf, text: 'x' }, 'text', /setting/],
    ];
    for (const [input, field, msg] of cases) {
      const e = await globex.videos.generate(input as never).catch((e) => e);
      expect(e, field).toBeInstanceOf(ValidationError);
      expect(e.field).toBe(field);
      expect(e.message).toMatch(msg);
    }
    // An unknown setting is found out by looking the settings up, before the upload.
    const unknown = await acme.videos
      .generate({ video_setting_id: '00000000-0000-4000-8000-000000000000', text: 'x' })
      .catch((e) => e);
    expect(unknown).toMatchObject({
      kind: 'validation',
      error_code: 'INVALID_VIDEO_SETTING',
      field: 'video_setting_id',
    });
    // The business plan takes the .mov and the 50 MB + 1 file.
    const big = { data: Buffer.alloc(10), filename: 'a.mov' };
    await expect(acme.videos.generate({ video_setting_id: F.settings.video, video_file: big })).resolves.toHaveProperty(
      'video_id',
    );
  });

  it('rejects on failed and expired videos with typed errors', async () => {
    const failed = acme.generateAndWait({ video_setting_id: F.settings.text, text: `x ${MAGIC.fail}` }, wait);
    await expect(failed).rejects.toBeInstanceOf(VideoFailedError);
    const { video_id } = await acme.videos.generate({
      video_setting_id: F.settings.pdf,
      pdf_file: { data: Buffer.alloc(5), filename: `d${MAGIC.expire}.pdf` },
    });
    await acme.waitForVideo(video_id, wait);
    sb.clock.advance(GENERATION_SECONDS + 1); // the sandbox expires it one generation time after it completed
    const e = await acme.waitForVideo(video_id, wait).catch((e) => e);
    expect(e).toBeInstanceOf(VideoExpiredError);
    expect(e.video.status).toBe('expired');
    await expect(acme.waitForVideo(F.videos.failed, wait)).rejects.toBeInstanceOf(VideoFailedError);
  });

  it('converts a video and waits for the new one', async () => {
    const v = await acme.convertAndWait(F.videos.convertible, { language: 'fr', aspect_ratio: '9:16' }, wait);
    expect(v.video_id).not.toBe(F.videos.convertible);
    expect(v.status).toBe('completed');
  });

  it.each([
    [F.videos.convertible, {}, 'CONVERT_TARGET_REQUIRED'],
    [F.videos.convertible, { language: 'xx' }, 'INVALID_LANGUAGE'],
    [F.videos.convertible, { aspect_ratio: '5:4' }, 'INVALID_ASPECT_RATIO'],
    [F.videos.notConvertible, { language: 'en' }, 'SOURCE_VIDEO_NOT_CONVERTIBLE'],
    [F.videos.convertible, { language: 'ja' }, 'CONVERT_NO_CHANGE'],
    [F.videos.convertible, { language: 'ja', aspect_ratio: '16:9' }, 'CONVERT_NO_CHANGE'],
    [F.videos.limitedVoices, { language: 'fr' }, 'LANGUAGE_NOT_SUPPORTED_BY_VOICES'],
  ])('fails fast on %s %j with %s', async (id, target, code) => {
    const e = await acme.convert(id, target as never).catch((e) => e);
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.error_code).toBe(code);
    if (code === 'LANGUAGE_NOT_SUPPORTED_BY_VOICES') expect(e.message).toContain('en,ko');
  });

  it('maps the server errors: 404, 500 after retries, 429 credit, 403 free plan, 401', async () => {
    await expect(acme.convert(FIXTURES.globex.videos.convertible, { language: 'en' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    const fast = createClient({
      apiKey: SANDBOX_KEYS.acme,
      baseUrl: sb.baseUrl,
      clock: sb.clock,
      fetch: counting,
      account: 'acme',
      retry: { baseDelayMs: 1, maxDelayMs: 5 },
    });
    await expect(fast.convert(F.videos.unknownError, { language: 'en' })).rejects.toMatchObject({
      status: 500,
      error_code: 'UNKNOWN_ERROR',
      kind: 'server',
    });
    const umbrella = createClient({ apiKey: SANDBOX_KEYS.umbrella, baseUrl: sb.baseUrl, clock: sb.clock });
    const credit = await umbrella.videos
      .generate({ video_setting_id: FIXTURES.umbrella.settings.text, text: 'x' })
      .catch((e) => e);
    expect(credit).toBeInstanceOf(InsufficientCreditError);
    expect(credit).toMatchObject({ status: 429, error_code: 'INSUFFICIENT_CREDIT', retryable: false });
    const initech = createClient({ apiKey: SANDBOX_KEYS.initech, baseUrl: sb.baseUrl, clock: sb.clock });
    const plan = await initech.convert(FIXTURES.initech.videos.convertible, { language: 'en' }).catch((e) => e);
    expect(plan).toBeInstanceOf(InsufficientCreditError);
    expect(plan).toMatchObject({
      status: 403,
      error_code: 'INSUFFICIENT_CREDIT',
      kind: 'insufficient_credit',
      retryable: false,
    });
    const bad = createClient({ apiKey: 'sandbox-key-nobody', baseUrl: sb.baseUrl, clock: sb.clock });
    const e = await bad.videos.get(F.videos.convertible).catch((e) => e);
    expect(e).toBeInstanceOf(AuthenticationError);
    expect(e.status).toBe(401);
    await expect(
      fast.videos.get(F.videos.convertible).then(() => fast.conversions.get(F.videos.convertible)),
    ).resolves.toHaveProperty('is_convertible', true);
    // A server 500 on generation is a ServerError once the retries are spent.
    await expect(
      fast.videos.generate({ video_setting_id: F.settings.text, text: MAGIC.unknownError }),
    ).rejects.toBeInstanceOf(ServerError);
  });

  it('re-reads the status for a fresh download URL when the first has expired (403)', async () => {
    let first = true;
    const c = createClient({
      apiKey: SANDBOX_KEYS.acme,
      baseUrl: sb.baseUrl,
      clock: sb.clock,
      account: 'acme',
      // Spoil the signature of the first download URL: the download host answers 403.
      fetch: (r) => {
        if (first && r.url.includes('/downloads/')) {
          first = false;
          return fetch(new Request(r.url.replace(/signature=\w/, 'signature=0')));
        }
        return counting(r);
      },
    });
    const r = await c.download(F.videos.convertible, `${dir}/fresh.mp4`);
    expect(r.bytes).toBeGreaterThan(0);
    expect(first).toBe(false);
  });

  it('paces a burst of one account across two keys: zero 429', async () => {
    const before = seen429;
    const acme2 = createClient({
      apiKey: SANDBOX_KEYS.acme2,
      baseUrl: sb.baseUrl,
      clock: sb.clock,
      fetch: counting,
      account: 'acme',
    });
    const acme1 = createClient({
      apiKey: SANDBOX_KEYS.acme,
      baseUrl: sb.baseUrl,
      clock: sb.clock,
      fetch: counting,
      account: 'acme',
    });
    await Promise.all(Array.from({ length: 16 }, (_, i) => (i % 2 ? acme1 : acme2).videos.get(F.videos.convertible)));
    const gens = Array.from({ length: 5 }, (_, i) =>
      (i % 2 ? acme1 : acme2).generateAndWait({ video_setting_id: F.settings.text, text: `burst ${i}` }, wait),
    );
    await Promise.all(gens);
    expect(seen429 - before).toBe(0);
  });

  it('met no 429 in the whole run', () => expect(seen429).toBe(0));
});

function write(name: string, size: number) {
  const p = `${dir}/${name}`;
  writeFileSync(p, Buffer.alloc(size, 1));
  return p;
}
function sparse(name: string, size: number) {
  const p = `${dir}/${name}`;
  writeFileSync(p, '');
  truncateSync(p, size);
  return p;
}
