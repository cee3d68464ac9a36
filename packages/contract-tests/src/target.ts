// What the suite runs against, read from the environment (or built by the CLI / self-test).
import { existsSync, readFileSync } from 'node:fs';
import { registerSecret } from './redact.ts';

export type TargetKind = 'external' | 'sandbox' | 'prism';
export type Profile = 'read-only' | 'full';

/** Known ids on the target. Each is optional: a check that needs a missing one is skipped with the reason. */
export interface FixtureIds {
  videoSettingId?: string;
  /** Settings whose request_fields are exactly one input mode of x-valid-combinations (generation in every mode). */
  pdfSettingId?: string;
  pptxSettingId?: string;
  textPdfSettingId?: string;
  audioSettingId?: string;
  videoFileSettingId?: string;
  textImagesSettingId?: string;
  completedVideoId?: string;
  /** A video in the `failed` state, and one in the `expired` state (status views of every state). */
  failedVideoId?: string;
  expiredVideoId?: string;
  convertibleVideoId?: string;
  notConvertibleVideoId?: string;
  realAvatarVideoId?: string;
  limitedVoicesVideoId?: string;
  unknownErrorVideoId?: string;
  otherAccountVideoId?: string;
  /** A convertible video of the Free-plan account (CONTRACT_FREE_PLAN_KEY). */
  freePlanVideoId?: string;
  /** A convertible video of the account without credit (CONTRACT_NO_CREDIT_KEY). */
  noCreditVideoId?: string;
}

export interface TargetConfig {
  kind: TargetKind;
  /** Base URL including `/v1` (Prism: without it). No trailing slash. */
  baseUrl: string;
  apiKey?: string;
  otherAccountKey?: string;
  /** A key of an account on a plan without conversion (403 INSUFFICIENT_CREDIT). */
  freePlanKey?: string;
  /** A key of an account without credit (429 INSUFFICIENT_CREDIT). */
  noCreditKey?: string;
  profile: Profile;
  /** How much faster than real time the target runs (sandbox --time-scale); 1 for real services. */
  timeScale: number;
  fixtures: FixtureIds;
  /** Whether the target keeps state (a stateless mock answers examples whatever was sent). */
  stateful: boolean;
  /** Whether the target checks key values (a mock only checks that a bearer header is there). */
  checksKeys: boolean;
  /** Whether the target enforces the rate limits (the Prism mock does not: no pacing needed). */
  rateLimited: boolean;
  /** Decision mismatches fail the run too (CONTRACT_STRICT=1). Default: only against our own sandbox. */
  strict: boolean;
  /** Where the drift report goes (`.md`, and `.json` beside it). */
  driftFile: string;
  /** Every video contract --seed made for this target (its fixtures and the conversion). */
  seededIds?: string[];
}

/** CONTRACT_STRICT=1/0, else strict only against our own sandbox, where a mismatch is our own bug. */
export function strictFromEnv(env: NodeJS.ProcessEnv, kind: TargetKind): boolean {
  return env.CONTRACT_STRICT ? env.CONTRACT_STRICT === '1' || env.CONTRACT_STRICT === 'true' : kind === 'sandbox';
}

export const driftFileFromEnv = (env: NodeJS.ProcessEnv) => env.CONTRACT_DRIFT_FILE ?? 'test-results/drift.md';

/** Fixture environment variables, documented in the README. */
export const FIXTURE_ENV: Record<keyof FixtureIds, string> = {
  videoSettingId: 'CONTRACT_VIDEO_SETTING_ID',
  pdfSettingId: 'CONTRACT_PDF_SETTING_ID',
  pptxSettingId: 'CONTRACT_PPTX_SETTING_ID',
  textPdfSettingId: 'CONTRACT_TEXT_PDF_SETTING_ID',
  audioSettingId: 'CONTRACT_AUDIO_SETTING_ID',
  videoFileSettingId: 'CONTRACT_VIDEO_FILE_SETTING_ID',
  textImagesSettingId: 'CONTRACT_TEXT_IMAGES_SETTING_ID',
  completedVideoId: 'CONTRACT_COMPLETED_VIDEO_ID',
  failedVideoId: 'CONTRACT_FAILED_VIDEO_ID',
  expiredVideoId: 'CONTRACT_EXPIRED_VIDEO_ID',
  convertibleVideoId: 'CONTRACT_CONVERTIBLE_VIDEO_ID',
  notConvertibleVideoId: 'CONTRACT_NOT_CONVERTIBLE_VIDEO_ID',
  realAvatarVideoId: 'CONTRACT_REAL_AVATAR_VIDEO_ID',
  limitedVoicesVideoId: 'CONTRACT_LIMITED_VOICES_VIDEO_ID',
  unknownErrorVideoId: 'CONTRACT_UNKNOWN_ERROR_VIDEO_ID',
  otherAccountVideoId: 'CONTRACT_OTHER_ACCOUNT_VIDEO_ID',
  freePlanVideoId: 'CONTRACT_FREE_PLAN_VIDEO_ID',
  noCreditVideoId: 'CONTRACT_NO_CREDIT_VIDEO_ID',
};

