// @module-tag full/processes
// @module-tag node-versions
// Each operator mistake stops the built bin before any check: exit 2 with the cause and the fix in one
// line, nothing judged, no report that reads as failures (a lost secret went green, a typo in
// the URL took 194 s to fail 28 checks). Asserted by exit code and message, never by a duration. The
// pacing proxy's --target the same way. The cases run side by side (each a process that mostly waits on
// its preflight); a case that counts what reaches the sandbox has a counting proxy of its own.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxTarget } from '../src/cli/launch.ts';
import { freePort } from '../src/cli/launch.ts';
import { envForTarget } from '../src/cli/target.ts';
import { cli, type CliResult } from './bin.ts';
import { startBreakingProxy, type RunningProxy } from './breaking-proxy.ts';

let sandbox: Awaited<ReturnType<typeof startSandboxTarget>>;
let html: Server;
let htmlUrl: string;

beforeAll(async () => {
  sandbox = await startSandboxTarget(100);
  // A web server that is not the API: a page for every path.
  html = createServer((_, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>Welcome</p>'),
  );
  await new Promise<void>((r) => html.listen(0, '127.0.0.1', r));
  htmlUrl = `http://127.0.0.1:${(html.address() as { port: number }).port}/v1`;
});

afterAll(async () => {
  await sandbox.close();
  await new Promise((r) => html.close(r));
});

/** A proxy in front of the sandbox that counts what reaches it, so that "one request, then stop" is seen, not assumed. */
async function counting(): Promise<RunningProxy & { requests: () => number }> {
  let requests = 0;
  const proxy = await startBreakingProxy(sandbox.handle.origin, {
    request: () => {
      requests++;
      return undefined;
    },
  });
  return { ...proxy, requests: () => requests };
}

/** The run's environment against the sandbox (all four keys), overridden by `env`. */
const target = (env: Record<string, string | undefined>) =>
  Object.fromEntries(
    Object.entries({
      ...envForTarget({ ...sandbox.config, kind: 'external' }),
      CONTRACT_PROFILE: 'read-only',
      ...env,
    }).filter((e): e is [string, string] => e[1] !== undefined),
  );

/** A setup error: exit 2, one line on stderr, nothing judged, no JUnit XML. */
function setupError(r: CliResult, message: RegExp) {
  expect(r.code, r.err + r.out.slice(-1000)).toBe(2);
  const lines = r.err.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(message);
  expect(r.out).not.toMatch(/Total: /);
  expect(r.junit).toBe('');
  expect(r.json.setupError?.message).toBeTruthy();
  expect(r.err + r.summary).not.toMatch(/sandbox-key-/);
}

describe.concurrent('the preflight: an operator mistake stops the run before any check (exit 2)', () => {
  it('no key', async () => {
    setupError(
      await cli([], target({ VIDEO_API_KEY: undefined })),
      /^videogen-contract: no API key: set VIDEO_API_KEY .*--keyless/,
    );
  });

  it("a later run stopped by the preflight leaves the last run's report.html and junit.xml as they were", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'contract-earlier-'));
    mkdirSync(join(dir, 'test-results'));
    const earlier = {
      'test-results/report.html': '<p>the earlier run</p>',
      'junit.xml': '<testsuites name="earlier"/>',
    };
    for (const [file, text] of Object.entries(earlier)) writeFileSync(join(dir, file), text);
    const r = await cli([], target({ VIDEO_API_KEY: 'contract-wrong-key-0123' }), { dir });
    expect(r.code).toBe(2);
    for (const [file, text] of Object.entries(earlier)) expect(readFileSync(join(dir, file), 'utf8'), file).toBe(text);
    expect(r.summary).toMatch(/nothing was judged; the other reports are the last run's/);
  });

  it('a key the target rejects: one request, then stop', async () => {
    const counted = await counting();
    try {
      const r = await cli(
        [],
        target({ VIDEO_API_BASE_URL: counted.baseUrl, VIDEO_API_KEY: 'contract-wrong-key-0123' }),
      );
      setupError(r, /^videogen-contract: the key was rejected \(401 UNAUTHORIZED\): check VIDEO_API_KEY$/);
      expect(counted.requests()).toBe(1);
      expect(r.err).not.toContain('contract-wrong-key-0123');
    } finally {
      await counted.close();
    }
  });

  it("another account's key the target rejects names its variable", async () => {
    setupError(
      await cli([], target({ VIDEO_API_OTHER_ACCOUNT_KEY: 'contract-wrong-other-key' })),
      /the key in VIDEO_API_OTHER_ACCOUNT_KEY was rejected \(401 UNAUTHORIZED\): check VIDEO_API_OTHER_ACCOUNT_KEY$/,
    );
  });

  it('one key in two variables', async () => {
    setupError(
      await cli([], target({ VIDEO_API_OTHER_ACCOUNT_KEY: sandbox.config.apiKey })),
      /VIDEO_API_OTHER_ACCOUNT_KEY holds the same key as VIDEO_API_KEY: it must be a key of another account/,
    );
  });

  it('a port nothing listens on: connection refused', async () => {
    const port = await freePort();
    setupError(
      await cli([], target({ VIDEO_API_BASE_URL: `http://127.0.0.1:${port}/v1` })),
      new RegExp(`cannot reach http://127\\.0\\.0\\.1:${port}/v1: connection refused .*fix VIDEO_API_BASE_URL$`),
    );
  });

  it('a host name that does not resolve: DNS', async () => {
    setupError(
      await cli(['--base-url', 'https://contract-suite.invalid/v1'], target({})),
      /cannot reach https:\/\/contract-suite\.invalid\/v1: DNS lookup of contract-suite\.invalid failed \(\w+\): check the host name in --base-url$/,
    );
  });

  it('https:// to a server that does not speak TLS', async () => {
    const url = sandbox.config.baseUrl.replace('http:', 'https:');
    setupError(
      await cli([], target({ VIDEO_API_BASE_URL: url })),
      /TLS handshake failed .*use http:\/\/ in VIDEO_API_BASE_URL$/,
    );
  });

  it('the base URL without /v1: is /v1 missing?', async () => {
    const origin = sandbox.config.baseUrl.replace(/\/v1$/, '');
    setupError(
      await cli([], target({ VIDEO_API_BASE_URL: origin })),
      new RegExp(`is /v1 missing\\? ${origin}/v1 answers as the API: use VIDEO_API_BASE_URL=${origin}/v1$`),
    );
  });

  it('a web server that is not the API', async () => {
    setupError(
      await cli([], target({ VIDEO_API_BASE_URL: htmlUrl })),
      /is not the API: GET \/video-settings\/ answered 200 text\/html \(a web page\)/,
    );
  });

  it('--keyless runs without a key on purpose: the authentication checks, the rest skipped naming the key', async () => {
    const r = await cli(['--keyless', 'listVideos'], target({ VIDEO_API_KEY: undefined }));
    expect(r.code, r.err.slice(-2000)).toBe(0);
    expect(r.summary).toMatch(/pass {2}ignored_auth_missing/);
    expect(r.summary).toMatch(/pass {2}generated_ignored_auth/);
    expect(r.summary).toMatch(/skip {2}paging_first_page {2}— no API key \(VIDEO_API_KEY\)/);
  });
});

