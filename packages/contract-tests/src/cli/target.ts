// The target a command runs against, from the command line and the environment (an option wins over
// its variable): its kind, keys (from the environment only, never an option: they would show in shell
// histories and process lists), profile, fixtures, and where the reports go.
import { existsSync, readFileSync } from 'node:fs';
import { ALLOW_HTTP_VARIABLE, allowedHttpHosts, insecureUrlProblem, PLANS } from '@videogen/openapi/rules';
import { PACING_URL_VARIABLE, redisUrlProblem } from '@videogen/pacer-redis';
import { registerSecret } from '../engine/redact.ts';
import {
  FIXTURE_ENV,
  PROFILES,
  type AttemptLimits,
  type FixtureIds,
  type GenerationSettings,
  type Named,
  type Profile,
  type TargetConfig,
  type TargetKind,
} from '../shapes.ts';

/** Everything a run is told, resolved from options and the environment. */
export interface Settings {
  baseUrl?: string;
  kind?: TargetKind;
  profile?: Profile;
  timeScale?: number;
  strict?: boolean;
  budget?: number;
  everyCombination: boolean;
  /** Run without VIDEO_API_KEY on purpose: only the checks that need no key (authentication, generated keyless requests). */
  keyless: boolean;
  /** Generated requests (fast-check): per operation, the time budget of the phase, the seed that reproduces them. */
  generation: GenerationSettings;
  htmlFile: string;
  /** How the user named each setting, for messages and skip reasons (`--profile`, `CONTRACT_PROFILE`). */
  named: Named;
  junitFile: string;
  summaryFile: string;
  driftFile: string;
  failuresDir: string;
  fixturesFile: string;
  /** Check filters (`listVideos`, `paging_first_page`, `listVideos.paging_first_page`): only matching checks are judged. */
  only: string[];
  /** The time limits of each attempt (--timeout, --body-timeout, --body-deadline), when given. */
  limits: AttemptLimits;
  /** Hosts plain HTTP may reach besides loopback (--allow-http, VIDEO_API_ALLOW_HTTP): the keys go to them in the clear. */
  allowHttp: string[];
}

const KINDS: TargetKind[] = ['external', 'sandbox', 'prism'];

/** Generated requests per operation by default: about 2 minutes at the interface's pace for every operation. */
export const DEFAULT_EXAMPLES = 10;
/** The most wall time the generated requests take by default, in seconds. */
export const DEFAULT_MAX_TIME_S = 120;

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined || value === '') return undefined;
  if (!allowed.includes(value as T)) throw new UsageError(`${name} must be ${allowed.join(', ')}, not ${value}`);
  return value as T;
}

