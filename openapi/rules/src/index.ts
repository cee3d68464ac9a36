// @videogen/openapi/rules: the spec's constants and the rules more than one package needs.
// Pure (no Node built-ins): bundled into the client, which runs in Workers, Deno and Bun.
export * from './generated/constants.js';
export { operationById, operationFor, pathParametersOf, type OperationEntry } from './operations.js';
export { pathParameterProblem, STRING_FORMATS, UUID_PATTERN } from './path-parameters.js';
export {
  conversionProblem,
  type ConversionProblem,
  type ConversionProblemKind,
  type ConversionSource,
  type ConversionTarget,
} from './conversion.js';
export { formProblem, type FormProblem } from './form.js';
export {
  headerValue,
  parseRetryAfter,
  retryAfterMs,
  parseRateLimitHeaders,
  MAX_LEARNED_TIME_SCALE,
  MAX_RETRY_AFTER_MS,
  type HeaderSource,
  type RateLimitInfo,
  type RateLimitPolicy,
} from './headers.js';
export { classifyError, type ErrorClass, type ErrorKind } from './errors.js';
export {
  BACKOFF,
  backoffMs,
  isIdempotent,
  noAnswerOf,
  retryDecision,
  type AttemptResult,
  type NoAnswer,
  type RetryDecision,
  type RetryInput,
  type RetryReason,
  type WaitSource,
} from './retry.js';
export {
  BODY_LIMITS,
  BodyTimeoutError,
  BodyWatch,
  declaredTooLarge,
  joinChunks,
  limitBody,
  readBody,
  ResponseTooLargeError,
  type BodyLimitOptions,
} from './body.js';
export { CLOCK_SKEW_MS, findCreated, newestPages, type CreatedItem } from './recovery.js';
export {
  REDACTED,
  redactAuthorization,
  redactedAs,
  Redactor,
  redactUrl,
  type RedactorOptions,
} from './redact.js';
export { MAX_TIMER_MS, sleep } from './sleep.js';
export {
  Pacer,
  PacerWaitError,
  pacingFloorMs,
  type PacerOptions,
  type AcquireOptions,
  type Outcome,
  type Ticket,
  type PacerStats,
} from './pacer.js';
export {
  MemoryPacerStore,
  type PacerStore,
  type ScheduleSnapshot,
  type TakeRequest,
  type Waiting,
  type WaitingNote,
  type TakeResult,
  type Lesson,
  type Settlement,
  type AccountView,
  type MaybePromise,
} from './pacer-store.js';
export { keyFingerprint, keyIdentity, scheduleName } from './accounts.js';
export { statedTimeScale, timeScaleOf } from './time-scale.js';
export {
  ANNOUNCED_WAIT_MS,
  pacingReason,
  waitLine,
  type PaceOfClass,
  type WaitNotice,
  type WaitReason,
} from './waits.js';
export {
  baseUrlProblem,
  closedWithoutAnswer,
  describeProbe,
  isTheApi,
  PROBE_PATH,
  probeErrorCode,
  readProbe,
  settingOf,
  unreachable,
  type BaseUrlOptions,
  type ProbeAnswer,
  type ProbeReading,
  type ProbeSend,
} from './base-url.js';
export {
  ALLOW_HTTP_VARIABLE,
  allowedHttpHosts,
  browserRequestProblem,
  insecureUrlProblem,
  isLoopbackHostname,
  type BrowserRequestProblem,
} from './hosts.js';
