// node probes/transport-limits.mjs [ROOT] [--cases stall,size,proxy] [--cap SECONDS]: replays answers that
// never end (stall), bodies too large (size) and a stalled target behind the pacing proxy (proxy) against
// the built packages of a checkout (ROOT, default this one; `git archive main | tar -x -C DIR`,
// `npm ci`, `npm run build` gives one of main) and prints, per case, what happened, how long it took and
// the peak memory of the process concerned (GNU time's %M for the bins, VmHWM from /proc for the proxy).
// Hostile servers are played here, over loopback: a drip (headers, then a byte a second), a gzip bomb
// (1 MB inflating to 1 GiB), a declared Content-Length of 10 GB, a download host that sends forever, and
// an API whose status view drips behind the pacing proxy. A case still running at the cap (default 180 s)
// is killed and reported so. Nothing is asserted: run it on both checkouts and compare. Mind the memory
// on a checkout without the limits: there the declared 10 GB body grew the CLI to 19 GB before it failed.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipBomb } from '../scripts/hostile/gzip-bomb.mjs';

const args = process.argv.slice(2);
const capAt = args.indexOf('--cap');
const CAP_MS = (capAt >= 0 ? Number(args.splice(capAt, 2)[1]) : 180) * 1000;
const casesAt = args.indexOf('--cases');
const CASES = casesAt >= 0 ? args.splice(casesAt, 2)[1].split(',') : ['stall', 'size', 'proxy'];
const ROOT = resolve(args[0] ?? fileURLToPath(new URL('..', import.meta.url)));
const CLI = join(ROOT, 'packages/cli/dist/cli.js');
const SUITE = join(ROOT, 'packages/contract-tests/dist/cli.js');
const KEY = 'sk-transport-probe-key-0001';
const ID = '3f6c2a4e-8b1d-4c7a-9e2f-5d8b7a6c4e10';
// The page size from the checkout's own rules (no fact of the document is written twice).
const { PAGE_SIZE } = await import(pathToFileURL(join(ROOT, 'openapi/dist/rules/index.js')).href);
const EMPTY_PAGE = JSON.stringify({ results: [], has_next: false, total_count: 0, page: 1, items_per_page: PAGE_SIZE });
const rows = [];
/** One case's result: kept for the table, and printed at once as a JSON line (a long run shows its progress). */
function row(kase, what, outcome, ms, peakKb) {
  const r = {
    case: kase,
    what,
    outcome: outcome.replace(/\s+/g, ' ').slice(0, 150),
    s: ms === undefined ? '' : (ms / 1000).toFixed(1),
    peak_mb: peakKb ? (peakKb / 1024).toFixed(0) : '',
  };
  rows.push(r);
  console.log(JSON.stringify(r));
}

/** A server on loopback answering every request with `answer(req, res)`. */
async function serve(answer) {
  const server = createServer((req, res) => {
    req.resume();
    answer(req, res);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
const drip = (res, first = '{"results": [') => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write(first);
  const timer = setInterval(() => res.write(' '), 1000);
  res.on('close', () => clearInterval(timer));
};
const flood = (res, headers, prefix) => {
  res.writeHead(200, headers);
  if (prefix) res.write(prefix);
  const chunk = Buffer.alloc(64 * 1024);
  const pump = () => {
    while (!res.destroyed) if (!res.write(chunk)) return void res.once('drain', pump);
  };
  pump();
};
const ftyp = () => {
  const b = Buffer.alloc(32);
  b.writeUInt32BE(32, 0);
  b.write('ftyp', 4, 'latin1');
  return b;
};
/** An API whose every answer is ID's status view, completed, its download_url on `host`. */
const completedVideoApi = (host) =>
  serve((req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        video_id: ID,
        status: 'completed',
        download_url: `${host.origin}/v.mp4?X-Sig=s`,
        copyright: [],
      }),
    ),
  );

/**
 * A bin under GNU time, killed at the cap (or when `stop()` says so, polled every 200 ms): exit code (or
 * how it was killed), output, seconds and peak RSS.
 */
