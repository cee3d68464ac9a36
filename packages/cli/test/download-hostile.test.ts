// @module-tag full/processes
// @module-tag node-versions
// `videogen download` against a download host the test plays itself, in a real child
// process with real signals. Ctrl-C (SIGINT), SIGTERM or SIGHUP in the middle of a download leave no
// `.part` file (the README promises no partial file; before, SIGINT exited at once and SIGTERM killed the
// process, leaving out.mp4.<ts>.part); an answer that is not a video is an error, not a file.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, cliEnv, errorLine, run } from './helpers.js';

const KEY = 'hostile-test-key-9f2c';
const SAMPLE = readFileSync(new URL('../../sandbox/assets/sample.mp4', import.meta.url));
// One video id per behaviour of the download host.
const IDS = {
  drip: '0d0d0d0d-0000-4000-8000-000000000001', // a real MP4's first bytes, then nothing more
  json: '0d0d0d0d-0000-4000-8000-000000000002', // 200 application/json
  octet: '0d0d0d0d-0000-4000-8000-000000000003', // 200 application/octet-stream holding an HTML page
  good: '0d0d0d0d-0000-4000-8000-000000000004', // the sample MP4
  running: '0d0d0d0d-0000-4000-8000-000000000005', // never completes
};
const MODE = Object.fromEntries(Object.entries(IDS).map(([mode, id]) => [id, mode]));

let server: Server;
let base: string;
const held: Array<() => void> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const status = /^\/v1\/videos\/([^/]+)\/$/.exec(req.url ?? '');
    if (status) {
      const id = status[1]!;
      const running = MODE[id] === 'running';
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          video_id: id,
          status: running ? 'running' : 'completed',
          download_url: running ? '' : `${base}/file/${MODE[id]}.mp4?signature=s`,
          copyright: [],
        }),
      );
      return;
    }
    const file = /^\/file\/(\w+)\.mp4/.exec(req.url ?? '')?.[1];
    if (file === 'drip') {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(50_000_000) });
      res.write(SAMPLE.subarray(0, 1024));
      held.push(() => res.destroy()); // the rest never comes
    } else if (file === 'json') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"error_code":"EXPIRED","error":"The link has expired"}');
    } else if (file === 'octet') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end('<html><body>Proxy login</body></html>');
    } else if (file === 'good') {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(SAMPLE.length) }).end(SAMPLE);
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const h of held) h();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const env = () => cliEnv({ key: KEY, baseUrl: `${base}/v1` });

/** Starts the CLI, waits until `ready(dir)` holds, sends `signal`; resolves with how it ended. */
async function interrupt(args: string[], dir: string, ready: () => boolean, signal: NodeJS.Signals) {
  const child = spawn(process.execPath, [CLI, ...args], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.resume();
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, sig) => resolve({ code, signal: sig })),
  );
  // A deadline that ends a hang, not a measure of speed.
  const deadline = Date.now() + 60_000;
  while (!ready()) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`never ready: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  child.kill(signal);
  const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const end = await closed;
  clearTimeout(guard);
  return { ...end, stderr };
}

const partFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.part'));

describe('a signal in the middle of a download', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    it(`${signal}: exit ${code}, and no .part file is left`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'videogen-cli-sig-'));
      const out = join(dir, 'out.mp4');
      // Ready once the temporary file exists and holds the first bytes: the download is under way.
      const ready = () => partFiles(dir).some((f) => statSync(join(dir, f)).size > 0);
      const end = await interrupt(['download', IDS.drip, out, '--quiet'], dir, ready, signal);
      expect({ code: end.code, signal: end.signal }).toEqual({ code, signal: null });
      expect(readdirSync(dir)).toEqual([]);
      expect(errorLine(end.stderr)).toBe(
        `videogen: interrupted by ${signal}: the download to ${out} was stopped, and its partial file removed.`,
      );
    });
  }

  it('a signal while waiting (nothing to clean up) exits at once, as before', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'videogen-cli-sig-'));
    let polls = 0;
    const counting = (_req: unknown) => polls++;
    server.on('request', counting);
    try {
      const end = await interrupt(
        ['wait', IDS.running, '--interval', '0.05', '--timeout', '300'],
        dir,
        () => polls >= 2,
        'SIGINT',
      );
      expect(end.code).toBe(130);
    } finally {
      server.off('request', counting);
    }
  });
});

describe('a download_url that does not answer a video', () => {
  it('JSON with 200: exit 1, one line saying it is not a video, no file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'videogen-cli-nv-'));
    const r = await run(['download', IDS.json, join(dir, 'out.mp4')], { key: KEY, baseUrl: `${base}/v1` });
    expect(r.code).toBe(1);
    const line = errorLine(r.stderr);
    expect(line).toMatch(/answered 200 application\/json, not a video: \{"error_code":"EXPIRED"/);
    expect(line).toMatch(/Nothing was written/);
    expect(line).not.toContain('signature=s'); // the address is a credential: only its host is named
    expect(readdirSync(dir)).toEqual([]);
  });

  it('an HTML page sent as application/octet-stream: exit 1 (no video signature), no file; --json says NOT_A_VIDEO', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'videogen-cli-nv-'));
    const r = await run(['download', IDS.octet, join(dir, 'out.mp4'), '--json'], { key: KEY, baseUrl: `${base}/v1` });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: 'NOT_A_VIDEO', exit_code: 1 } });
    expect(errorLine(r.stderr)).toMatch(/no MP4 or WebM signature/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a real MP4 is saved whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'videogen-cli-nv-'));
    const r = await run(['download', IDS.good, join(dir, 'out.mp4')], { key: KEY, baseUrl: `${base}/v1` });
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'out.mp4')).equals(SAMPLE)).toBe(true);
    expect(readdirSync(dir)).toEqual(['out.mp4']);
  });
});