function count(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${name} must be a whole number ≥ 0, not ${value}`);
  return n;
}

function flag(value: string | boolean | undefined): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'boolean') return value;
  return value === '1' || value.toLowerCase() === 'true';
}

/** Seconds (decimals allowed) → ms; undefined when not given. */
function seconds(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!(n > 0) || !Number.isFinite(n)) throw new UsageError(`${name} must be a number of seconds > 0, not ${value}`);
  return n * 1000;
}

/** A mistake in the command line or the environment: printed with the usage hint, exit 2. */
export class UsageError extends Error {}

export interface OptionValues {
  'base-url'?: string;
  profile?: string;
  'target-kind'?: string;
  'time-scale'?: string;
  timeout?: string;
  'body-timeout'?: string;
  'body-deadline'?: string;
  strict?: boolean;
  'no-strict'?: boolean;
  budget?: string;
  'every-combination'?: boolean;
  junit?: string;
  summary?: string;
  drift?: string;
  failures?: string;
  fixtures?: string;
  only?: string[];
  keyless?: boolean;
  examples?: string;
  'max-time'?: string;
  seed?: string;
  html?: string;
  'no-boundary'?: boolean;
  'allow-http'?: string[];
}

/** The option or the variable that set something, as the user typed it; neither: the option (what a message suggests). */
const source = (option: string, variable: string, optionValue: unknown, variableValue: string | undefined) =>
  optionValue === undefined && variableValue ? variable : option;

export function settingsFrom(o: OptionValues, env: NodeJS.ProcessEnv = process.env): Settings {
  const timeScale = o['time-scale'] ?? env.CONTRACT_TIME_SCALE;
  const seedText = o.seed ?? env.CONTRACT_SEED;
  if (seedText !== undefined && seedText !== '' && !/^-?\d+$/.test(seedText))
    throw new UsageError(
      `--seed / CONTRACT_SEED takes the whole number that reproduces generated requests, not ${seedText} (creating fixtures is --seed-fixtures)`,
    );
  const maxTime = o['max-time'] ?? env.CONTRACT_MAX_TIME;
  const maxTimeS = maxTime === undefined || maxTime === '' ? DEFAULT_MAX_TIME_S : Number(maxTime);
  if (!(maxTimeS >= 0) || !Number.isFinite(maxTimeS))
    throw new UsageError(`--max-time / CONTRACT_MAX_TIME must be a number of seconds ≥ 0, not ${maxTime}`);
  const ts = timeScale === undefined || timeScale === '' ? undefined : Number(timeScale);
  if (ts !== undefined && !(ts > 0)) throw new UsageError(`the time scale must be a number > 0, not ${timeScale}`);
  const driftFile = o.drift ?? env.CONTRACT_DRIFT_FILE ?? 'test-results/drift.md';
  const limits: AttemptLimits = {};
  const timeoutMs = seconds('--timeout / CONTRACT_TIMEOUT', o.timeout ?? env.CONTRACT_TIMEOUT);
  const bodyTimeoutMs = seconds(
    '--body-timeout / CONTRACT_BODY_TIMEOUT',
    o['body-timeout'] ?? env.CONTRACT_BODY_TIMEOUT,
  );
  const bodyDeadlineMs = seconds(
    '--body-deadline / CONTRACT_BODY_DEADLINE',
    o['body-deadline'] ?? env.CONTRACT_BODY_DEADLINE,
  );
  if (timeoutMs !== undefined) limits.timeoutMs = timeoutMs;
  if (bodyTimeoutMs !== undefined) limits.bodyTimeoutMs = bodyTimeoutMs;
  if (bodyDeadlineMs !== undefined) limits.bodyDeadlineMs = bodyDeadlineMs;
  return {
    baseUrl: (o['base-url'] ?? env.VIDEO_API_BASE_URL) || undefined,
    kind: oneOf('--target-kind / CONTRACT_TARGET_KIND', o['target-kind'] ?? env.CONTRACT_TARGET_KIND, KINDS),
    profile: oneOf('--profile / CONTRACT_PROFILE', o.profile ?? env.CONTRACT_PROFILE, PROFILES),
    timeScale: ts,
    strict: o.strict ? true : o['no-strict'] ? false : flag(env.CONTRACT_STRICT),
    budget: count('--budget / CONTRACT_CREDIT_BUDGET', o.budget ?? env.CONTRACT_CREDIT_BUDGET),
    everyCombination: o['every-combination'] ?? flag(env.CONTRACT_EVERY_COMBINATION) ?? false,
    junitFile: o.junit ?? env.CONTRACT_JUNIT_FILE ?? 'test-results/junit.xml',
    summaryFile: o.summary ?? env.CONTRACT_SUMMARY_FILE ?? 'test-results/summary.txt',
    driftFile,
    failuresDir: o.failures ?? env.CONTRACT_FAILURES_DIR ?? 'test-results/failures',
    fixturesFile: o.fixtures ?? env.CONTRACT_FIXTURES_FILE ?? 'test-results/fixtures.json',
    only: o.only ?? (env.CONTRACT_ONLY ? env.CONTRACT_ONLY.split(',') : []),
    limits,
    allowHttp: allowedHttpHosts(o['allow-http']?.length ? o['allow-http'].join(',') : env[ALLOW_HTTP_VARIABLE]),
    keyless: o.keyless ?? flag(env.CONTRACT_KEYLESS) ?? false,
    generation: {
      examples: count('--examples / CONTRACT_EXAMPLES', o.examples ?? env.CONTRACT_EXAMPLES) ?? DEFAULT_EXAMPLES,
      maxTimeMs: maxTimeS * 1000,
      // A seed is always chosen, so that every run can be reproduced (the summary prints it).
      seed: seedText !== undefined && seedText !== '' ? Number(seedText) : Math.floor(Math.random() * 2 ** 31),
      seedGiven: seedText !== undefined && seedText !== '',
      // The boundary phase: on unless turned off (--no-boundary, CONTRACT_BOUNDARY=0).
      boundary: !(o['no-boundary'] ?? flag(env.CONTRACT_BOUNDARY) === false),
    },
    htmlFile: o.html ?? env.CONTRACT_HTML_FILE ?? 'test-results/report.html',
    named: {
      baseUrl: source('--base-url', 'VIDEO_API_BASE_URL', o['base-url'], env.VIDEO_API_BASE_URL || 'unset'),
      profile: source('--profile', 'CONTRACT_PROFILE', o.profile, env.CONTRACT_PROFILE),
      budget: source('--budget', 'CONTRACT_CREDIT_BUDGET', o.budget, env.CONTRACT_CREDIT_BUDGET),
    },
  };
}

/** What `--seed-fixtures` wrote for this base URL (nothing when there is no file, or it is another target's). */
export function seeded(baseUrl: string, file: string): { fixtures: FixtureIds; ids: string[] } {
  if (!existsSync(file)) return { fixtures: {}, ids: [] };
  const data = JSON.parse(readFileSync(file, 'utf8'));
  if (data?.baseUrl !== baseUrl.replace(/\/+$/, '')) return { fixtures: {}, ids: [] };
  const fixtures: FixtureIds = data.fixtures ?? {};
  return {
    fixtures,
    ids: [...new Set([...Object.values(fixtures), data.conversion].filter((v): v is string => typeof v === 'string'))],
  };
}

export function fixturesFromEnv(env: NodeJS.ProcessEnv): FixtureIds {
  const out: FixtureIds = {};
  for (const [k, name] of Object.entries(FIXTURE_ENV)) if (env[name]) out[k as keyof FixtureIds] = env[name];
  return out;
}

/** Decision mismatches fail the run when strict: the default only against our own sandbox, where a mismatch is our own bug. */
export const strictDefault = (s: Settings, kind: TargetKind) => s.strict ?? kind === 'sandbox';

/** The target at `settings.baseUrl` (an external service by default). */
export function externalTarget(s: Settings, env: NodeJS.ProcessEnv = process.env): TargetConfig {
  if (!s.baseUrl) throw new UsageError('no target: set VIDEO_API_BASE_URL or --base-url');
  const kind = s.kind ?? 'external';
  const baseUrl = s.baseUrl.replace(/\/+$/, '');
  // 5.2, HTTPS only: the keys never cross a network in the clear unless the operator names the host.
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UsageError(`${s.named.baseUrl} is not a URL: the API including /v1, such as https://staging.example/v1`);
  }
  // fetch refuses a URL with credentials, and its error names the URL whole: refused here, never printed.
  if (url.username || url.password)
    throw new UsageError(
      `${s.named.baseUrl} must not hold a user or password: the keys travel in each request's Authorization header`,
    );
  const insecure = insecureUrlProblem(url, s.allowHttp);
  if (insecure)
    throw new UsageError(
      `${s.named.baseUrl}: refusing to send the API keys in the clear: ${insecure}; --allow-http HOST names a host too`,
    );
  const seed = seeded(baseUrl, s.fixturesFile);
  const pacingUrl = env[PACING_URL_VARIABLE] || undefined;
  const pacingProblem = pacingUrl && redisUrlProblem(pacingUrl);
  if (pacingProblem) throw new UsageError(pacingProblem);
  const config: TargetConfig = {
    kind,
    baseUrl,
    apiKey: env.VIDEO_API_KEY || undefined,
    otherAccountKey: env.VIDEO_API_OTHER_ACCOUNT_KEY || undefined,
    freePlanKey: env.CONTRACT_FREE_PLAN_KEY || undefined,
    noCreditKey: env.CONTRACT_NO_CREDIT_KEY || undefined,
    // Against a real service nothing is created unless asked for: read-only is the safe default.
    profile: s.profile ?? (kind === 'sandbox' ? 'full' : 'read-only'),
    timeScale: s.timeScale ?? 1,
    ...(s.timeScale === undefined && kind !== 'prism' && { paceFromTarget: true }),
    // What a seed created, then what the environment names (it wins).
    fixtures: { ...seed.fixtures, ...fixturesFromEnv(env) },
    seededIds: seed.ids,
    stateful: kind !== 'prism',
    checksKeys: kind !== 'prism',
    rateLimited: kind !== 'prism',
    ...(pacingUrl && kind !== 'prism' && { pacingUrl }),
    strict: strictDefault(s, kind),
    everyCombination: s.everyCombination,
    limits: s.limits,
    generation: s.generation,
    named: s.named,
    accountPlans: accountPlansFrom(env),
  };
  for (const k of [config.apiKey, config.otherAccountKey, config.freePlanKey, config.noCreditKey]) registerSecret(k);
  return config;
}

