// Every failure of the client is a VideoApiError; one subclass per kind. An error answer of the API
// becomes the class its kind names through VideoApiError.generate (the rules' one classifier, 7.1).
import { classifyError, retryAfterMs } from '@videogen/openapi/rules';
import type { components } from '@videogen/openapi/types';

type Schemas = components['schemas'];
/** A documented error code, or any other string the service may send. */
export type ErrorCode = Schemas['ErrorCode'] | (string & {});
export type ErrorKind =
  | 'api'
  | 'auth'
  | 'not_found'
  | 'rate_limit'
  | 'insufficient_credit'
  | 'concurrency'
  | 'validation'
  | 'server'
  | 'timeout'
  | 'network'
  | 'video_failed'
  | 'video_expired'
  | 'not_ready'
  /** The service answered something the client relies on not happening (HTML on a 200, a create without video_id, a page that repeats). */
  | 'unexpected_response'
  /** An answer's body was larger than the client accepts (maxBodyBytes, decoded). */
  | 'response_too_large'
  /** The download host (not the API) refused the video or dropped the connection. */
  | 'download'
  /** A webhook delivery that does not verify (verifyWebhook): its signature, headers, timestamp or body. */
  | 'webhook';

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
  /** The server's Retry-After as sent, and in ms (seconds or an HTTP date), uncapped. */
  retryAfter?: string;
  retryAfterMs?: number;
  /** A create that may have been made by an attempt whose answer did not say so, and was not sent again. */
  notResent?: boolean;
  /** TimeoutError: which deadline passed. */
  deadline?: TimeoutDeadline;
}

/**
 * Which deadline a TimeoutError met: `headers` (timeoutMs: no answer began), `body-idle` (bodyTimeoutMs:
 * the body stalled), `body-total` (bodyDeadlineMs: the body did not end in time), `polling` (waitForVideo's
 * timeoutMs: the video was still running).
 */
export type TimeoutDeadline = 'headers' | 'body-idle' | 'body-total' | 'polling';

/** Every failure of the client. `kind` says which subclass; `retryable` whether waiting could help. */
export class VideoApiError extends Error {
  override readonly name: string = 'VideoApiError';
  readonly kind: ErrorKind = 'api';
  readonly status?: number;
  readonly error_code?: ErrorCode;
  /** The human description: the server's `error`, or the client's own message. */
  readonly error?: string;
  readonly retryable: boolean;
  readonly field?: string;
  readonly limit?: unknown;
  readonly video?: Schemas['Video'];
  readonly headers?: Headers;
  readonly retryAfter?: string;
  readonly retryAfterMs?: number;
  /**
   * True when this create (generate, conversion) was not sent again because an earlier attempt may have
   * created the video (its answer was lost, or a 5xx other than 503): look at `videos.list()` first.
   */
  readonly notResent?: boolean;

  constructor(message: string, init: ErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.error_code = init.error_code;
    this.error = init.error ?? message;
    this.retryable = init.retryable ?? false;
    this.field = init.field;
    this.limit = init.limit;
    this.video = init.video;
    this.headers = init.headers;
    this.retryAfter = init.retryAfter;
    this.retryAfterMs = init.retryAfterMs;
    if (init.notResent) this.notResent = true;
  }

  /**
   * The error for an error answer of the API: `body` is its parsed body (the spec's `{error_code,
   * error}`, or text), already scrubbed of the key. The class is the kind the rules' classifier gives.
   */
  static generate(
    status: number,
    body: unknown,
    headers?: Headers,
    now = Date.now(),
    extra: Pick<ErrorInit, 'notResent'> = {},
  ): VideoApiError {
    const b = body as { error_code?: unknown; error?: unknown } | string | null | undefined;
    const code = typeof b === 'object' && typeof b?.error_code === 'string' ? b.error_code : undefined;
    const error = typeof b === 'string' ? b.slice(0, 200) : typeof b?.error === 'string' ? b.error : '';
    const { kind, retryable } = classifyError(status, code);
    const init: ErrorInit = {
      status,
      error_code: code,
      error,
      retryable,
      ...(headers && { headers, ...retryAfterOf(headers, now) }),
      ...extra,
    };
    const message = `${status}${code ? ' ' + code : ''}${error ? ': ' + error : ''}`;
    switch (kind) {
      case 'auth':
        return new AuthenticationError(message, init);
      case 'not_found':
        return new NotFoundError(message, init);
      case 'rate_limit':
        return new RateLimitError(message, init);
      case 'insufficient_credit':
        return new InsufficientCreditError(message, init);
      case 'concurrency':
        return new ConcurrencyLimitError(message, init);
      case 'validation':
        return new ValidationError(message, init);
      case 'unavailable':
      case 'server':
        return new ServerError(message, init);
      case 'api':
        return new VideoApiError(message, init);
      default:
        return unreachable(kind);
    }
  }
}
const unreachable = (kind: never): never => {
  throw new Error(`unknown error kind ${kind as string}`);
};

