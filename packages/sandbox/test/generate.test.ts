// Generation: the form against the setting's request_fields, the valid combinations, formats and
// sizes per plan (x-upload-limits), at most 10 images, streamed rejection of oversize files.
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, MAGIC, SANDBOX_KEYS, type RunningSandbox } from '../src/index.js';
import { call, expectError, form, sandbox } from './helpers.js';
import { streamedUpload } from '../bench/streamed-upload.mjs';

const S = FIXTURES.acme.settings;
const G = FIXTURES.globex.settings;
let sb: RunningSandbox;
beforeAll(async () => {
  // generationSeconds 0: videos finish at once, so the concurrency limit stays out of these tests.
  sb = await sandbox({ rateLimits: false, generationSeconds: 0 });
});
const gen = (fd: FormData, key: string = SANDBOX_KEYS.acme) => call(sb, 'POST', '/videos/generate/', { key, form: fd });

describe('valid requests', () => {
  it.each([
    ['text', S.text, { text: 'What is a black hole?' }, []],
    ['pdf_file', S.pdf, {}, [['pdf_file', 'a.pdf']]],
    ['pptx_file', S.pptx, {}, [['pptx_file', 'a.PPTX']]],
    ['text + pdf_file', S.textPdf, { text: 'Summarise' }, [['pdf_file', 'a.pdf']]],
    ['audio_file (.m4a)', S.audio, {}, [['audio_file', 'talk.m4a']]],
    ['video_file (.webm, Business)', S.video, {}, [['video_file', 'clip.webm']]],
    [
      'text + 10 images',
      S.textImages,
      { text: 'Illustrate' },
      Array.from({ length: 10 }, (_, i) => ['image_files', `i${i}.png`]),
    ],
    ['text alone with the illustrated setting', S.textImages, { text: 'No images' }, []],
  ] as const)('accepts %s', async (_n, setting, fields, files) => {
    const a = await gen(form({ video_setting_id: setting, ...fields }, files as any));
    expect(a.status).toBe(200);
    expect(a.body.video_id).toMatch(/^[0-9a-f-]{36}$/);
    // The default (even) limiter advertises class A as one request per 5 s.
    expect(a.headers.get('ratelimit-policy')).toBe('1;w=5');
  });
  it('accepts an image of exactly 10 MB and rejects 10 MB + 1 byte', async () => {
    expect(
      (await gen(form({ video_setting_id: S.textImages, text: 't' }, [['image_files', 'big.jpg', 10_000_000]]))).status,
    ).toBe(200);
    const a = await gen(form({ video_setting_id: S.textImages, text: 't' }, [['image_files', 'big.jpg', 10_000_001]]));
    expectError(a, 400, 'FILE_UPLOAD_ERROR');
    expect(a.body.error).toContain('image_files');
    expect(a.body.error).toContain('10 MB');
  });
});