function timed(bin, argv, env, { stop } = {}) {
  return new Promise((done) => {
    const started = performance.now();
    let killed;
    const child = execFile(
      '/usr/bin/time',
      ['-f', '@@time %M', process.execPath, bin, ...argv],
      { env: { PATH: process.env.PATH, HOME: tmpdir(), ...env }, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        clearTimeout(timer);
        clearInterval(poll);
        const m = /@@time (\d+)/.exec(stderr);
        done({
          code: killed ?? (err ? `exit ${err.code ?? '?'}` : 'exit 0'),
          stdout,
          stderr: stderr.replace(/.*@@time.*\n?/, '').replace(/^Command (exited|terminated).*\n?/m, ''),
          ms: performance.now() - started,
          peakKb: Number(m?.[1]) || undefined,
        });
      },
    );
    // GNU time's child is the node process: end it (by its parent's id), and time reports its peak.
    const kill = (why) => {
      if (killed) return;
      killed = why;
      spawn('pkill', ['-TERM', '-P', String(child.pid)]);
    };
    const timer = setTimeout(() => kill(`killed at the ${CAP_MS / 1000} s cap`), CAP_MS);
    const poll = setInterval(() => {
      const why = stop?.();
      if (why) kill(why);
    }, 200);
  });
}

const lastLine = (s) =>
  s
    .trim()
    .split('\n')
    .filter((l) => l.trim())
    .at(-1) ?? '';

// ---- stall: a body that never ends ------------------------------------------------------------
if (CASES.includes('stall')) {
  const api = await serve((req, res) => drip(res));
  const env = { VIDEO_API_KEY: KEY, VIDEO_API_BASE_URL: `${api.origin}/v1` };
  for (const [what, argv] of [
    ['videogen status ID (defaults)', ['status', ID]],
    ['videogen list (defaults)', ['list']],
  ]) {
    const r = await timed(CLI, argv, env);
    row('stall', `drip: ${what}`, `${r.code}; ${lastLine(r.stderr)}`, r.ms, r.peakKb);
  }
  api.close();
  // The suite: the preflight's probe answers, every other answer drips.
  const target = await serve((req, res) =>
    req.url.startsWith('/v1/video-settings/')
      ? res.writeHead(200, { 'content-type': 'application/json' }).end(EMPTY_PAGE)
      : drip(res),
  );
  const dir = mkdtempSync(join(tmpdir(), 'probe-suite-'));
  // (CONTRACT_BODY_TIMEOUT: a variable main's suite does not know, and ignores.)
  const r = await timed(SUITE, ['listVideos', '--summary', join(dir, 'summary.txt'), '--junit', join(dir, 'j.xml')], {
    VIDEO_API_KEY: KEY,
    VIDEO_API_BASE_URL: `${target.origin}/v1`,
    CONTRACT_BODY_TIMEOUT: '2',
  });
  const judged = (r.stderr.match(/^\[\s*\d+\/\d+\]/gm) ?? []).length;
  row(
    'stall',
    'drip: videogen-contract listVideos, CONTRACT_BODY_TIMEOUT=2',
    `${r.code}; ${judged} checks judged; ${lastLine(r.stdout)}`,
    r.ms,
    r.peakKb,
  );
  target.close();
  // A download host that drips after a real MP4's first bytes.
  const host = await serve((req, res) => {
    res.writeHead(200, { 'content-type': 'video/mp4' });
    res.write(ftyp());
    const timer = setInterval(() => res.write(Buffer.alloc(1)), 1000);
    res.on('close', () => clearInterval(timer));
  });
  const api2 = await completedVideoApi(host);
  const out = mkdtempSync(join(tmpdir(), 'probe-dl-'));
  const d = await timed(CLI, ['download', ID, join(out, 'v.mp4')], {
    VIDEO_API_KEY: KEY,
    VIDEO_API_BASE_URL: `${api2.origin}/v1`,
  });
  row(
    'stall',
    'drip: videogen download (defaults)',
    `${d.code}; ${lastLine(d.stderr)}; left: ${readdirSync(out).join(',') || 'nothing'}`,
    d.ms,
    d.peakKb,
  );
  host.close();
  api2.close();
}

