// node probes/hostile-inputs.mjs [ROOT]: replays hostile inputs (a video id that is not one, a truncated
// form, the sandbox's controls from another origin and on every interface, a restart after the clock
// moved, a download host that drips or answers JSON) against the built
// packages of a checkout (ROOT, default this one; `git archive main | tar -x -C DIR`, `npm ci`, `npm run
// build` gives one of main) and prints, per case, what happened, how long it took and the peak memory of
// the process concerned (VmHWM from /proc, or GNU time's %M). Real processes over loopback: the sandbox's
// and the CLI's bins, and the hostile download host played here. Nothing is asserted: run it on both
// checkouts and compare.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)));
const SANDBOX = join(ROOT, 'packages/sandbox/dist/cli.js');
const CLI = join(ROOT, 'packages/cli/dist/cli.js');
const SAMPLE = readFileSync(join(ROOT, 'packages/sandbox/assets/sample.mp4'));
const KEY = 'sandbox-key-acme';
const TEXT_SETTING = '5e77a000-0000-4000-8000-000000000001';
const rows = [];
const row = (kase, what, outcome, ms, peakKb) =>
  rows.push({
    case: kase,
    what,
    outcome,
    ms: ms === undefined ? '' : Math.round(ms),
    peak_mb: peakKb ? (peakKb / 1024).toFixed(1) : '',
  });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** `n` runs of `fn` (each resolving with { ms, peakKb? }): the first run's result, with the median ms and the largest peak. */
async function repeat(n, fn) {
  const runs = [];
  for (let i = 0; i < n; i++) runs.push(await fn());
  return {
    ...runs[0],
    ms: median(runs.map((r) => r.ms)),
    peakKb: Math.max(...runs.map((r) => r.peakKb ?? 0)) || undefined,
  };
}

const peakKb = (pid) => {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  } catch {
    return undefined;
  }
};

