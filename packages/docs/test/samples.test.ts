// @module-tag full/tools
// The code samples are what users copy: each one is type-checked against the client's published
// types, compiled with esbuild, and RUN against the sandbox over loopback; a sample that no longer
// works fails the build. The curl samples run too, with curl, the JavaScript ones with node (fetch) and
// the Python ones with python3 (requests).
import { execFile, execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FIXTURES, MAGIC, SANDBOX_KEYS, startSandbox, type RunningSandbox } from '@videogen/sandbox';
import { packageDir, samplesDir } from '../scripts/docs-spec.mjs';
import { startRelay, until } from '../../relay/test/harness.mjs';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const acme = FIXTURES.acme;
const tsSamples = readdirSync(samplesDir)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.slice(0, -3));

let sandbox: RunningSandbox;
let work: string; // compiled samples and the files they write
let outDir: string;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a sample: only what a user would set. Nothing of the test's own environment
 * (a developer's real VIDEO_API_KEY, say) leaks in.
 */
function sampleEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    VIDEO_API_BASE_URL: sandbox.baseUrl,
    VIDEO_API_KEY: SANDBOX_KEYS.acme,
    ...extra,
  };
}

let python: string | undefined;

/**
 * The interpreter that `python3` on the samples' PATH runs, asked once: a version manager's shim (pyenv's
 * is a bash script) starts several processes before every sample otherwise.
 */
function python3(): string {
  python ??= execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
  }).trim();
  return python;
}

