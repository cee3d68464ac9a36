// @module-tag full/processes
// The nightly loop of the guide "A twin of your staging" (packages/docs/guides/13-twin-of-your-staging.md),
// run as written: its GitHub Actions workflow is read from the guide, and each step's `run` goes to bash
// as a runner would (`bash -e`, the job's environment, $GITHUB_ENV carried between steps), in a fresh
// application project whose `npx @videogen/contract-tests` is this package's built bin and whose `npm test` is
// the guide's own application test. Staging is an independent server of the fixtures (written from the
// interface alone), 20× faster (CONTRACT_TIME_SCALE). Not run: checkout, setup-node, `npm ci` and
// upload-artifact (actions, or the network); the push fails offline, which the step tolerates.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parse } from 'yaml';
import { GATEWAY, startIndependentServer, type IndependentServer } from '../fixtures/independent/servers.ts';
import { calibrate, workDir } from './targets.ts';

// 20× (spacings of 250 ms in class A, 100 ms in class B): the comparison reads both limiters on a loaded
// machine, as calibrate/independent's do at this scale.
const T = 20;
const here = dirname(fileURLToPath(import.meta.url));
const packages = resolve(here, '../../..');
const guide = readFileSync(join(packages, 'docs/guides/13-twin-of-your-staging.md'), 'utf8');

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
}

const block = (lang: string) => {
  const found = guide.match(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g')) ?? [];
  return found.map((b) => b.replace(/^```\w+\n/, '').replace(/```$/, ''));
};
const workflow = parse(block('yaml')[0]) as { jobs: { twin: { steps: Step[] } } };
const steps = workflow.jobs.twin.steps;

interface StepRun {
  name: string;
  code: number;
  out: string;
}

/** A step's script, as a runner runs it (`bash -e`), answered asynchronously: staging runs in this process. */
function bash(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((done) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-e', '-c', script], { cwd, env });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('close', (code) => done({ code: code ?? -1, out }));
  });
}

/**
 * The job's steps in order, as a runner runs them: a step that fails stops the job, except for the steps
 * that run `if: always()`. `only` runs the steps it accepts (the rest are left out, as if not in the file).
 */
async function runJob(cwd: string, env: Record<string, string>, only?: (s: Step) => boolean): Promise<StepRun[]> {
  const githubEnv = join(cwd, '.github-env');
  writeFileSync(githubEnv, '');
  const ran: StepRun[] = [];
  let failed = false;
  for (const step of steps) {
    if (!step.run || step.run.trim() === 'npm ci' || (only && !only(step))) continue;
    if (failed && step.if !== 'always()') continue;
    const carried = Object.fromEntries(
      readFileSync(githubEnv, 'utf8')
        .split('\n')
        .filter((l) => l.includes('='))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    const r = await bash(step.run, cwd, {
      PATH: process.env.PATH ?? '',
      HOME: cwd,
      GITHUB_ENV: githubEnv,
      ...env,
      ...carried,
    });
    ran.push({ name: step.name ?? step.run, ...r });
    if (r.code !== 0) failed = true;
  }
  return ran;
}

/** An application project: the guide's test, the published packages of this workspace, the suite's bin. */
function applicationProject(): string {
  const dir = workDir();
  mkdirSync(join(dir, 'test'));
  const [appTest] = block('js');
  writeFileSync(join(dir, 'test/video.test.mjs'), appTest);
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'app', private: true, type: 'module', scripts: { test: 'node --test test/' } }),
  );
  mkdirSync(join(dir, 'node_modules/@videogen'), { recursive: true });
  mkdirSync(join(dir, 'node_modules/.bin'));
  for (const name of ['client', 'sandbox', 'openapi', 'contract-tests'])
    symlinkSync(join(packages, name), join(dir, 'node_modules/@videogen', name));
  symlinkSync(join(packages, 'contract-tests/dist/cli.js'), join(dir, 'node_modules/.bin/videogen-contract'));
  spawnSync('git', ['init', '-q', dir]);
  return dir;
}

const servers: IndependentServer[] = [];
let app: string;
let staging: IndependentServer;
const jobEnv = (server: IndependentServer, profile: string) => ({
  VIDEO_API_BASE_URL: server.baseUrl,
  VIDEO_API_KEY: server.keys.main,
  CONTRACT_TIME_SCALE: String(T),
  // This shared machine's own share of a round trip, amplified by the time scale (10 ms real is 200 ms of
  // service time at 20×): the sandbox's handling of a refused conversion takes about 5 ms more than the
  // independent server's, which compare would otherwise read as the twin's latency (as in calibrate/independent.ts);
  // two calibrations of one server took 9 ms and 16 ms for a listing, which --diff would read as a change.
  // Compare and --diff both read it.
  CONTRACT_LATENCY_NOISE: '60',
  CONTRACT_PROFILE: profile,
  npm_config_offline: 'true',
  npm_config_update_notifier: 'false',
});

