import { classifyError, retryAfterMs, type ErrorKind as RuleKind } from '@videogen/openapi/rules';
import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];
/** A documented error code, or any other string the service may send. */
export type ErrorCode = Schemas['ErrorCode'] | (string & {});
export type ErrorKind =
  | 'api' | 'auth' | 'not_found' | 'rate_limit' | 'insufficient_credit' | 'concurrency' | 'validation'
  | 'server' | 'timeout' | 'network' | 'video_failed' | 'video_expired' | 'not_ready'
  /** The service answered something the client relies on not happening (HTML on a 200, a create without video_id, a page that repeats). */
  | 'unexpected_response';

export interface ErrorInit {
  status?: number;
  error_code?: ErrorCode;
  error?: string;
  retryable?: boolean;
  cause?: unknown;
  /** ValidationError: the request field at fault, and the limit it broke. */
  field?: string;
  limit?: unknown;
  /** VideoFailedError, VideoExpiredError, VideoNotReadyError, polling TimeoutError: the last status view. */
  video?: Schemas['Video'];
  /** From a response: its headers (the key is never in them: it is a request header). */
  headers?: Headers;
  /** The server's Retry-After as sent, and in ms (seconds or an HTTP date). */
  retryAfter?: string;
  retryAfterMs?: number;
}

/** Every failure of the client. `kind` says which subclass; `retryable` whether waiting could help. */
export class VideoApiError extends Error {
  // Getters on the prototype (not own properties, no top-level statement: tree-shakeable).
  get kind(): ErrorKind {
    return 'api';
  }
  get name() {
    return 'VideoApiError';
  }
  declare readonly status?: number;
  declare readonly error_code?: ErrorCode;
  declare readonly error?: string;
  declare readonly retryable: boolean;
  declare readonly field?: string;
  declare readonly limit?: unknown;
  declare readonly video?: Schemas['Video'];
  declare readonly headers?: Headers;
  declare readonly retryAfter?: string;
  declare readonly retryAfterMs?: number;
  constructor(message: string, { cause, ...init }: ErrorInit = {}) {
    super(message, cause === undefined ? undefined : { cause });
    // `error` is the human description, also for errors raised by the client itself.
    Object.assign(this, { retryable: false, error: message }, init);
  }
}

type Sub<K extends ErrorKind> = {
  new (message: string, init?: ErrorInit): VideoApiError & { readonly kind: K };
  prototype: VideoApiError & { readonly kind: K };
};
// Subclasses differ only in kind and name: one factory keeps the bundle small.
const sub = <K extends ErrorKind>(name: string, kind: K, Base: typeof VideoApiError = VideoApiError): Sub<K> => {
  const C = class extends Base {
    get kind() {
      return kind;
    }
    get name() {
      return name;
    }
  };
  Object.defineProperty(C, 'name', { value: name });
  return C as unknown as Sub<K>;
};

export const AuthenticationError = /* @__PURE__ */ sub('AuthenticationError', 'auth');
export const NotFoundError = /* @__PURE__ */ sub('NotFoundError', 'not_found');
export const RateLimitError = /* @__PURE__ */ sub('RateLimitError', 'rate_limit');
export const InsufficientCreditError = /* @__PURE__ */ sub('InsufficientCreditError', 'insufficient_credit');
export const ConcurrencyLimitError = /* @__PURE__ */ sub('ConcurrencyLimitError', 'concurrency');
export const ValidationError = /* @__PURE__ */ sub('ValidationError', 'validation');
export const ServerError = /* @__PURE__ */ sub('ServerError', 'server');
export const TimeoutError = /* @__PURE__ */ sub('TimeoutError', 'timeout');
export const NetworkError = /* @__PURE__ */ sub('NetworkError', 'network');
export const VideoFailedError = /* @__PURE__ */ sub('VideoFailedError', 'video_failed');
export const VideoExpiredError = /* @__PURE__ */ sub('VideoExpiredError', 'video_expired');
export const VideoNotReadyError = /* @__PURE__ */ sub('VideoNotReadyError', 'not_ready');
export const UnexpectedResponseError = /* @__PURE__ */ sub('UnexpectedResponseError', 'unexpected_response');
export type AuthenticationError = InstanceType<typeof AuthenticationError>;
export type NotFoundError = InstanceType<typeof NotFoundError>;
export type RateLimitError = InstanceType<typeof RateLimitError>;
export type InsufficientCreditError = InstanceType<typeof InsufficientCreditError>;
export type ConcurrencyLimitError = InstanceType<typeof ConcurrencyLimitError>;
export type ValidationError = InstanceType<typeof ValidationError>;
export type ServerError = InstanceType<typeof ServerError>;
export type TimeoutError = InstanceType<typeof TimeoutError>;
export type NetworkError = InstanceType<typeof NetworkError>;
export type VideoFailedError = InstanceType<typeof VideoFailedError>;
export type VideoExpiredError = InstanceType<typeof VideoExpiredError>;
export type VideoNotReadyError = InstanceType<typeof VideoNotReadyError>;
export type UnexpectedResponseError = InstanceType<typeof UnexpectedResponseError>;

export const isVideoApiError = (e: unknown): e is VideoApiError => e instanceof VideoApiError;

/** Whether waiting and sending again could help (x-retry-policy, through the rules' one classifier). */
export const isRetryable = (status: number, code?: unknown) => classifyError(status, typeof code == 'string' ? code : undefined).retryable;

/** The error class of each kind the rules' classifier gives an error answer. */
const CLASS_OF: Record<RuleKind, new (message: string, init?: ErrorInit) => VideoApiError> = {
  auth: AuthenticationError,
  not_found: NotFoundError,
  rate_limit: RateLimitError,
  insufficient_credit: InsufficientCreditError,
  concurrency: ConcurrencyLimitError,
  unavailable: ServerError,
  server: ServerError,
  validation: ValidationError,
  api: VideoApiError,
};

/** The error for an HTTP error response (`body` is the parsed error body, if any). */
export function fromResponse(status: number, body: any, headers?: Headers, now = Date.now()): VideoApiError {
  const code: string | undefined = typeof body?.error_code == 'string' ? body.error_code : undefined;
  const error: string = body?.error ?? (typeof body == 'string' ? body.slice(0, 200) : '');
  const { kind, retryable } = classifyError(status, code);
  const C = CLASS_OF[kind];
  return new C(`${status}${code ? ' ' + code : ''}${error ? ': ' + error : ''}`, {
    status, error_code: code, error, retryable,
    ...(headers && { headers, ...retryAfterOf(headers, now) }),
  });
}

/** The Retry-After of a response, as sent and in ms (uncapped: the caller decides what is too long). */
export function retryAfterOf(headers: Headers, now: number): { retryAfter?: string; retryAfterMs?: number } {
  const retryAfter = headers.get('retry-after') ?? undefined;
  if (retryAfter === undefined) return {};
  const ms = retryAfterMs(retryAfter, now);
  return { retryAfter, ...(ms !== undefined && Number.isFinite(ms) && { retryAfterMs: ms }) };
}
