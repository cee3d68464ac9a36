// @module-tag full/runtimes
// @module-tag full/packed
// The packed client, imported as users import it, on each runtime we state: one real session
// against a real sandbox on loopback (settings, generations, polling, download URL, a typed error).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { build } from 'esbuild';
import { join } from 'node:path';
import { statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxy } from 'proxy';
import { startSandbox, SANDBOX_KEYS, FIXTURES, type RunningSandbox } from '@videogen/sandbox';
import { Webhook } from 'standardwebhooks';
import { MINIFLARE } from '../scripts/runtimes.mjs';
import { runJson } from './run.js';

const dir = inject('consumerDir');
const bins = inject('runtimes');
const F = FIXTURES.acme;
const MISSING = '00000000-0000-4000-8000-0000000000ff';
let sb: RunningSandbox;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, timeScale: 100, validateResponses: true });
});
afterAll(async () => {
  expect(sb.violations).toEqual([]);
  await sb.close();
});

/** What every runtime's session must have seen. */
function expectSession(out: Record<string, any>) {
  expect(out.settings).toEqual(Object.values(F.settings).sort());
  expect(out.status).toBe('completed');
  expect(out.download).toMatchObject({ status: 200, box: 'ftyp' });
  expect(out.download.bytes).toBeGreaterThan(1000);
  expect(out.pdfStatus).toBe('completed');
  expect(out.notFound).toEqual({ isNotFound: true, isApiError: true, status: 404, code: 'NOT_FOUND' });
  expect(out.withResponse).toEqual({ videoStatus: 'completed', status: 200, isResponse: true, json: true });
  expect(out.asResponse).toEqual({ ok: true, bodyUsed: false, convertible: 'boolean' });
  expect(out.firstPage).toEqual({ page: 1, items: Object.keys(F.settings).length });
  expect(out.headerOverride).toEqual({ kind: 'auth', status: 401 });
  expect(out.aborted).toBe('stopped by the caller');
  expect(out.webhook).toEqual({
    id: 'msg_runtime0123456789abcdef01234567',
    type: 'video.failed',
    video: F.videos.failed,
  });
  expect(out.webhookTampered).toEqual({ kind: 'webhook', code: 'WEBHOOK_SIGNATURE_INVALID' });
}

// The key comes from VIDEO_API_KEY, the client's default on runtimes that have process.env.
const args = (name: string) => [F.settings.text, F.settings.pdf, MISSING, join(dir, `${name}.mp4`)];
const env = () => ({
  VIDEO_API_KEY: SANDBOX_KEYS.acme,
  VIDEO_API_BASE_URL: sb.baseUrl,
  WEBHOOK_DELIVERY: JSON.stringify(delivery()),
});

/** A relay's delivery, signed now with the stock standardwebhooks (the session verifies it with verifyWebhook). */
const WEBHOOK_SECRET = `whsec_${Buffer.from('runtime-tests-webhook-secret-012345').toString('base64')}`;
function delivery() {
  const body = JSON.stringify({
    type: 'video.failed',
    timestamp: new Date().toISOString(),
    data: { video_id: F.videos.failed, status: 'failed' },
  });
  const id = 'msg_runtime0123456789abcdef01234567';
  const at = new Date();
  return {
    body,
    secret: WEBHOOK_SECRET,
    headers: {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(WEBHOOK_SECRET).sign(id, at, body),
    },
  };
}
const saved = (out: Record<string, any>, name: string) => {
  expect(out.saved).toEqual({ path: join(dir, `${name}.mp4`), bytes: out.download.bytes });
  expect(statSync(out.saved.path).size).toBe(out.download.bytes);
};

describe.each([
  ['Node 22', 'node22', (b: string) => [b, ['main.mjs']]],
  ['Node 24', 'node24', (b: string) => [b, ['main.mjs']]],
  ['Bun', 'bun', (b: string) => [b, ['main.mjs']]],
  // The permissions a user grants: network, the key's variable, files for uploads and downloads.
  [
    'Deno',
    'deno',
    (b: string) => [b, ['run', '--allow-net', '--allow-env', '--allow-read', `--allow-write=${dir}`, 'main.mjs']],
  ],
] as const)('%s', (_, name, command) => {
  it('runs a session with the packed client against the sandbox', async () => {
    const [cmd, pre] = command(bins[name]);
    const out = await runJson(cmd, [...pre, ...args(name)], { cwd: dir, env: env() });
    expectSession(out);
    saved(out, name);
  });
});

