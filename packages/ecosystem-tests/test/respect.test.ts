// @module-tag full/tools
// Redocly Respect runs the Arazzo workflows of openapi/videogen.arazzo.yaml (as @videogen/openapi exports
// them, beside the bundled document) against a real sandbox, with
// no severity override: every step's success criteria, status code, content type and schema check must pass.
// Respect waits the `retryAfter` of a retry action in real seconds (it does not read Retry-After), so the
// workflows run on a copy whose waits are divided by the sandbox's time scale: a 10-second poll still lasts
// 10 seconds on the sandbox's clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse, stringify } from 'yaml';
import { POLLING, RATE_LIMITS, RETRY_POLICY } from '@videogen/openapi/rules';
import { startSandbox, SANDBOX_KEYS, FIXTURES, MAGIC, type RunningSandbox } from '@videogen/sandbox';
import { run, type Ran } from './run.js';

const require = createRequire(import.meta.url);
// The workflows as @videogen/openapi exports them (dist/, beside the bundled document they describe).
const arazzoPath = require.resolve('@videogen/openapi/videogen.arazzo.yaml');
const arazzoDir = dirname(arazzoPath);
const redocly = require.resolve('@redocly/cli/bin/cli.js');
const redoclyVersion: string = require('@redocly/cli/package.json').version;
const arazzo = parse(readFileSync(arazzoPath, 'utf8'));
const TIME_SCALE = 100;

/** The Arazzo description with every wait on the sandbox's clock and its source description by absolute path. */
function scaledCopy(dir: string): string {
  const copy = structuredClone(arazzo);
  for (const source of copy.sourceDescriptions) source.url = join(arazzoDir, source.url);
  for (const action of Object.values<any>(copy.components.failureActions))
    if (action.retryAfter) action.retryAfter /= TIME_SCALE;
  const file = join(dir, 'videogen.arazzo.yaml');
  writeFileSync(file, stringify(copy));
  return file;
}

/** One exchange of Respect's HAR: every request it sent, retries included (its JSON report keeps one per step). */
interface Exchange {
  method: string;
  path: string;
  status: number;
  sent: any;
  body: any;
}
const json = (text: string | undefined) => (text ? JSON.parse(text) : undefined);

let sandbox: RunningSandbox;
let dir: string;
let ran: Ran;
let report: any;
let traffic: Exchange[];
/** The statuses that GET /videos/{id}/ answered for one video, in order. */
const polled = (videoId: string) =>
  traffic
    .filter((e) => e.method === 'GET' && e.path.endsWith(`/videos/${videoId}/`) && e.status === 200)
    .map((e) => e.body.status);

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, timeScale: TIME_SCALE, validateResponses: true, rateLimiter: 'even' });
  dir = mkdtempSync(join(tmpdir(), 'vg-respect-'));
  const args = [
    'respect',
    scaledCopy(dir),
    '--server',
    `videogen=${sandbox.baseUrl}`,
    '--input',
    `api_key=${SANDBOX_KEYS.acme}`,
  ];
  ran = await run(
    process.execPath,
    [redocly, ...args, '--json-output', 'respect.json', '--har-output', 'respect.har'],
    {
      cwd: dir,
      env: { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    },
  );
  report = Object.values<any>(JSON.parse(readFileSync(join(dir, 'respect.json'), 'utf8')).files)[0];
  traffic = JSON.parse(readFileSync(join(dir, 'respect.har'), 'utf8')).log.entries.map((e: any) => ({
    method: e.request.method,
    path: new URL(e.request.url).pathname,
    status: e.response.status,
    sent: json(e.request.postData?.text),
    body: json(e.response.content?.text),
  }));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await sandbox?.close();
});

describe('the Arazzo description', () => {
  it('waits as the document says: polls every x-polling interval up to its timeout, 429s one request spacing, 503s as x-retry-policy', () => {
    const actions = arazzo.components.failureActions;
    expect(actions['still-running']).toMatchObject({
      retryAfter: POLLING.intervalMs / 1000,
      retryLimit: POLLING.timeoutMs / POLLING.intervalMs,
    });
    for (const c of ['A', 'B'] as const) {
      const { requests, windowMs } = RATE_LIMITS[c];
      expect(actions[`rate-limited-class-${c.toLowerCase()}`]).toMatchObject({
        retryAfter: windowMs / requests / 1000,
        retryLimit: requests,
      });
    }
    expect(actions['concurrency-limit']).toMatchObject({
      retryAfter: RETRY_POLICY.serviceUnavailableDelayMs[0] / 1000,
      retryLimit: RETRY_POLICY.maxRetries,
    });
  });

  it("defaults its inputs to the sandbox's fixtures", () => {
    const inputs = arazzo.components.inputs;
    expect(inputs['generate-and-convert'].properties.video_setting_id.default).toBe(FIXTURES.acme.settings.text);
    expect(inputs['failed-generation'].properties.video_setting_id.default).toBe(FIXTURES.acme.settings.text);
    expect(inputs['failed-generation'].properties.failing_text.default).toContain(MAGIC.fail);
    expect(inputs['conversion-refused'].properties.video_id.default).toBe(FIXTURES.acme.videos.limitedVoices);
  });
});