/** The sandbox's bin on a free port; resolves with its origin once the banner is out. */
async function sandbox(args = []) {
  const child = spawn(process.execPath, [SANDBOX, '--port', '0', '--quiet', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const deadline = Date.now() + 60_000;
  while (!/base URL\s+\S+[\s\S]*\n\n[\s\S]*\n\n/.test(out)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`sandbox did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const baseUrl = /base URL\s+(\S+)/.exec(out)[1];
  const stop = (signal = 'SIGTERM') =>
    new Promise((r) => (child.exitCode !== null ? r() : (child.once('exit', r), child.kill(signal))));
  return { child, baseUrl, origin: new URL(baseUrl).origin, banner: () => out, stop };
}

/** The CLI under GNU time: exit code, stdout, stderr, seconds and peak RSS. */
function cli(args, env) {
  return new Promise((done) => {
    execFile(
      '/usr/bin/time',
      ['-f', '@@time %e %M', process.execPath, CLI, ...args],
      { env: { PATH: process.env.PATH, HOME: tmpdir(), ...env } },
      (err, stdout, stderr) => {
        const m = /@@time ([\d.]+) (\d+)/.exec(stderr);
        done({
          code: err ? (err.code ?? 1) : 0,
          stdout,
          stderr: stderr.replace(/.*@@time.*\n?/, '').replace(/^Command (exited|terminated).*\n?/m, ''),
          ms: Number(m?.[1]) * 1000,
          peakKb: Number(m?.[2]),
        });
      },
    );
  });
}

const api = (origin, method, path, body, headers = {}) =>
  fetch(origin + path, {
    method,
    headers: { authorization: `Bearer ${KEY}`, ...(body && { 'content-type': 'application/json' }), ...headers },
    body: body && JSON.stringify(body),
  }).then(async (res) => ({ status: res.status, headers: res.headers, body: await res.json().catch(() => undefined) }));
const videoCount = async (baseUrl) => (await api(baseUrl, 'GET', '/videos/')).body.total_count;
const generate = (baseUrl) => {
  const fd = new FormData();
  fd.append('video_setting_id', TEXT_SETTING);
  fd.append('text', 'hostile inputs probe');
  return fetch(`${baseUrl}/videos/generate/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}` },
    body: fd,
  });
};

// ---- video-id, truncated-form, controls-origin: against one sandbox ---------------------------------------------------------
{
  const sb = await sandbox(['--no-rate-limits']);
  const env = { VIDEO_API_KEY: KEY, VIDEO_API_BASE_URL: sb.baseUrl };

  const served = async () =>
    Object.values((await api(sb.origin, 'GET', '/_sandbox/stats')).body.responses).reduce((a, b) => a + b, 0);
  const before = await served();
  const r = await repeat(5, () => cli(['status', '.', '--json'], env));
  const sent = (await served()) - before;
  row(
    'video-id',
    'videogen status . --json (5 runs)',
    `exit ${r.code}, ${sent} request(s) sent; ${(r.stdout || r.stderr).replace(/\s+/g, ' ').trim().slice(0, 100)}`,
    r.ms,
    r.peakKb,
  );

  const boundary = 'probe-boundary';
  const form = [
    `--${boundary}\r\nContent-Disposition: form-data; name="video_setting_id"\r\n\r\n${TEXT_SETTING}`,
    `--${boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\ncut short\r\n--${boundary}`,
  ].join('\r\n');
  const count = await videoCount(sb.baseUrl);
  const cut = await repeat(20, async () => {
    const t = performance.now();
    const res = await fetch(`${sb.baseUrl}/videos/generate/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: form,
    });
    const text = await res.text();
    return { ms: performance.now() - t, status: res.status, text };
  });
  row(
    'truncated-form',
    'a form ending with --BOUNDARY (no closing --), 20 times',
    `${cut.status} ${cut.text.slice(0, 110)}; videos created: ${(await videoCount(sb.baseUrl)) - count}`,
    cut.ms,
    peakKb(sb.child.pid),
  );

  const hostile = { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' };
  const pre = await fetch(`${sb.origin}/_sandbox/reset`, {
    method: 'OPTIONS',
    headers: { ...hostile, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
  });
  row(
    'controls-origin',
    'preflight of /_sandbox/reset from http://evil.example',
    `${pre.status}, Access-Control-Allow-Origin: ${pre.headers.get('access-control-allow-origin')}`,
  );
  await (await generate(sb.baseUrl)).text();
  const kept = await videoCount(sb.baseUrl);
  const t6 = performance.now();
  const reset = await api(sb.origin, 'POST', '/_sandbox/reset', undefined, hostile);
  row(
    'controls-origin',
    'POST /_sandbox/reset from another origin (key sent)',
    `${reset.status} ${reset.body?.error_code ?? (reset.body?.reset ? 'reset done' : '')}; videos ${kept} -> ${await videoCount(sb.baseUrl)}`,
    performance.now() - t6,
  );
  await sb.stop();

  const wide = await sandbox(['--host', '0.0.0.0', '--no-rate-limits']);
  const banner = wide.banner();
  row(
    'controls-origin',
    'videogen-sandbox --host 0.0.0.0',
    `banner: ${/listening on (\S+)/.exec(banner)?.[1]}; ${/reachable\s+(.*)/.exec(banner)?.[1] ?? 'no other address'}; warning: ${/WARNING/.test(banner) ? 'yes' : 'no'}`,
  );
  await wide.stop();
}

// ---- clock-restart: an advanced clock across a restart --------------------------------------------------
{
  const dir = mkdtempSync(join(tmpdir(), 'probe-data-'));
  const first = await sandbox(['--data-dir', dir, '--no-rate-limits']);
  await api(first.origin, 'POST', '/_sandbox/clock/advance', { seconds: 61 * 86400 });
  const ids = [];
  for (let i = 0; i < 2; i++) ids.push((await (await generate(first.baseUrl)).json()).video_id);
  await api(first.origin, 'POST', '/_sandbox/clock/advance', { seconds: 60 });
  await first.stop();
  const second = await sandbox(['--data-dir', dir, '--no-rate-limits']);
  const t = performance.now();
  const statuses = [];
  for (const id of ids) statuses.push((await api(second.baseUrl, 'GET', `/videos/${id}/`)).body.status);
  const next = await generate(second.baseUrl);
  await next.text();
  row(
    'clock-restart',
    'restart with --data-dir after advancing 61 days',
    `statuses ${statuses.join(', ')}; next generation ${next.status}${next.headers.get('retry-after') ? `, Retry-After ${next.headers.get('retry-after')} s` : ''}`,
    performance.now() - t,
    peakKb(second.child.pid),
  );
  await second.stop();
  rmSync(dir, { recursive: true, force: true });
}

// ---- download-host: downloads from a hostile host -------------------------------------------------------
{
  const ids = { drip: '0d0d0d0d-0000-4000-8000-000000000001', json: '0d0d0d0d-0000-4000-8000-000000000002' };
  const held = [];
  const host = createServer((req, res) => {
    const id = /^\/v1\/videos\/([^/]+)\/$/.exec(req.url)?.[1];
    if (id) {
      const mode = id === ids.drip ? 'drip' : 'json';
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({ video_id: id, status: 'completed', download_url: `${base}/file/${mode}`, copyright: [] }),
      );
    }
    if (req.url === '/file/drip') {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': '64000000' });
      res.write(SAMPLE.subarray(0, 1024));
      return held.push(res);
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"error":"The link has expired"}');
  });
  await new Promise((r) => host.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${host.address().port}`;
  const env = { PATH: process.env.PATH, HOME: tmpdir(), VIDEO_API_KEY: 'probe-key', VIDEO_API_BASE_URL: `${base}/v1` };

  for (const signal of ['SIGINT', 'SIGTERM']) {
    const dir = mkdtempSync(join(tmpdir(), 'probe-dl-'));
    const child = spawn(process.execPath, [CLI, 'download', ids.drip, join(dir, 'out.mp4'), '--quiet'], {
      env,
      stdio: 'ignore',
    });
    const deadline = Date.now() + 60_000;
    while (!readdirSync(dir).some((f) => f.endsWith('.part')) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 100)); // the first bytes written
    const peak = peakKb(child.pid);
    const t = performance.now();
    const ended = new Promise((r) => child.on('exit', (code, sig) => r(code ?? sig)));
    child.kill(signal);
    const how = await ended;
    row(
      'download-host',
      `${signal} during videogen download`,
      `exit ${how}; left in the directory: ${readdirSync(dir).join(', ') || 'nothing'}`,
      performance.now() - t,
      peak,
    );
    rmSync(dir, { recursive: true, force: true });
  }
  const dir = mkdtempSync(join(tmpdir(), 'probe-dl-'));
  const r = await repeat(5, () => cli(['download', ids.json, join(dir, 'out.mp4')], env));
  row(
    'download-host',
    'download_url answering 200 application/json (5 runs)',
    `exit ${r.code}; files: ${readdirSync(dir).join(', ') || 'none'}; ${(r.stderr.trim().split('\n').at(-1) ?? '').slice(0, 90)}`,
    r.ms,
    r.peakKb,
  );
  rmSync(dir, { recursive: true, force: true });
  for (const res of held) res.destroy();
  host.closeAllConnections();
  host.close();
}

console.log(`hostile inputs probe of ${ROOT} (Node ${process.versions.node})`);
console.table(rows);