// Proxies: each runtime's way, through a real proxy. Node 22 with NODE_USE_ENV_PROXY=1 is
// Node's own support; Node 24 without it goes through undici (the client's optional dependency);
// Bun and Deno read the variables themselves.
describe('behind HTTP_PROXY', () => {
  let proxy: http.Server;
  const asked: string[] = [];
  beforeAll(async () => {
    proxy = createProxy(http.createServer());
    proxy.on('request', (req) => asked.push(`${req.method} ${req.url}`));
    proxy.on('connect', (req) => asked.push(`CONNECT ${req.url}`));
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  });
  afterAll(() => {
    proxy.closeAllConnections();
    proxy.close();
  });
  it.each([
    ['Node 22 (NODE_USE_ENV_PROXY=1)', 'node22', { NODE_USE_ENV_PROXY: '1' }, (b: string) => [b, ['proxy.mjs']]],
    ['Node 24 (undici)', 'node24', {}, (b: string) => [b, ['proxy.mjs']]],
    ['Bun', 'bun', {}, (b: string) => [b, ['proxy.mjs']]],
    [
      'Deno',
      'deno',
      {},
      (b: string) => [b, ['run', '--allow-net', '--allow-env', '--allow-read', `--allow-write=${dir}`, 'proxy.mjs']],
    ],
  ] as const)('%s: API calls and the download go through the proxy', async (_, name, extra, command) => {
    asked.length = 0;
    const [cmd, pre] = command(bins[name]);
    const out = await runJson(cmd, [...pre, F.videos.convertible, join(dir, `proxied-${name}.mp4`)], {
      cwd: dir,
      env: {
        ...env(),
        HTTP_PROXY: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
        NO_PROXY: '',
        ...extra,
      },
    });
    expect(out).toMatchObject({ status: 'completed', http: 200 });
    expect(out.bytes).toBeGreaterThan(1000);
    const host = new URL(sb.baseUrl).host;
    // A tunnel (CONNECT host) or absolute-form requests (GET http://host/...), as the runtime chooses.
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((a) => a === `CONNECT ${host}` || a.startsWith(`GET http://${host}/`))).toBe(true);
    if (!asked.some((a) => a.startsWith('CONNECT'))) {
      expect(asked).toContain(`GET ${sb.baseUrl}/videos/${F.videos.convertible}/`);
      expect(asked.some((a) => !a.includes('/v1/videos/'))).toBe(true); // the download
    }
  });
});

// Bundled as wrangler does: esbuild with the workerd conditions, node: built-ins left to workerd.
async function runWorker(flags: string[]) {
  const script = join(dir, 'worker.bundle.mjs');
  await build({
    entryPoints: [join(dir, 'worker.mjs')],
    outfile: script,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    external: ['node:*'],
    logLevel: 'error',
  });
  const bindings = {
    VIDEO_API_KEY: SANDBOX_KEYS.acme,
    VIDEO_API_BASE_URL: sb.baseUrl,
    textSetting: F.settings.text,
    pdfSetting: F.settings.pdf,
    missingId: MISSING,
    webhook: delivery(),
  };
  // miniflare needs Node >= 22: it runs on the pinned Node 24.
  return runJson(bins.node24, ['run-worker.mjs', MINIFLARE, script, JSON.stringify(bindings), JSON.stringify(flags)], {
    cwd: dir,
  });
}

describe('Cloudflare Worker (workerd via miniflare)', () => {
  it('plain (no process, no fs): runs a session with the key from its bindings; a file path gets one clear error', async () => {
    const out = await runWorker([]);
    expectSession(out);
    expect(out.upload_from_path).toEqual({
      name: 'ValidationError',
      message: expect.stringMatching(/pdf_file: the file path "deck\.pdf" needs a file system/),
    });
    expect(out.download_to_path).toEqual({ name: 'TypeError', message: expect.stringMatching(/needs a file system/) });
  });

  it("with nodejs_compat: the same session; paths reach workerd's in-memory file system", async () => {
    const out = await runWorker(['nodejs_compat']);
    expectSession(out);
    expect(out.upload_from_path.message).toMatch(/deck\.pdf/); // ENOENT: nothing there
    expect(out.download_to_path).toBe('no error'); // written to the per-request in-memory /tmp
  });
});