describe('invalid forms', () => {
  it.each([
    ['no video_setting_id', {}, [['pdf_file', 'a.pdf']], 'INVALID_REQUEST'],
    ['a malformed video_setting_id', { video_setting_id: 'nope', text: 't' }, [], 'INVALID_REQUEST'],
    ['no input field', { video_setting_id: S.text }, [], 'INVALID_REQUEST'],
    ['empty text', { video_setting_id: S.text, text: '' }, [], 'INVALID_REQUEST'],
    [
      'pdf + pptx',
      { video_setting_id: S.pdf },
      [
        ['pdf_file', 'a.pdf'],
        ['pptx_file', 'a.pptx'],
      ],
      'INVALID_REQUEST',
    ],
    ['text + audio', { video_setting_id: S.text, text: 't' }, [['audio_file', 'a.mp3']], 'INVALID_REQUEST'],
    ['images without text', { video_setting_id: S.textImages }, [['image_files', 'a.png']], 'INVALID_REQUEST'],
    [
      'two pdf_file parts',
      { video_setting_id: S.pdf },
      [
        ['pdf_file', 'a.pdf'],
        ['pdf_file', 'b.pdf'],
      ],
      'INVALID_REQUEST',
    ],
    [
      'images as image_files[]',
      { video_setting_id: S.textImages, text: 't' },
      [['image_files[]', 'a.png']],
      'INVALID_REQUEST',
    ],
    ['text sent as a file', { video_setting_id: S.text }, [['text', 'a.txt']], 'INVALID_REQUEST'],
    ['pdf_file sent as a text field', { video_setting_id: S.pdf, pdf_file: 'a.pdf' }, [], 'INVALID_REQUEST'],
    [
      'an unknown setting',
      { video_setting_id: '00000000-0000-4000-8000-000000000000', text: 't' },
      [],
      'INVALID_VIDEO_SETTING',
    ],
    ["another account's setting", { video_setting_id: G.text, text: 't' }, [], 'INVALID_VIDEO_SETTING'],
    ['text with the PDF setting', { video_setting_id: S.pdf, text: 't' }, [], 'INVALID_VIDEO_SETTING'],
    [
      'pdf alone with the text+pdf setting',
      { video_setting_id: S.textPdf },
      [['pdf_file', 'a.pdf']],
      'INVALID_VIDEO_SETTING',
    ],
    [
      'images with the text-only setting',
      { video_setting_id: S.text, text: 't' },
      [['image_files', 'a.png']],
      'INVALID_VIDEO_SETTING',
    ],
    ['a .doc as pdf_file', { video_setting_id: S.pdf }, [['pdf_file', 'a.doc']], 'FILE_UPLOAD_ERROR'],
    ['a file without extension', { video_setting_id: S.audio }, [['audio_file', 'audio']], 'FILE_UPLOAD_ERROR'],
    ['a .gif image', { video_setting_id: S.textImages, text: 't' }, [['image_files', 'a.gif']], 'FILE_UPLOAD_ERROR'],
    [
      '11 images',
      { video_setting_id: S.textImages, text: 't' },
      Array.from({ length: 11 }, (_, i) => ['image_files', `i${i}.webp`]),
      'FILE_UPLOAD_ERROR',
    ],
  ] as const)('rejects %s', async (_n, fields, files, code) => {
    expectError(await gen(form(fields as any, files as any)), 400, code);
  });
  it('applies the Personal formats to globex (no .mov) and Business ones to acme', async () => {
    const personal = await gen(form({ video_setting_id: G.video }, [['video_file', 'clip.mov']]), SANDBOX_KEYS.globex);
    expectError(personal, 400, 'FILE_UPLOAD_ERROR');
    expect(personal.body.error).toContain('Personal');
    expect((await gen(form({ video_setting_id: S.video }, [['video_file', 'clip.mov']]))).status).toBe(200);
  });
  it('treats the Free plan like Personal for uploads', async () => {
    const a = await gen(
      form({ video_setting_id: FIXTURES.initech.settings.video }, [['video_file', 'clip.webm']]),
      SANDBOX_KEYS.initech,
    );
    expectError(a, 400, 'FILE_UPLOAD_ERROR');
  });
  it('rejects a non-multipart body with 400 INVALID_REQUEST', async () => {
    const a = await call(sb, 'POST', '/videos/generate/', {
      key: SANDBOX_KEYS.acme,
      json: { video_setting_id: S.text, text: 'x' },
    });
    expectError(a, 400, 'INVALID_REQUEST');
  });
  it('rejects a truncated multipart body with 400 INVALID_REQUEST', async () => {
    const boundary = 'XyZ';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="video_setting_id"\r\n\r\n${S.text}\r\n--${boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\nhal`;
    const a = await call(sb, 'POST', '/videos/generate/', {
      key: SANDBOX_KEYS.acme,
      body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expectError(a, 400, 'INVALID_REQUEST');
  });
  it('rejects multipart without a boundary', async () => {
    const a = await call(sb, 'POST', '/videos/generate/', {
      key: SANDBOX_KEYS.acme,
      body: 'abc',
      headers: { 'content-type': 'multipart/form-data' },
    });
    expectError(a, 400, 'INVALID_REQUEST');
  });
  it('[sandbox:unknown-error] answers 500 UNKNOWN_ERROR and creates nothing', async () => {
    const before = (await call(sb, 'GET', '/videos/', { key: SANDBOX_KEYS.globex })).body.total_count;
    expectError(
      await gen(form({ video_setting_id: G.text, text: `boom ${MAGIC.unknownError}` }), SANDBOX_KEYS.globex),
      500,
      'UNKNOWN_ERROR',
    );
    expectError(
      await gen(
        form({ video_setting_id: G.pdf }, [['pdf_file', `deck${MAGIC.unknownError}.pdf`]]),
        SANDBOX_KEYS.globex,
      ),
      500,
      'UNKNOWN_ERROR',
    );
    expect((await call(sb, 'GET', '/videos/', { key: SANDBOX_KEYS.globex })).body.total_count).toBe(before);
  });
  it('answers 429 INSUFFICIENT_CREDIT for an account without credit, after the form checks', async () => {
    expectError(
      await gen(form({ video_setting_id: FIXTURES.umbrella.settings.text, text: 'x' }), SANDBOX_KEYS.umbrella),
      429,
      'INSUFFICIENT_CREDIT',
    );
    expectError(
      await gen(form({ video_setting_id: FIXTURES.umbrella.settings.pdf, text: 'x' }), SANDBOX_KEYS.umbrella),
      400,
      'INVALID_VIDEO_SETTING',
    );
  });
});

/** The shared streamed upload (bench and tests), with the answer's body parsed. */
async function streamUpload(
  sbx: RunningSandbox,
  key: string,
  setting: string,
  field: string,
  filename: string,
  total: number,
) {
  const a = await streamedUpload({
    baseUrl: sbx.baseUrl,
    key,
    setting,
    field,
    filename,
    total,
    chunkBytes: 256 * 1024,
  });
  return { status: a.status as number, body: JSON.parse(a.text), sentWhenAnswered: a.sentWhenAnswered as number };
}

describe('streamed uploads', () => {
  it('rejects an oversize file as soon as it passes the limit, while the client is still sending', async () => {
    // globex is Personal: audio_file is limited to 50 MB; offer 400 MB.
    const a = await streamUpload(sb, SANDBOX_KEYS.globex, G.audio, 'audio_file', 'long.mp3', 400_000_000);
    expect(a.status).toBe(400);
    expect(a.body.error_code).toBe('FILE_UPLOAD_ERROR');
    expect(a.body.error).toContain('audio_file');
    expect(a.body.error).toContain('50 MB');
    expect(a.body.error).toContain('Personal');
    expect(a.sentWhenAnswered).toBeGreaterThan(50_000_000);
    expect(a.sentWhenAnswered).toBeLessThan(120_000_000);
  });
  it('accepts a file of exactly the limit, streamed', async () => {
    const a = await streamUpload(sb, SANDBOX_KEYS.globex, G.audio, 'audio_file', 'exact.wav', 50_000_000);
    expect(a.status).toBe(200);
    expect(a.body.video_id).toMatch(/^[0-9a-f-]{36}$/);
  });
  it('keeps answering on the same server afterwards', async () => {
    expect((await call(sb, 'GET', '/videos/', { key: SANDBOX_KEYS.globex })).status).toBe(200);
  });
});