/**
 * The plans of the keys' accounts (CONTRACT_ACCOUNT_PLAN, CONTRACT_OTHER_ACCOUNT_PLAN): the interface has no
 * request that tells an account's plan, and the upload limits depend on it (8.4). Unset: sizes are judged
 * by what holds on every plan.
 */
function accountPlansFrom(env: NodeJS.ProcessEnv): TargetConfig['accountPlans'] {
  const read = (name: string) => {
    const v = env[name];
    if (v === undefined || v === '') return undefined;
    if (!(PLANS as readonly string[]).includes(v))
      throw new UsageError(`${name} must be ${PLANS.join(', ')}, not ${v}`);
    return v;
  };
  const main = read('CONTRACT_ACCOUNT_PLAN');
  const other = read('CONTRACT_OTHER_ACCOUNT_PLAN');
  return { ...(main && { main }), ...(other && { other }) };
}

/** The environment that describes a target, for a child process (the inverse of externalTarget). */
export function envForTarget(config: TargetConfig): Record<string, string> {
  const env: Record<string, string> = {
    VIDEO_API_BASE_URL: config.baseUrl,
    CONTRACT_TARGET_KIND: config.kind,
    CONTRACT_PROFILE: config.profile,
    CONTRACT_TIME_SCALE: String(config.timeScale),
    CONTRACT_STRICT: config.strict ? '1' : '0',
  };
  if (config.apiKey) env.VIDEO_API_KEY = config.apiKey;
  if (config.otherAccountKey) env.VIDEO_API_OTHER_ACCOUNT_KEY = config.otherAccountKey;
  if (config.pacingUrl) env[PACING_URL_VARIABLE] = config.pacingUrl;
  if (config.freePlanKey) env.CONTRACT_FREE_PLAN_KEY = config.freePlanKey;
  if (config.noCreditKey) env.CONTRACT_NO_CREDIT_KEY = config.noCreditKey;
  if (config.accountPlans?.main) env.CONTRACT_ACCOUNT_PLAN = config.accountPlans.main;
  if (config.accountPlans?.other) env.CONTRACT_OTHER_ACCOUNT_PLAN = config.accountPlans.other;
  const { timeoutMs, bodyTimeoutMs, bodyDeadlineMs } = config.limits ?? {};
  if (timeoutMs !== undefined) env.CONTRACT_TIMEOUT = String(timeoutMs / 1000);
  if (bodyTimeoutMs !== undefined) env.CONTRACT_BODY_TIMEOUT = String(bodyTimeoutMs / 1000);
  if (bodyDeadlineMs !== undefined) env.CONTRACT_BODY_DEADLINE = String(bodyDeadlineMs / 1000);
  for (const [k, name] of Object.entries(FIXTURE_ENV)) {
    const v = config.fixtures[k as keyof FixtureIds];
    if (v) env[name] = v;
  }
  return env;
}
