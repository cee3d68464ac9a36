// The README's quick start, run as written against the sandbox (in a child process, as a user would).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startSandbox, SANDBOX_KEYS, type RunningSandbox } from '@videogen/sandbox';

const root = fileURLToPath(new URL('..', import.meta.url));
let sb: RunningSandbox;
beforeAll(async () => { sb = await startSandbox({ port: 0, timeScale: 100 }); });
afterAll(() => sb.close());

it('runs the quick start', async () => {
  const readme = readFileSync(`${root}README.md`, 'utf8');
  const code = /## Quick start[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)![1];
  mkdirSync(`${root}test/.tmp`, { recursive: true });
  const script = `${root}test/.tmp/quickstart.mjs`; // inside the package so that @videogen/client resolves
  writeFileSync(script, code);
  const cwd = mkdtempSync('/tmp/vg-readme-');
  const { stdout } = await promisify(execFile)(process.execPath, [script], {
    cwd, env: { ...process.env, VIDEO_API_KEY: SANDBOX_KEYS.acme, VIDEO_API_BASE_URL: sb.baseUrl },
  });
  expect(stdout).toMatch(/saved \d+ bytes to \.\/video\.mp4/);
  expect(stdout).toMatch(/converted: [0-9a-f-]{36}/);
  expect(statSync(`${cwd}/video.mp4`).size).toBeGreaterThan(0);
});