// ---- size: bodies too large ----------------------------------------------------------------
if (CASES.includes('size')) {
  const bomb = await gzipBomb();
  const gz = await serve((req, res) =>
    res
      .writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': String(bomb.length),
      })
      .end(bomb),
  );
  const env = { VIDEO_API_KEY: KEY, VIDEO_API_BASE_URL: `${gz.origin}/v1` };
  const r = await timed(CLI, ['list'], env);
  row(
    'size',
    `gzip bomb (${(bomb.length / 1e6).toFixed(1)} MB → 1 GiB): videogen list`,
    `${r.code}; ${lastLine(r.stderr)}`,
    r.ms,
    r.peakKb,
  );
  const dir = mkdtempSync(join(tmpdir(), 'probe-suite-'));
  const s = await timed(SUITE, ['--summary', join(dir, 'summary.txt'), '--junit', join(dir, 'j.xml')], env);
  row(
    'size',
    'gzip bomb: videogen-contract (read-only)',
    `${s.code}; ${lastLine(s.stderr) || lastLine(s.stdout)}`,
    s.ms,
    s.peakKb,
  );
  gz.close();

  const huge = await serve((req, res) =>
    flood(res, { 'content-type': 'application/json', 'content-length': String(10 * 1000 ** 3) }),
  );
  const h = await timed(CLI, ['status', ID], { VIDEO_API_KEY: KEY, VIDEO_API_BASE_URL: `${huge.origin}/v1` });
  row('size', 'declared Content-Length 10 GB: videogen status', `${h.code}; ${lastLine(h.stderr)}`, h.ms, h.peakKb);
  huge.close();

  // A download host that sends forever, without a Content-Length.
  const host = await serve((req, res) => flood(res, { 'content-type': 'video/mp4' }, ftyp()));
  const api = await completedVideoApi(host);
  const out = mkdtempSync(join(tmpdir(), 'probe-dl-'));
  let written = 0;
  const watch = setInterval(() => {
    for (const f of readdirSync(out)) written = Math.max(written, statSync(join(out, f)).size);
  }, 200);
  // Stopped at 3 GB on disk if nothing stops it before.
  const d = await timed(
    CLI,
    ['download', ID, join(out, 'v.mp4')],
    { VIDEO_API_KEY: KEY, VIDEO_API_BASE_URL: `${api.origin}/v1` },
    { stop: () => written > 3e9 && 'killed by the probe at 3 GB on disk' },
  );
  clearInterval(watch);
  row(
    'size',
    'endless download (no Content-Length): videogen download',
    `${d.code}; most on disk ${(written / 1e9).toFixed(2)} GB; ${lastLine(d.stderr)}; left: ${readdirSync(out).join(',') || 'nothing'}`,
    d.ms,
    d.peakKb,
  );
  rmSync(out, { recursive: true, force: true });
  host.close();
  api.close();
}

// ---- proxy: the pacing proxy in front of a body that never ends ----------------------------------
if (CASES.includes('proxy')) {
  const { startPacingProxy } = await import(
    pathToFileURL(join(ROOT, 'packages/contract-tests/dist/proxy/index.js')).href
  );
  const target = await serve((req, res) =>
    req.url.includes(`/videos/${ID}/`)
      ? drip(res, '{"video_id": ')
      : res.writeHead(200, { 'content-type': 'application/json' }).end(EMPTY_PAGE),
  );
  for (const leave of [false, true]) {
    // (bodyTimeoutMs: an option main's proxy does not know, and ignores.)
    const proxy = await startPacingProxy({
      target: `${target.origin}/v1`,
      maxWaitMs: 30_000,
      timeScale: 100,
      bodyTimeoutMs: 2000,
    });
    const headers = { authorization: `Bearer ${KEY}` };
    const ac = new AbortController();
    const first = fetch(`${proxy.url}/videos/${ID}/`, { headers, signal: ac.signal }).then(
      async (r) => `${r.status} ${r.headers.get('x-videogen-proxy') ?? ''}`.trim(),
      (e) => (leave ? 'left' : e.message),
    );
    first.catch(() => {});
    await new Promise((r) => setTimeout(r, 500));
    if (leave) ac.abort();
    const t = performance.now();
    // The proxy's --max-wait is 30 s: its answer comes by then, or the probe stops waiting at 90 s.
    const next = await fetch(`${proxy.url}/videos/`, { headers, signal: AbortSignal.timeout(90_000) }).then(
      async (r) => (await r.arrayBuffer(), `${r.status} ${r.headers.get('x-videogen-proxy') ?? 'the target’s answer'}`),
      (e) => `no answer (${e.cause?.code ?? e.name})`,
    );
    const ms = performance.now() - t;
    row(
      'proxy',
      leave ? 'a caller left a drip: the key’s next request' : 'a drip holds the key: its next request',
      `${next}; the first: ${leave ? 'left' : await Promise.race([first, new Promise((r) => setTimeout(() => r('still waiting'), 1000))])}`,
      ms,
      Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]),
    );
    ac.abort();
    await Promise.race([proxy.close(), new Promise((r) => setTimeout(r, 15_000))]);
  }
  target.close();
}

console.table(rows);
process.exit(0);