export const fixturesFileFromEnv = (env: NodeJS.ProcessEnv = process.env) => env.CONTRACT_FIXTURES_FILE ?? 'test-results/fixtures.json';

/** What `contract --seed` wrote for this base URL (nothing when there is no file, or it is another target's). */
export function seeded(baseUrl: string, file = fixturesFileFromEnv()): { fixtures: FixtureIds; ids: string[] } {
  if (!existsSync(file)) return { fixtures: {}, ids: [] };
  const data = JSON.parse(readFileSync(file, 'utf8'));
  if (data?.baseUrl !== baseUrl.replace(/\/+$/, '')) return { fixtures: {}, ids: [] };
  const fixtures: FixtureIds = data.fixtures ?? {};
  return { fixtures, ids: [...new Set([...Object.values(fixtures), data.conversion].filter((v): v is string => typeof v === 'string'))] };
}

export function fixturesFromEnv(env: NodeJS.ProcessEnv): FixtureIds {
  const out: FixtureIds = {};
  for (const [k, name] of Object.entries(FIXTURE_ENV)) if (env[name]) out[k as keyof FixtureIds] = env[name];
  return out;
}

/** The target described by `VIDEO_API_BASE_URL` and friends (an external service by default). */
export function targetFromEnv(env: NodeJS.ProcessEnv = process.env): TargetConfig {
  const baseUrl = env.VIDEO_API_BASE_URL;
  if (!baseUrl) throw new Error('VIDEO_API_BASE_URL is not set');
  const kind = (env.CONTRACT_TARGET_KIND as TargetKind | undefined) ?? 'external';
  if (!['external', 'sandbox', 'prism'].includes(kind)) throw new Error(`CONTRACT_TARGET_KIND must be external, sandbox or prism, not ${kind}`);
  // Against a real service nothing is created unless asked for: read-only is the safe default.
  const profile = (env.CONTRACT_PROFILE as Profile | undefined) ?? (kind === 'sandbox' ? 'full' : 'read-only');
  if (profile !== 'read-only' && profile !== 'full') throw new Error(`CONTRACT_PROFILE must be read-only or full, not ${profile}`);
  const config: TargetConfig = {
    kind,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    apiKey: env.VIDEO_API_KEY || undefined,
    otherAccountKey: env.VIDEO_API_OTHER_ACCOUNT_KEY || undefined,
    freePlanKey: env.CONTRACT_FREE_PLAN_KEY || undefined,
    noCreditKey: env.CONTRACT_NO_CREDIT_KEY || undefined,
    profile,
    timeScale: Number(env.CONTRACT_TIME_SCALE ?? 1) || 1,
    // What a seed created, then what the environment names (it wins).
    fixtures: { ...seeded(baseUrl, fixturesFileFromEnv(env)).fixtures, ...fixturesFromEnv(env) },
    seededIds: seeded(baseUrl, fixturesFileFromEnv(env)).ids,
    stateful: kind !== 'prism',
    checksKeys: kind !== 'prism',
    rateLimited: kind !== 'prism',
    strict: strictFromEnv(env, kind),
    driftFile: driftFileFromEnv(env),
  };
  registerTargetSecrets(config);
  return config;
}

export function registerTargetSecrets(config: TargetConfig): void {
  for (const k of [config.apiKey, config.otherAccountKey, config.freePlanKey, config.noCreditKey]) registerSecret(k);
}

/** The environment that describes a target, for a child process (the inverse of targetFromEnv). */
export function envForTarget(config: TargetConfig): Record<string, string> {
  const env: Record<string, string> = {
    VIDEO_API_BASE_URL: config.baseUrl,
    CONTRACT_TARGET_KIND: config.kind,
    CONTRACT_PROFILE: config.profile,
    CONTRACT_TIME_SCALE: String(config.timeScale),
    CONTRACT_STRICT: config.strict ? '1' : '0',
    CONTRACT_DRIFT_FILE: config.driftFile,
  };
  if (config.apiKey) env.VIDEO_API_KEY = config.apiKey;
  if (config.otherAccountKey) env.VIDEO_API_OTHER_ACCOUNT_KEY = config.otherAccountKey;
  if (config.freePlanKey) env.CONTRACT_FREE_PLAN_KEY = config.freePlanKey;
  if (config.noCreditKey) env.CONTRACT_NO_CREDIT_KEY = config.noCreditKey;
  for (const [k, name] of Object.entries(FIXTURE_ENV)) {
    const v = config.fixtures[k as keyof FixtureIds];
    if (v) env[name] = v;
  }
  return env;
}