beforeAll(async () => {
  expect(existsSync(join(packages, 'contract-tests/dist/cli.js')), 'npm run build first').toBe(true);
  staging = await startIndependentServer(GATEWAY, { timeScale: T });
  servers.push(staging);
  app = applicationProject();
  // Last night's twin, already kept in the repository (read-only: what both nights observe is compared).
  mkdirSync(join(app, 'twins'));
  const last = join(app, 'twins/staging@2026-11-01.twin.json');
  const r = await calibrate(
    ['--profile', 'read-only', '--time-scale', String(T), '--out', last, '--name', 'staging@2026-11-01'],
    { VIDEO_API_BASE_URL: staging.baseUrl, VIDEO_API_KEY: staging.keys.main },
  );
  if (r.code !== 0) throw new Error(r.err.slice(-2000));
}, 300_000);
afterAll(async () => {
  for (const s of servers) await s.close();
});

test('a night with staging unchanged: a twin kept, no change, no difference, the application tests pass on it', async () => {
  // The calibration and the comparison spend no credit here (CONTRACT_PROFILE): the budget's
  // generations are calibrate/independent's; the loop is the same.
  const ran = await runJob(app, jobEnv(staging, 'no-credit'));
  const by = (name: string) => ran.find((s) => s.name === name);
  expect(
    ran.map((s) => [s.name, s.code]),
    ran.map((s) => `${s.name}: ${s.out.slice(-1500)}`).join('\n'),
  ).toEqual([
    ['Plan', 0],
    ['Calibrate', 0],
    ['What changed since the last twin', 0],
    ['The twin behaves as staging', 0],
    ['Application tests against the newest twin', 0],
    ['Keep the twin', 0],
  ]);
  const today = `staging@${new Date().toISOString().slice(0, 10)}`;
  const twin = JSON.parse(readFileSync(join(app, `twins/${today}.twin.json`), 'utf8')) as { name: string };
  expect(twin.name).toBe(today);
  expect(by('Plan')?.out).toMatch(/Calibration plan for external/);
  expect(by('What changed since the last twin')?.out).toMatch(
    new RegExp(`Behaviour changes from staging@2026-11-01 .* to ${today} .*: none`),
  );
  expect(by('The twin behaves as staging')?.out).toMatch(/The twin behaves as the target in everything compared/);
  expect(by('Application tests against the newest twin')?.out).toMatch(/# pass 1\b/);
  // Kept: committed (the push has no remote here, which the step tolerates); the key in no file.
  const log = spawnSync('git', ['log', '--name-only', '--format=%s'], { cwd: app, encoding: 'utf8' }).stdout;
  expect(log).toContain(`twins/${today}.twin.json`);
  for (const f of readdirSync(join(app, 'twins')))
    expect(readFileSync(join(app, 'twins', f), 'utf8')).not.toContain(staging.keys.main);
}, 600_000);

test('a night after staging changed: the job fails at the changelog, which says what changed', async () => {
  // Overnight the gateway was replaced by one with the draft's RateLimit-* headers and its own bad-page code.
  const changed = await startIndependentServer(
    {
      ...GATEWAY,
      rateLimitHeaders: 'ratelimit',
      refusals: { ...GATEWAY.refusals, badPage: { status: 422, code: 'INVALID_PAGE' } },
    },
    { timeScale: T },
  );
  servers.push(changed);
  // Last night's twin is the one the first test kept, under yesterday's name.
  const today = `staging@${new Date().toISOString().slice(0, 10)}`;
  renameSync(join(app, `twins/${today}.twin.json`), join(app, 'twins/staging@2026-11-02.twin.json'));
  const ran = await runJob(app, jobEnv(changed, 'read-only'), (s) => s.name !== 'Plan');
  expect(ran.map((s) => [s.name, s.code])).toEqual([
    ['Calibrate', 0],
    ['What changed since the last twin', 1],
    ['Keep the twin', 0],
  ]);
  const changelog = ran[1].out;
  // (The file kept under yesterday's name holds its own name, today's: the changelog names the twins.)
  // The two changes of the gateway and nothing else: the latencies, this machine's as much as staging's
  // at 20×, are read within the job's CONTRACT_LATENCY_NOISE, as compare reads them.
  expect(changelog).toMatch(/^Behaviour changes from staging@\S+ \(.*\) to staging@\S+ \(.*\): 2 changed\n/);
  expect(changelog).toContain('rate-limit headers: X-RateLimit-* (epoch reset) → RateLimit-*');
  expect(changelog).toContain('→ 422 INVALID_PAGE');
}, 300_000);