function run(file: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<Run> {
  // A .sh with bash, a .py with python3, a sample file .mjs as it is; a bare name is a compiled TypeScript sample.
  const [command, script] = file.endsWith('.sh')
    ? ['bash', file]
    : file.endsWith('.py')
      ? [python3(), file]
      : file.endsWith('.mjs')
        ? [process.execPath, file]
        : [process.execPath, join(outDir, `${file}.mjs`)];
  return new Promise((resolve) => {
    execFile(
      command,
      [script, ...args],
      { cwd: options.cwd ?? work, env: options.env ?? sampleEnv(), timeout: 480_000 }, // a hang guard only
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

function lines(text: string) {
  return text.trim().split('\n').filter(Boolean);
}

/** What every language's listVideoSettings prints: acme's 7 settings with their fields. */
function expectSettingsListed(r: Run) {
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const out = lines(r.stdout);
  expect(out).toHaveLength(7);
  expect(out).toContain(`${acme.settings.text}  Explainer from a question  [text]`);
  expect(out).toContain(`${acme.settings.textPdf}  Report from a PDF with instructions  [text, pdf_file]`);
}

/** What every language's getConversionOptions prints for acme's convertible video. */
function expectOptionsPrinted(r: Run) {
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const out = lines(r.stdout);
  expect(out[0]).toBe('language: ja');
  expect(out[1]).toBe('aspect ratio: 16:9');
  expect(out[2]!.split(' ').slice(1)).toHaveLength(33); // every language but ja
  expect(out[3]).toBe('ratios: 16:9 9:16 4:3 1:1 4:5 2:3 21:9');
}

/** GET on the sandbox with acme's key, to check what a sample did. */
async function api(path: string) {
  const res = await fetch(`${sandbox.baseUrl}${path}`, { headers: { authorization: `Bearer ${SANDBOX_KEYS.acme}` } });
  return { status: res.status, body: (await res.json()) as any };
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'videogen-docs-samples-'));
  outDir = join(work, 'compiled');
  // Bundled whole (client included), so that each file runs from the temp dir on its own.
  await build({
    entryPoints: tsSamples.map((name) => join(samplesDir, `${name}.ts`)),
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
  });
  // A fast sandbox: a generation takes 30 s / 100; the rate-limit windows shrink alike.
  sandbox = await startSandbox({ port: 0, timeScale: 100, validateResponses: true, rateLimiter: 'sliding' }); // curl samples run back to back, unpaced: the burst-tolerant reading of 8.1
});

afterAll(async () => {
  // Every response the sandbox sent while the samples ran matched the OpenAPI document.
  const violations = sandbox ? [...sandbox.violations] : [];
  await sandbox?.close();
  if (work) rmSync(work, { recursive: true, force: true });
  expect(violations).toEqual([]);
});

test('every TypeScript sample type-checks against the client (tsc --noEmit)', () => {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = (() => {
    try {
      return {
        ok: true,
        out: execFileSync(process.execPath, [tsc, '--noEmit', '-p', join(samplesDir, 'tsconfig.json')], {
          encoding: 'utf8',
        }),
      };
    } catch (error: any) {
      return { ok: false, out: `${error.stdout ?? ''}${error.stderr ?? ''}` };
    }
  })();
  expect(result.out).toBe('');
  expect(result.ok).toBe(true);
});

describe('TypeScript samples run against the sandbox', () => {
  test('listVideoSettings prints every setting with its fields', async () => {
    expectSettingsListed(await run('listVideoSettings', []));
  });

  test('generateVideo prints the id of a new video that the service then has', async () => {
    const r = await run('generateVideo', [acme.settings.text, 'A docs sample test']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [id] = lines(r.stdout);
    expect(id).toMatch(UUID);
    const video = await api(`/videos/${id}/`);
    expect(video.status).toBe(200);
    expect(['running', 'completed']).toContain(video.body.status);
  });

  test('generateVideo without a setting id fails with its usage line', async () => {
    const r = await run('generateVideo', []);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('usage:');
  });

  test('listVideos prints at most 20 videos, the seeded ones among them', async () => {
    const r = await run('listVideos', []);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = lines(r.stdout);
    expect(out.length).toBeGreaterThanOrEqual(7);
    expect(out.length).toBeLessThanOrEqual(20);
    expect(out.some((l) => l.includes(acme.videos.convertible) && l.includes('Explain photosynthesis'))).toBe(true);
  });

  test('getVideo prints the status and, when completed, the download URL', async () => {
    const done = await run('getVideo', [acme.videos.convertible]);
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    const [status, url] = lines(done.stdout);
    expect(status).toBe('completed');
    expect(url).toMatch(/^https?:\/\//);

    const failed = await run('getVideo', [acme.videos.failed]);
    expect(failed.code).toBe(0);
    expect(lines(failed.stdout)).toEqual(['failed']);
  });

  test('getVideo on an unknown video exits non-zero with NOT_FOUND', async () => {
    const r = await run('getVideo', ['00000000-0000-4000-8000-000000000000']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/NOT_FOUND|not found/i);
  });

  test('getConversionOptions prints the targets of a convertible video', async () => {
    expectOptionsPrinted(await run('getConversionOptions', [acme.videos.convertible]));

    const not = await run('getConversionOptions', [acme.videos.notConvertible]);
    expect(not.code).toBe(0);
    expect(lines(not.stdout)).toContain('not convertible');
  });

  test('createConversion prints the new video id; a refused one exits 1 with the error code', async () => {
    const ok = await run('createConversion', [acme.videos.convertible, 'en']);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    const [id] = lines(ok.stdout);
    expect(id).toMatch(UUID);
    expect(id).not.toBe(acme.videos.convertible);
    expect((await api(`/videos/${id}/`)).status).toBe(200);

    const refused = await run('createConversion', [acme.videos.limitedVoices, 'fr']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^LANGUAGE_NOT_SUPPORTED_BY_VOICES: /);
  });

  test('quickstart generates, waits for and downloads a video', async () => {
    const cwd = mkdtempSync(join(work, 'quickstart-'));
    const r = await run('quickstart', [], { cwd });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = lines(r.stdout);
    expect(out.at(-2)).toMatch(/^completed after \d+ s$/);
    const saved = /^saved (\d+) bytes to (.+)$/.exec(out.at(-1)!);
    expect(saved).not.toBeNull();
    const file = join(cwd, 'photosynthesis.mp4');
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).size).toBe(Number(saved![1]));
    expect(statSync(file).size).toBeGreaterThan(0);
  });

  test('generateFromPdf uploads a PDF, waits, downloads; a failing generation exits 1', async () => {
    const cwd = mkdtempSync(join(work, 'pdf-'));
    const pdf = join(cwd, 'report.pdf');
    writeFileSync(pdf, '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
    const r = await run('generateFromPdf', [acme.settings.pdf, pdf], { cwd });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = lines(r.stdout);
    expect(out.some((l) => /^uploaded \d+ of \d+ bytes$/.test(l))).toBe(true);
    expect(out).toContain('completed');
    expect(out.at(-1)).toMatch(/^saved \d+ bytes to [0-9a-f-]{36}\.mp4$/);

    // The sandbox's magic value in the file name makes the generation fail.
    const failing = join(cwd, `deck${MAGIC.fail}.pdf`);
    writeFileSync(failing, readFileSync(pdf));
    const f = await run('generateFromPdf', [acme.settings.pdf, failing], { cwd });
    expect(f.code).toBe(1);
    expect(f.stderr).toContain('could not generate this video');
  });
});

describe('the guide "Webhooks without webhooks", with a relay process', () => {
  test('a function starts a video and returns; the relay calls a second one, which verifies and downloads it', async () => {
    const secret = `whsec_${Buffer.from('docs-guide-webhook-secret-0123456789').toString('base64')}`;
    const downloads = mkdtempSync(join(work, 'webhooks-'));
    const env = {
      VIDEO_API_KEY: SANDBOX_KEYS.acme,
      VIDEO_API_BASE_URL: sandbox.baseUrl,
      VIDEO_SETTING_ID: acme.settings.text,
      VIDEO_WEBHOOK_SECRET: secret,
      DOWNLOAD_DIR: downloads,
      VIDEO_RELAY_URL: '',
    };
    type Handler = { default: { fetch(r: Request, env: object): Promise<Response> } };
    const start = (await import(pathToFileURL(join(outDir, 'startVideo.mjs')).href)) as Handler;
    const receive = (await import(pathToFileURL(join(outDir, 'receiveVideo.mjs')).href)) as Handler;
    // The platform that runs receiveVideo: an HTTP server handing each request to its fetch handler.
    const answers: number[] = [];
    const platform = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      const response = await receive.default.fetch(
        new Request(`http://fn${req.url}`, { method: 'POST', headers, body }),
        env,
      );
      answers.push(response.status);
      res.writeHead(response.status).end(await response.text());
    });
    await new Promise<void>((resolve) => platform.listen(0, '127.0.0.1', () => resolve()));
    const address = platform.address();
    const fn = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/video-done`;
    // The relay: its own process, its state in a file.
    const relay = await startRelay({
      options: {
        forwardTo: fn,
        secret,
        apiKey: SANDBOX_KEYS.acme,
        baseUrl: sandbox.baseUrl,
        stateFile: join(downloads, 'relay.json'),
        listen: 0,
        pollIntervalMs: 100,
        backfillMs: 0,
      },
    });
    try {
      env.VIDEO_RELAY_URL = relay.url ?? '';
      const started = await start.default.fetch(
        new Request('http://fn/start', { method: 'POST', body: JSON.stringify({ prompt: 'A docs guide video' }) }),
        env,
      );
      expect(started.status).toBe(202);
      const { video_id } = (await started.json()) as { video_id: string };
      const file = join(downloads, `${video_id}.mp4`);
      // The function answers once its download is written; the file exists from the download's first byte.
      await until(() => answers.length > 0, "the function's answer to the relay");
      expect(existsSync(file)).toBe(true);
      expect(statSync(file).size).toBeGreaterThan(0);
      expect(answers).toEqual([204]);
      // A delivery that was not signed with the secret is refused with the envelope.
      const forged = await fetch(fn, {
        method: 'POST',
        headers: {
          'webhook-id': 'msg_x',
          'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
          'webhook-signature': 'v1,AAAA',
        },
        body: JSON.stringify({ type: 'video.completed', timestamp: '', data: { video_id } }),
      });
      expect(forged.status).toBe(400);
      expect(await forged.json()).toMatchObject({ error_code: 'WEBHOOK_SIGNATURE_INVALID' });
    } finally {
      await relay.stop();
      platform.close();
    }
  });
});

describe('curl samples run against the sandbox', () => {
  const curl = (op: string) => join(samplesDir, 'curl', `${op}.sh`);
  const curlEnv = (extra: Record<string, string> = {}) => sampleEnv(extra);

  beforeAll(() => {
    try {
      execFileSync('curl', ['--version'], { stdio: 'ignore' });
    } catch {
      throw new Error('curl is not installed; the curl samples need it (apt-get install -y curl)');
    }
  });

  test('listVideoSettings and listVideos answer a first page', async () => {
    for (const op of ['listVideoSettings', 'listVideos']) {
      const r = await run(curl(op), [], { env: curlEnv() });
      expect(r.code, `${op}: ${r.stderr}${r.stdout}`).toBe(0);
      const page = JSON.parse(r.stdout);
      expect(page.page).toBe(1);
      expect(page.items_per_page).toBe(50);
      expect(page.results.length).toBeGreaterThanOrEqual(7);
    }
  });

  test('generateVideo answers the new video id', async () => {
    const r = await run(curl('generateVideo'), [], { env: curlEnv({ VIDEO_SETTING_ID: acme.settings.text }) });
    expect(r.code, r.stdout).toBe(0);
    expect(JSON.parse(r.stdout).video_id).toMatch(UUID);
  });

  test('getVideo, getConversionOptions and createConversion on a seeded video', async () => {
    const env = curlEnv({ VIDEO_ID: acme.videos.convertible });
    const video = await run(curl('getVideo'), [], { env });
    expect(video.code, video.stdout).toBe(0);
    expect(JSON.parse(video.stdout).status).toBe('completed');

    const options = await run(curl('getConversionOptions'), [], { env });
    expect(options.code, options.stdout).toBe(0);
    expect(JSON.parse(options.stdout).is_convertible).toBe(true);

    const conversion = await run(curl('createConversion'), [], { env });
    expect(conversion.code, conversion.stdout).toBe(0);
    expect(JSON.parse(conversion.stdout).video_id).toMatch(UUID);
  });

  test('--fail-with-body makes a refused request fail, with the error body', async () => {
    const r = await run(curl('getVideo'), [], {
      env: curlEnv({ VIDEO_API_KEY: 'not-a-key', VIDEO_ID: acme.videos.convertible }),
    });
    expect(r.code).toBe(22);
    expect(JSON.parse(r.stdout).error_code).toBe('UNAUTHORIZED');
  });
});

// JavaScript (fetch) and Python (requests) samples take the same arguments and print the same lines.
describe.each([
  {
    language: 'JavaScript (fetch, node)',
    file: (op: string) => join(samplesDir, 'js', `${op}.mjs`),
    tool: [process.execPath, '--version'],
  },
  {
    language: 'Python (requests, python3)',
    file: (op: string) => join(samplesDir, 'python', `${op}.py`),
    tool: ['python3', '-c', 'import requests'],
  },
])('$language samples run against the sandbox', ({ file, tool }) => {
  beforeAll(() => {
    try {
      execFileSync(tool[0]!, tool.slice(1), { stdio: 'ignore' });
    } catch {
      throw new Error(
        `${tool.join(' ')} failed: the Python samples need python3 and requests (apt-get install -y python3-requests)`,
      );
    }
  });

  test('listVideoSettings prints every setting with its fields', async () => {
    expectSettingsListed(await run(file('listVideoSettings'), []));
  });

  test('listVideos prints the first page, the seeded videos among it', async () => {
    const r = await run(file('listVideos'), []);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = lines(r.stdout);
    expect(out.some((l) => l.includes(acme.videos.convertible) && l.includes('Explain photosynthesis'))).toBe(true);
    expect(out.at(-1)).toMatch(/^page 1, \d+ in all$/);
  });

  test('getVideo prints the status and the download URL; an unknown video exits 1 with NOT_FOUND', async () => {
    const done = await run(file('getVideo'), [acme.videos.convertible]);
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    const [status, url] = lines(done.stdout);
    expect(status).toBe('completed');
    expect((await fetch(url!)).headers.get('content-type')).toBe('video/mp4');
    expect(lines((await run(file('getVideo'), [acme.videos.failed])).stdout)).toEqual(['failed']);

    const missing = await run(file('getVideo'), ['00000000-0000-4000-8000-000000000000']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^NOT_FOUND: /);
  });

  test('getConversionOptions prints the targets of a convertible video', async () => {
    expectOptionsPrinted(await run(file('getConversionOptions'), [acme.videos.convertible]));
    expect(lines((await run(file('getConversionOptions'), [acme.videos.notConvertible])).stdout)).toContain(
      'not convertible',
    );
  });

  test('createConversion prints the new video id; a refused one exits 1 with the 7.2 code', async () => {
    const ok = await run(file('createConversion'), [acme.videos.convertible, 'en']);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    const [id] = lines(ok.stdout);
    expect(id).toMatch(UUID);
    expect((await api(`/videos/${id}/`)).status).toBe(200);

    const refused = await run(file('createConversion'), [acme.videos.limitedVoices, 'fr']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^LANGUAGE_NOT_SUPPORTED_BY_VOICES: /);
  });

  test('generateVideo sends a text, and a PDF file as a multipart part', async () => {
    const text = await run(file('generateVideo'), [acme.settings.text, 'A docs sample test']);
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    const [id] = lines(text.stdout);
    expect(id).toMatch(UUID);
    expect((await api(`/videos/${id}/`)).status).toBe(200);

    const cwd = mkdtempSync(join(work, 'upload-'));
    writeFileSync(join(cwd, 'report.pdf'), '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n');
    const pdf = await run(file('generateVideo'), [acme.settings.pdf, 'report.pdf'], { cwd });
    expect(pdf.stderr).toBe('');
    expect(pdf.code).toBe(0);
    const [pdfId] = lines(pdf.stdout);
    expect(pdfId).toMatch(UUID);
    const listed = await api('/videos/');
    expect(listed.body.results.map((v: any) => v.video_id)).toContain(pdfId);

    // A setting that takes a PDF, sent a text: the service's refusal, exit 1.
    const wrong = await run(file('generateVideo'), [acme.settings.pdf, 'not a pdf']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/^INVALID_VIDEO_SETTING: /);
  });
});

test('the guides show the tested samples verbatim', () => {
  const guides = readdirSync(join(packageDir, 'guides')).filter((f) => f.endsWith('.md'));
  let checked = 0;
  for (const guide of guides) {
    const text = readFileSync(join(packageDir, 'guides', guide), 'utf8');
    for (const m of text.matchAll(/<!-- sample: (\S+) -->\n```ts\n([\s\S]*?)\n```/g)) {
      const file = readFileSync(join(samplesDir, m[1]!), 'utf8').trimEnd();
      expect(m[2], `${guide} shows samples/${m[1]}`).toBe(file);
      checked++;
    }
  }
  expect(checked).toBeGreaterThanOrEqual(2);
});
