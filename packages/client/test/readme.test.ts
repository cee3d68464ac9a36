// The README's samples, run as written against the sandbox (in a child process, as a user would), and
// type-checked against the package's types (tsc --checkJs): the quick start, and one sample each of
// "Per-request options", "Raw responses", "Proxies" (through a real proxy) and "Logging".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createProxy } from 'proxy';
import { startSandbox, SANDBOX_KEYS, type RunningSandbox } from '@videogen/sandbox';

const root = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(`${root}README.md`, 'utf8');
const tmp = `${root}test/.tmp`; // inside the package so that @videogen/client resolves

/** The first ```js block of a section. */
const sample = (heading: string) =>
  new RegExp(`## ${heading}[^\\n]*\\n[\\s\\S]*?\`\`\`js\\n([\\s\\S]*?)\`\`\``).exec(readme)![1];
const SAMPLES = {
  quickstart: 'Quick start',
  options: 'Per-request options',
  raw: 'Raw responses',
  proxies: 'Proxies',
  logging: 'Logging',
  webhooks: 'Completion webhooks',
};
const file = (name: string) => `${tmp}/readme-${name}.mjs`;

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, timeScale: 100 });
  mkdirSync(tmp, { recursive: true });
  for (const [name, heading] of Object.entries(SAMPLES)) writeFileSync(file(name), sample(heading));
});
afterAll(() => sb.close());

async function run(name: keyof typeof SAMPLES, env: Record<string, string> = {}, cwd = mkdtempSync('/tmp/vg-readme-')) {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [file(name)], {
    cwd,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      VIDEO_API_KEY: SANDBOX_KEYS.acme,
      VIDEO_API_BASE_URL: sb.baseUrl,
      ...env,
    },
  });
  return { stdout, stderr, cwd };
}

// The TypeScript compiler run as a child process (an outside tool): npm test, not the fast lane.
it('type-checks every sample against the package types', { tags: ['full/tools'] }, () => {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const args = [
    '--noEmit',
    '--allowJs',
    '--checkJs',
    '--skipLibCheck',
    '--module',
    'nodenext',
    '--moduleResolution',
    'nodenext',
    '--target',
    'es2022',
    '--types',
    'node',
    ...Object.keys(SAMPLES).map(file),
  ];
  let out = '';
  try {
    out = execFileSync(process.execPath, [tsc, ...args], { cwd: root, encoding: 'utf8' });
  } catch (e: any) {
    out = `${e.stdout}${e.stderr}`;
  }
  // The quick start's `setting` is assigned in a loop (implicitly any-typed in JS): only real errors count.
  expect(out.split('\n').filter((l) => /error TS/.test(l) && !/TS7034|TS7005/.test(l))).toEqual([]);
});

describe('samples run against the sandbox', () => {
  it('the quick start', async () => {
    const { stdout, cwd } = await run('quickstart');
    expect(stdout).toMatch(/saved \d+ bytes to \.\/video\.mp4/);
    expect(stdout).toMatch(/converted: [0-9a-f-]{36}/);
    expect(statSync(`${cwd}/video.mp4`).size).toBeGreaterThan(0);
  });

  it('Per-request options', async () => {
    expect((await run('options')).stdout.trim()).toMatch(/^(running|completed|failed|expired)$/);
  });

  it('Raw responses', async () => {
    const lines = (await run('raw')).stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^200 application\/json.* \d+$/);
    expect(lines[1]).toMatch(/^false (running|completed|failed|expired)$/);
  });

  it('Proxies: the dispatcher sends through the proxy', async () => {
    const server = createProxy(http.createServer());
    const asked: string[] = [];
    server.on('connect', (req) => asked.push(req.url!));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { stdout } = await run('proxies', {
        CORPORATE_PROXY: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      });
      expect(stdout.trim()).toMatch(/^\d+$/);
      expect(asked).toEqual([new URL(sb.baseUrl).host]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('Logging: pino gets the debug records, without the key', async () => {
    const { stdout } = await run('logging');
    const records = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records.find((r) => r.request)).toMatchObject({
      level: 20,
      request: { method: 'GET' },
      response: { status: 200 },
    });
    expect(stdout).not.toContain(SANDBOX_KEYS.acme);
  });

  it('Completion webhooks: the generate is announced to the relay', async () => {
    const announced: string[] = [];
    const relay = http.createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      announced.push(body);
      res.writeHead(202).end('{}');
    });
    await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
    try {
      const { stdout } = await run('webhooks', {
        VIDEO_RELAY_URL: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`,
        SETTING_ID: '5e77a000-0000-4000-8000-000000000001',
      });
      const id = /^started ([0-9a-f-]{36}): the relay will POST video.completed$/.exec(stdout.trim())?.[1];
      expect(id).toBeTruthy();
      expect(announced.map((b) => JSON.parse(b))).toEqual([{ video_id: id }]);
    } finally {
      relay.close();
    }
  });
});