export class AuthenticationError extends VideoApiError {
  override readonly name = 'AuthenticationError';
  override readonly kind = 'auth';
}
export class NotFoundError extends VideoApiError {
  override readonly name = 'NotFoundError';
  override readonly kind = 'not_found';
}
export class RateLimitError extends VideoApiError {
  override readonly name = 'RateLimitError';
  override readonly kind = 'rate_limit';
}
export class InsufficientCreditError extends VideoApiError {
  override readonly name = 'InsufficientCreditError';
  override readonly kind = 'insufficient_credit';
}
export class ConcurrencyLimitError extends VideoApiError {
  override readonly name = 'ConcurrencyLimitError';
  override readonly kind = 'concurrency';
}
export class ValidationError extends VideoApiError {
  override readonly name = 'ValidationError';
  override readonly kind = 'validation';
}
export class ServerError extends VideoApiError {
  override readonly name = 'ServerError';
  override readonly kind = 'server';
}
export class TimeoutError extends VideoApiError {
  override readonly name = 'TimeoutError';
  override readonly kind = 'timeout';
  /** Which deadline passed: the headers', the body's (stalled, or not whole in time), or a wait's. */
  readonly deadline: TimeoutDeadline;
  constructor(message: string, init: ErrorInit = {}) {
    super(message, init);
    this.deadline = init.deadline ?? 'headers';
  }
}
export class NetworkError extends VideoApiError {
  override readonly name = 'NetworkError';
  override readonly kind = 'network';
}
export class VideoFailedError extends VideoApiError {
  override readonly name = 'VideoFailedError';
  override readonly kind = 'video_failed';
}
export class VideoExpiredError extends VideoApiError {
  override readonly name = 'VideoExpiredError';
  override readonly kind = 'video_expired';
}
export class VideoNotReadyError extends VideoApiError {
  override readonly name = 'VideoNotReadyError';
  override readonly kind = 'not_ready';
}
export class UnexpectedResponseError extends VideoApiError {
  override readonly name = 'UnexpectedResponseError';
  override readonly kind = 'unexpected_response';
}
/** An answer's body passed the client's size limit (`limit`, bytes, decoded): it was not read further. */
export class ResponseTooLargeError extends VideoApiError {
  override readonly name = 'ResponseTooLargeError';
  override readonly kind = 'response_too_large';
}

/**
 * The download host refused the video or dropped the connection, after the URL was read fresh once.
 * It is not the API: its answers never go through the API's error rules (a 403 there is an expired
 * address, not a bad key).
 */
export class DownloadError extends VideoApiError {
  override readonly name = 'DownloadError';
  override readonly kind = 'download';
  /** The download host (no path, no query: the address is a temporary credential). */
  readonly host: string;
  /** The first bytes of the host's answer, as text (an object store's XML error, say). */
  readonly body?: string;
  constructor(message: string, init: ErrorInit & { host: string; body?: string }) {
    super(message, init);
    this.host = init.host;
    this.body = init.body;
  }
}

/**
 * A webhook delivery that is not proven to come from the relay holding the secret (verifyWebhook):
 * `error_code` says why (`WEBHOOK_HEADERS_MISSING`, `WEBHOOK_TIMESTAMP_OUT_OF_RANGE`,
 * `WEBHOOK_SIGNATURE_INVALID`, `WEBHOOK_PAYLOAD_INVALID`, `WEBHOOK_SECRET_INVALID`). Answer such a
 * request 400 and do nothing it asks.
 */
export class WebhookVerificationError extends VideoApiError {
  override readonly name = 'WebhookVerificationError';
  override readonly kind = 'webhook';
}

export const isVideoApiError = (e: unknown): e is VideoApiError => e instanceof VideoApiError;

/** The Retry-After of a response, as sent and in ms (uncapped: the caller decides what is too long). */
export function retryAfterOf(headers: Headers, now: number): { retryAfter?: string; retryAfterMs?: number } {
  const retryAfter = headers.get('retry-after') ?? undefined;
  if (retryAfter === undefined) return {};
  const ms = retryAfterMs(retryAfter, now);
  return { retryAfter, ...(ms !== undefined && Number.isFinite(ms) && { retryAfterMs: ms }) };
}