describe.concurrent('--plan against a target whose limits run faster than real time', () => {
  it('reads its pace from the preflight and says the floor at that pace (nothing else sent)', async () => {
    const counted = await counting();
    const r = await cli(['--plan'], target({ VIDEO_API_BASE_URL: counted.baseUrl, CONTRACT_TIME_SCALE: undefined }));
    await counted.close();
    expect(r.code, r.err).toBe(0);
    // One GET per key, and GET /_sandbox/clock: its keys are the sandbox's documented ones, so it is asked
    // whether it is one (it is, and says which account the key is).
    expect(r.out).toMatch(/only the preflight sent \(5 requests, no credit\)/);
    expect(counted.requests()).toBe(5);
    expect(r.out).toMatch(
      /Preflight: the target is a videogen sandbox \(GET \/_sandbox\/clock: the key is account acme's\)/,
    );
    expect(r.out).toMatch(/the target runs 100× faster than real time, read from its RateLimit-Policy/);
    expect(r.out).toMatch(
      /^ {2}floor wall time: [\d.]+ s at this target's pace \(\d+ s at the interface's real-time limits\)/m,
    );
  });

  it('a mistake stops --plan too (exit 2), after the plan it would have run', async () => {
    const r = await cli(['--plan'], target({ VIDEO_API_KEY: 'contract-wrong-key-0123' }));
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/Preflight: a run would stop here \(exit 2\): the key was rejected/);
    expect(r.err.trim()).toBe('videogen-contract: the key was rejected (401 UNAUTHORIZED): check VIDEO_API_KEY');
  });
});

describe.concurrent('the pacing proxy checks its --target before it listens (exit 2)', () => {
  it('a port nothing listens on', async () => {
    const port = await freePort();
    const r = await cli(['proxy', '--target', `http://127.0.0.1:${port}/v1`], {}, { raw: true });
    expect(r.code).toBe(2);
    expect(r.err.trim()).toMatch(/^videogen-contract proxy: cannot reach .*connection refused .*fix --target$/);
    expect(r.out).not.toMatch(/listening/);
  });

  it('the target without /v1', async () => {
    const origin = sandbox.config.baseUrl.replace(/\/v1$/, '');
    const r = await cli(['proxy', '--target', origin], {}, { raw: true });
    expect(r.code).toBe(2);
    expect(r.err.trim()).toMatch(new RegExp(`is /v1 missing\\? .*use --target ${origin}/v1$`));
  });
});
