// @module-tag full/processes
// The CLI: prints the base URL and the keys, logs one line per request with the account, never the key.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtinTwinPath } from '@videogen/openapi/twin';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WAIT_MS } from './helpers.js';

const pkg = fileURLToPath(new URL('..', import.meta.url));
let child: ChildProcess;
let out = '';

beforeAll(async () => {
  if (!existsSync(`${pkg}/dist/cli.js`)) execFileSync('npx', ['tsup'], { cwd: pkg, stdio: 'ignore' });
  child = spawn(process.execPath, ['dist/cli.js', '--port', '0', '--time-scale', '10'], {
    cwd: pkg,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  // The whole banner: the base URL, a blank line, the keys table, a blank line (it may come in pieces).
  const deadline = Date.now() + WAIT_MS;
  while (!/base URL[\s\S]*\n\n[\s\S]*\n\n/.test(out)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`sandbox CLI did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
});
afterAll(() => {
  child.kill('SIGTERM');
});

it('prints the base URL and the keys table, then one log line per request without the key', async () => {
  const baseUrl = /base URL\s+(\S+)/.exec(out)![1];
  expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  for (const key of [
    'sandbox-key-acme',
    'sandbox-key-acme-2',
    'sandbox-key-globex',
    'sandbox-key-initech',
    'sandbox-key-umbrella',
  ])
    expect(out).toContain(key);
  const banner = out.length;
  const res = await fetch(`${baseUrl}/videos/?page=1`, { headers: { authorization: 'Bearer sandbox-key-globex' } });
  expect(res.status).toBe(200);
  await fetch(`${baseUrl}/videos/`, { headers: { authorization: 'Bearer wrong-key-123' } });
  // The log lines follow the answers (another process): waited for, with a deadline.
  const deadline = Date.now() + WAIT_MS;
  const logged = () => [/ 200 .*\n/, / 401 .*\n/].every((line) => line.test(out.slice(banner)));
  while (!logged() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  const log = out.slice(banner);
  expect(log).toMatch(/GET \/v1\/videos\/ 200 \d+\.\dms globex/);
  expect(log).toMatch(/GET \/v1\/videos\/ 401 \d+\.\dms -/);
  expect(log).not.toContain('sandbox-key');
  expect(log).not.toContain('wrong-key-123');
  expect(log).not.toContain('VIOLATES');
});

/** The CLI refusing its arguments: its stderr, after it exited `status` (a start that succeeds fails the test). */
function refusal(args: string[], status = 1): string {
  try {
    execFileSync(process.execPath, ['dist/cli.js', '--port', '0', ...args], {
      cwd: pkg,
      stdio: 'pipe',
      timeout: WAIT_MS,
    });
  } catch (err: any) {
    expect(err.status, String(err.stderr)).toBe(status);
    return String(err.stderr);
  }
  throw new Error(`videogen-sandbox ${args.join(' ')} started`);
}

it('takes --personality and --rate-limiter, and refuses unknown values with a clear message', () => {
  expect(out).toMatch(/rate limiter even, personality default/);
  expect(refusal(['--rate-limiter', 'leaky'])).toContain('--rate-limiter must be one of');
  expect(refusal(['--personality', 'grumpy'])).toContain('--personality must be one of');
});

it('refuses a --public-url that is not an origin, naming the flag', () => {
  const message = refusal(['--public-url', 'http://sandbox:4010/v1']);
  expect(message).toContain('--public-url');
  expect(message).toContain('origin only');
});

it('on loopback (the default) prints no warning', () => {
  expect(out).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\n/);
  expect(out).not.toContain('WARNING');
});

it('with --host 0.0.0.0 prints the real addresses and warns that the keys and controls are on the network', async () => {
  const wide = spawn(
    process.execPath,
    ['dist/cli.js', '--port', '0', '--host', '0.0.0.0', '--quiet', '--no-rate-limits'],
    {
      cwd: pkg,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  wide.stdout!.on('data', (d) => (stdout += d));
  wide.stderr!.on('data', (d) => (stderr += d));
  try {
    const deadline = Date.now() + WAIT_MS;
    while (!/Download URLs name/.test(stderr) || !/base URL/.test(stdout)) {
      if (wide.exitCode !== null || Date.now() > deadline)
        throw new Error(`sandbox CLI did not start: ${stdout}${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const port = /listening on http:\/\/0\.0\.0\.0:(\d+)\n/.exec(stdout)?.[1];
    expect(port, stdout).toBeDefined();
    // Every IPv4 address of the machine is printed, and answers (the banner said 127.0.0.1 alone before).
    const external = Object.values(networkInterfaces())
      .flat()
      .filter((i) => i?.family === 'IPv4' && !i.internal)
      .map((i) => i!.address);
    const reachable = /reachable {2}(.*)\n/.exec(stdout)?.[1] ?? '';
    for (const address of ['127.0.0.1', ...external]) {
      expect(reachable).toContain(`http://${address}:${port}`);
      const res = await fetch(`http://${address}:${port}/v1/videos/`, {
        headers: { authorization: 'Bearer sandbox-key-acme' },
      });
      expect(res.status).toBe(200);
    }
    expect(stderr).toMatch(/WARNING: --host 0\.0\.0\.0 listens beyond this machine/);
    expect(stderr).toContain('/_sandbox/ controls');
    expect(stderr).toContain('Use --host 127.0.0.1');
    for (const address of external) expect(stderr).toContain(`http://${address}:${port}`);
    expect(stderr).toContain('--public-url to name the address other machines use');
  } finally {
    wide.kill('SIGTERM');
  }
});

it('answers as a twin file (--twin FILE), and refuses one that does not validate with exit 2, naming the field', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cli-twin-'));
  const file = JSON.parse(readFileSync(builtinTwinPath('alternative'), 'utf8'));
  file.name = 'staging';
  const good = join(dir, 'staging.twin.json');
  writeFileSync(good, JSON.stringify(file));
  file.behaviours['paging.past_end'].value = { answer: 'wrap_around' };
  const bad = join(dir, 'bad.twin.json');
  writeFileSync(bad, JSON.stringify(file));
  const message = refusal(['--twin', bad], 2);
  expect(message).toContain(`${bad} is not a valid twin`);
  expect(message).toContain('behaviours["paging.past_end"].value.answer: is not one of the forms of this field');
  expect(refusal(['--twin', good, '--personality', 'default'])).toContain('either --twin FILE or --personality');
  expect(refusal(['--twin', good, '--seed', 'x'])).toContain('--seed must be an integer');

  const twin = spawn(process.execPath, ['dist/cli.js', '--port', '0', '--quiet', '--twin', good, '--seed', '5'], {
    cwd: pkg,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  twin.stdout!.on('data', (d) => (text += d));
  twin.stderr!.on('data', (d) => (text += d));
  try {
    const deadline = Date.now() + WAIT_MS;
    while (!/base URL\s+\S+/.test(text)) {
      if (twin.exitCode !== null || Date.now() > deadline) throw new Error(`sandbox CLI did not start: ${text}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(text).toContain(`rate limiter even, twin staging (${good}), seed 5`);
    const baseUrl = /base URL\s+(\S+)/.exec(text)![1];
    // The alternative's answer to an unknown key, from the file.
    const res = await fetch(`${baseUrl}/videos/`, { headers: { authorization: 'Bearer sandbox-key-nobody' } });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error_code: string }).error_code).toBe('INVALID_API_KEY');
  } finally {
    twin.kill('SIGTERM');
  }
});
