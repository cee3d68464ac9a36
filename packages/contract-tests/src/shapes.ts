// The shapes every part of the suite shares: the target, an exchange, a problem, a mismatch, a
// result, a cost. A leaf module: it imports nothing, so that no folder needs another only for a type.

export type TargetKind = 'external' | 'sandbox' | 'prism';

/**
 * What a run may send. `read-only`: GET requests only. `no-credit`: also the POST requests the interface
 * says must be refused before any work (no key, a malformed id, an invalid form, an unknown video); a
 * guard stops every further generation or conversion at the first one the target accepts (at most one
 * credit at risk). `full`: also generations, conversions and bursts (credits).
 */
export type Profile = 'read-only' | 'no-credit' | 'full';
export const PROFILES: readonly Profile[] = ['read-only', 'no-credit', 'full'];

/** Known ids on the target. Each is optional: a check that needs a missing one skips with the reason. */
export interface FixtureIds {
  videoSettingId?: string;
  /** Settings whose request_fields are exactly one combination of x-valid-combinations. */
  pdfSettingId?: string;
  pptxSettingId?: string;
  textPdfSettingId?: string;
  audioSettingId?: string;
  videoFileSettingId?: string;
  textImagesSettingId?: string;
  completedVideoId?: string;
  /** A video in the `failed` state, and one in the `expired` state. */
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
export type FixtureName = keyof FixtureIds;

/** The keys of a run, by account: `main` is VIDEO_API_KEY. */
export type Account = 'main' | 'other' | 'freePlan' | 'noCredit';

export interface TargetConfig {
  kind: TargetKind;
  /**
   * Its pace is read from its RateLimit-Policy in the preflight: an external target, or a sandbox at a URL
   * the user gave, without --time-scale (a sandbox started with --time-scale states it there).
   */
  paceFromTarget?: boolean;
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
  /**
   * Redis URL of a schedule shared with every other process pacing the same accounts (VIDEO_API_PACING_URL):
   * parallel suite runs, pacing proxies and clients against one staging account keep its limits together.
   */
  pacingUrl?: string;
  /** Decision mismatches fail the run too (CONTRACT_STRICT=1). Default: only against our own sandbox. */
  strict: boolean;
  /** Every video contract --seed-fixtures made for this target (its fixtures and the conversion). */
  seededIds?: string[];
  /** Generate every valid combination (7 credits) instead of one per input mode (CONTRACT_EVERY_COMBINATION=1). */
  everyCombination?: boolean;
  /**
   * Holds the target's time still until the function it returns is called: only the sandbox a run starts
   * itself, whose clock the suite owns. The rate-limit burst is sent while it holds, at one instant of the
   * target's time as "at once" means: at time scale 100 a 10 s window is 100 ms, and a busy machine
   * spreads the burst's requests over more than that (a fixed window turns, a bucket refills): no 429.
   */
  holdTime?: () => () => void;
  /** Generated requests (absent: none, as in the self-test's runs of the hand-written catalogue). */
  generation?: GenerationSettings;
  /**
   * The plan of each account's key (`free`, `personal`, `business`), when the run knows it: the interface
   * has no request that tells, so it is configured (CONTRACT_ACCOUNT_PLAN, CONTRACT_OTHER_ACCOUNT_PLAN),
   * or read from the embedded sandbox's accounts. Upload sizes are judged by it.
   */
  accountPlans?: { main?: string; other?: string };
  /** How the user named the profile and the budget, so that a skip reason names what they typed. */
  named?: Pick<Named, 'profile' | 'budget'>;
  /** The time and size limits of each attempt (--timeout, --body-timeout, --body-deadline). */
  limits?: AttemptLimits;
}

/** How long one attempt may wait and how much it may read (defaults: engine/http.ts attemptLimits). */
export interface AttemptLimits {
  /** For the answer's headers, once the request is sent (--timeout). */
  timeoutMs?: number;
  /** The body stalls when less than 1 KiB arrives in this long (--body-timeout). */
  bodyTimeoutMs?: number;
  /** The whole body, from its headers (--body-deadline). */
  bodyDeadlineMs?: number;
  /** The body, decoded. */
  maxBodyBytes?: number;
}

/** Generated requests: how many per operation, the wall-time budget of the phase, and the seed. */
export interface GenerationSettings {
  /** Generated requests per operation (0: none). */
  examples: number;
  /** The most wall time the phase takes, ms. */
  maxTimeMs: number;
  seed: number;
  /** The user chose the seed (else it was drawn, and the summary prints it). */
  seedGiven: boolean;
  /** Only these operations (the run judges only their checks: --only); all when absent. */
  operations?: string[];
  /** The boundary phase (deterministic, before the random one); on unless turned off (--no-boundary). */
  boundary?: boolean;
}

/** How the user named a setting, for messages: the option when one was given (or neither was), else the variable. */
export interface Named {
  baseUrl: string;
  profile: string;
  budget: string;
}

/** How to ask for a profile the way the user asks for it: `--profile no-credit`, or `CONTRACT_PROFILE=no-credit`. */
export function profileFlag(named: Pick<Named, 'profile'> | undefined, profile: string): string {
  return named?.profile === 'CONTRACT_PROFILE' ? `CONTRACT_PROFILE=${profile}` : `--profile ${profile}`;
}

/** How to set a credit budget the way the user sets it. */
export function budgetFlag(named: Pick<Named, 'budget'> | undefined, budget?: number): string {
  const n = budget === undefined ? 'N' : String(budget);
  return named?.budget === 'CONTRACT_CREDIT_BUDGET' ? `CONTRACT_CREDIT_BUDGET=${n}` : `--budget ${n}`;
}

export type ProblemKind = 'server_error' | 'status' | 'content_type' | 'schema' | 'headers' | 'envelope' | 'error_code';

/** What the response checks found in one answer. */
export interface Problem {
  kind: ProblemKind;
  message: string;
  /** DECISIONS.md entries when the problem breaks only this document's choice, not the interface. */
  decision?: number[];
}

export interface RecordedPart {
  name: string;
  value?: string;
  file?: { filename: string; type: string; size: number; base64?: string };
}

/** What a request sent, key left out: for failure bundles, replays and curl lines. */
export interface RecordedRequest {
  method: string;
  /** Path relative to the base URL, with the query. */
  path: string;
  /** The path parameters it was sent with, by name (the path holds them encoded). */
  pathParams?: Record<string, string>;
  /** 'key' (the account's key), 'none', or a literal Authorization header (redacted: `[redacted]` stands for a key). */
  auth: 'key' | 'none' | { header: string };
  json?: unknown;
  raw?: { body: string; contentType: string };
  form?: RecordedPart[];
  /** Headers sent besides Accept, Authorization and Content-Type (a generated request's variants). */
  headers?: Record<string, string>;
}

/**
 * One request and its final answer (after the retries and waits of interface 7.1), typed by the
 * operation it was sent to (`Exchange<'getVideo'>`: the engine's `call` gives it; the checks read its
 * body as that operation's).
 */
export interface Exchange<Id extends string = string> {
  seq: number;
  /** The scenario that sent it (a check's own requests: the check's id). */
  scenario: string;
  operationId?: Id;
  method: string;
  /** Path relative to the base URL, with the query. */
  path: string;
  /** How the request authenticated (never the key itself), e.g. `key of main`. */
  auth: string;
  status: number;
  contentType: string;
  headers: Headers;
  body: unknown;
  text: string;
  ms: number;
  /** When its final attempt was sent (epoch ms): what calibrate times latencies, durations and limits by. */
  at?: number;
  problems: Problem[];
  /** How many earlier answers to this request were transient (retried or waited out, not judged). */
  transients: number;
  request?: RecordedRequest;
  /** The base URL the request went to (for a curl line). */
  baseUrl: string;
  /**
   * A create answered by a 5xx other than 503 and not sent again, since it may have made a video (at
   * most once for every POST): what the look in the list found.
   */
  notResent?: string;
  /** The classes of input the request carried (RequestOptions.inputClasses). */
  inputClasses?: string[];
}

/** An answer retried (5xx, or no answer at all) or waited out (429, 503) as interface 7.1 says: reported, never judged. */
export interface TransientAnswer {
  scenario: string;
  /** `GET /videos/?page=2 (key of main)`. */
  request: string;
  operationId?: string;
  /** 0: no answer (a network error). */
  status: number;
  errorCode?: string;
  /** Network error, or the first characters of a body that is not the envelope. */
  detail?: string;
  attempt: number;
  /** `retried` after a backoff (5xx, network error), `waited` (429 until the reset, 503 for the load). */
  action: 'retried' | 'waited';
  curl?: string;
}

/**
 * A difference from one of this document's decisions (DECISIONS.md), not from the interface: the
 * target chose differently where the interface is silent.
 */
export interface Mismatch {
  decision: number[];
  /** What differs: the status, the error code, a header, or a value of the body or a behaviour. */
  kind: 'status' | 'error_code' | 'header' | 'value';
  message: string;
  exchange?: Exchange;
}

/** `drift`: the target differs only from this document's decisions (DECISIONS.md), not from the interface. */
export type CheckState = 'passed' | 'failed' | 'skipped' | 'drift';

export interface CheckResult {
  operation: string;
  name: string;
  state: CheckState;
  /** Skip reason, or failure message (redacted). */
  message?: string;
  /** What a pass rests on, when it is less than the name says (shown in the summary). */
  note?: string;
  ms: number;
  /** The decisions the target differed from, with what it did instead. */
  mismatches?: Mismatch[];
  /** The classes of input a failed check of generated requests failed for (`page: 2^31`). */
  inputClasses?: string[];
}

/** What a scenario sends (its declaration; the plan adds them up, test/plan.test.ts holds them to real runs). */
export interface Cost {
  /** Class-A requests of the main account (POST generate / convert). */
  A: number;
  /** Class-B requests of the main account, not counting the status reads of videos the run created. */
  B: number;
  /** Least status reads of created videos (one per video waited for; more while it runs). */
  reads: number;
  /** Generations and conversions a conforming target accepts. */
  credits: number;
  /** Requests of other accounts and without a key (paced apart from the main account). */
  apartA: number;
  apartB: number;
  /** B is the most it sends (it stops once it has what it looks for). */
  upTo?: boolean;
  /** A is the most it sends too (generated requests: a deadline may end them, a failure adds its shrinking). */
  upToA?: boolean;
  /** Generations or conversions a conforming target refuses, which a broken one would charge. */
  atRisk: number;
}

export const NO_COST: Cost = { A: 0, B: 0, reads: 0, credits: 0, apartA: 0, apartB: 0, atRisk: 0 };

/** How a request authenticates: the account's key, none, or a literal header (a malformed or unknown key). */
export type Auth = 'key' | 'none' | { header: string; label: string };

export interface RequestOptions {
  /** A list is the parameter given once per value (`page=1&page=2`). */
  query?: Record<string, string | number | readonly string[]>;
  json?: unknown;
  /** A raw body with its content type (for bodies that are not JSON objects). */
  raw?: { body: string; contentType: string };
  form?: FormData;
  auth?: Auth;
  /** Further headers (a generated request's variants: Accept, an id of its own); never Authorization. */
  headers?: Record<string, string>;
  /** Wait out and re-send a 429 / 503 (default true); off in the checks that provoke them. */
  retry?: boolean;
  /** Wait for a free place in the rate-limit window (default true); off for deliberate bursts. */
  pace?: boolean;
  /** Wait for a free place among the running videos (default true); off where the check provokes the 503. */
  gate?: boolean;
  /** The check provokes a 500 on purpose (the 7.2 UNKNOWN_ERROR row): it is the answer, not retried, not a server error. */
  expectServerError?: boolean;
  /** The classes of input the request carries (a boundary request: `page: 2^31`), recorded with its exchange. */
  inputClasses?: string[];
}

/** The environment variable that configures each fixture (README: Fixtures). */
export const FIXTURE_ENV: Record<FixtureName, string> = {
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

/** The environment variable of each account's key. */
export const KEY_ENV: Record<Account, string> = {
  main: 'VIDEO_API_KEY',
  other: 'VIDEO_API_OTHER_ACCOUNT_KEY',
  freePlan: 'CONTRACT_FREE_PLAN_KEY',
  noCredit: 'CONTRACT_NO_CREDIT_KEY',
};