describe(`Redocly Respect ${redoclyVersion} against the sandbox`, () => {
  it('passes every workflow, step and check, with no severity override', () => {
    // On failure, Respect's own account of what failed (its output ends with it).
    const failed = ran.stdout.slice(Math.max(0, ran.stdout.indexOf('Failed tests info'))).slice(0, 6000);
    expect(ran.code, failed + ran.stderr).toBe(0);
    const names = arazzo.workflows.map((w: any) => w.workflowId);
    expect(report.executedWorkflows.map((w: any) => [w.workflowId, w.status])).toEqual(
      names.map((n: string) => [n, 'success']),
    );
    expect(ran.stdout).toMatch(new RegExp(`Workflows: ${names.length} passed, ${names.length} total`));
    const checks = /Checks: (\d+) passed, (\d+) total/.exec(ran.stdout);
    expect(checks && checks[1]).toBe(checks && checks[2]);
  });

  it('generate-and-convert: polls the generation to completed, converts into the wanted language and polls the new video', () => {
    const [generated, failedOne] = traffic
      .filter((e) => e.path.endsWith('/videos/generate/') && e.status === 200)
      .map((e) => e.body.video_id);
    // Running at least once: the poll waited its interval and came back, then stopped at completed.
    const statuses = polled(generated);
    expect(statuses.length).toBeGreaterThan(1);
    expect(statuses).toEqual([...statuses.slice(0, -1).map(() => 'running'), 'completed']);

    const conversion = traffic.find(
      (e) => e.method === 'POST' && e.path.endsWith(`/videos/${generated}/conversions/`) && e.status === 200,
    )!;
    expect(conversion.sent).toEqual({
      language: arazzo.components.inputs['generate-and-convert'].properties.wanted_language.default,
    });
    expect(conversion.body.video_id).not.toBe(generated);
    expect(polled(conversion.body.video_id).at(-1)).toBe('completed');
    expect(failedOne).toBeDefined();
  });

  it('failed-generation: polling stops at failed, with nothing to download', () => {
    const [, failedOne] = traffic
      .filter((e) => e.path.endsWith('/videos/generate/') && e.status === 200)
      .map((e) => e.body.video_id);
    const statuses = polled(failedOne);
    expect(statuses).toEqual([...statuses.slice(0, -1).map(() => 'running'), 'failed']);
    const last = traffic.filter((e) => e.path.endsWith(`/videos/${failedOne}/`)).at(-1)!;
    expect(last.body.download_url).toBe('');
    // Nothing more is asked about a failed video.
    expect(traffic.filter((e) => e.path.includes(`/videos/${failedOne}/conversions/`))).toEqual([]);
  });

  it('conversion-refused: CONVERT_NO_CHANGE and LANGUAGE_NOT_SUPPORTED_BY_VOICES (7.2), 400 each', () => {
    const inputs = arazzo.components.inputs['conversion-refused'].properties;
    const path = `/v1/videos/${inputs.video_id.default}/conversions/`;
    const options = traffic.find((e) => e.method === 'GET' && e.path === path && e.status === 200)!.body;
    expect(options.available_languages).not.toContain(inputs.unsupported_language.default);
    const refusals = traffic.filter((e) => e.method === 'POST' && e.path === path && e.status !== 429);
    expect(refusals.map((e) => [e.sent, e.status, e.body.error_code])).toEqual([
      [{ language: options.current_language }, 400, 'CONVERT_NO_CHANGE'],
      [{ language: inputs.unsupported_language.default }, 400, 'LANGUAGE_NOT_SUPPORTED_BY_VOICES'],
    ]);
  });

  it('retries every 429 it meets, and meets no 503', () => {
    traffic.forEach((e, i) => {
      if (e.status === 429) expect([traffic[i + 1]?.method, traffic[i + 1]?.path]).toEqual([e.method, e.path]);
    });
    expect(traffic.filter((e) => e.status === 503)).toEqual([]);
  });

  it('keeps the key out of its reports, and the sandbox saw only valid answers', () => {
    for (const file of ['respect.json', 'respect.har'])
      expect(readFileSync(join(dir, file), 'utf8')).not.toContain(SANDBOX_KEYS.acme);
    expect(sandbox.violations).toEqual([]);
  });
});
