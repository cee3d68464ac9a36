// Every failure of a tool, as the tool error a model can act on: the envelope's `error_code` (the
// service's, or the client's for a check made before sending), the service's words, and the fix in terms
// of this server's tools. An answer of the service is classified by the rules' one classifier (7.1), as
// the client and the CLI do. No stack ever leaves: an unexpected error is its message alone.
import { classifyError, MAX_RUNNING, redactUrl } from '@videogen/openapi/rules';
import { type ToolErrorBody, ToolProblem } from './answers.js';

/** What a tool knows when a call fails: the video it was about, where the service is. */
export interface FailureContext {
  videoId?: string;
  baseUrl?: string;
}

// Duck-typed rather than instanceof: a second copy of the client in node_modules would break instanceof.
interface ApiErrorLike {
  name: string;
  message: string;
  kind: string;
  status?: number;
  error_code?: string;
  error?: string;
  retryAfterMs?: number;
  notResent?: boolean;
  deadline?: string;
  field?: string;
  /** ValidationError: the limit broken (for the 7.2 codes checked before sending, the allowed values). */
  limit?: unknown;
  /** Present on an error the service (or something in between) answered; absent on the client's own checks. */
  headers?: unknown;
}

const isApiError = (err: unknown): err is ApiErrorLike =>
  err instanceof Error && typeof (err as { kind?: unknown }).kind === 'string';

/** What to do about each 7.2 code (and the codes this document chose for generation), in terms of the tools. */
const FIXES: Record<string, string> = {
  CONVERT_TARGET_REQUIRED: 'give language, aspect_ratio or both.',
  INVALID_LANGUAGE: 'give one of the language codes listed in convert_video\'s "language" input.',
  INVALID_ASPECT_RATIO: 'give one of the aspect ratios listed in convert_video\'s "aspect_ratio" input.',
  LANGUAGE_NOT_SUPPORTED_BY_VOICES:
    "the video's voices cannot speak that language: pick one of its available_languages (get_conversion_options).",
  CONVERT_NO_CHANGE:
    "ask for a language or an aspect ratio other than the video's current ones (get_conversion_options shows them).",
  SOURCE_VIDEO_NOT_CONVERTIBLE:
    'this video cannot be converted (no generated video data, or it failed or expired): generate a new video instead.',
  UNSUPPORTED_HEAVY_AVATAR: 'this video contains a real avatar and cannot be converted: generate a new video instead.',
  INVALID_VIDEO_SETTING:
    'pick a setting from list_video_settings whose request_fields are exactly the inputs you give (image_files optional).',
  FILE_UPLOAD_ERROR:
    'give a file of an accepted format within the size limit of the plan (generate_video lists them), or another input.',
  PAYLOAD_TOO_LARGE: 'give a smaller file (generate_video lists the size limits).',
  INVALID_REQUEST: 'correct the request as the message says.',
};

const secondsOf = (ms: number | undefined) => (ms === undefined ? undefined : Math.max(1, Math.ceil(ms / 1000)));

/** The tool error for anything a tool threw. */
export function describeFailure(err: unknown, ctx: FailureContext = {}): ToolErrorBody {
  if (err instanceof ToolProblem) return { error_code: err.error_code, error: err.message, fix: err.fix, ...err.extra };
  if (!isApiError(err)) {
    // Not ours and not the client's: its message only (no stack, no cause chain).
    const message = err instanceof Error ? err.message : String(err);
    return {
      error_code: 'INTERNAL_ERROR',
      error: message,
      fix: 'this is a fault of the MCP server, not of your request: try again, and report it if it persists.',
    };
  }
  const video = ctx.videoId ? `video ${ctx.videoId}` : 'the video';
  // A base URL may carry a user, a password or a gateway's token in its query: shown redacted, as every URL.
  const where = ctx.baseUrl ? redactUrl(ctx.baseUrl) : 'the service';
  // The client's own checks (no answer, so no headers) may carry the status the service would answer:
  // only an answer's status is shown as one. What they allow is shown with them.
  const answered = err.headers !== undefined;
  const allowed = Array.isArray(err.limit) ? err.limit.map(String) : undefined;
  const service = `${err.error ?? err.message}${allowed ? ` Allowed: ${allowed.join(', ')}.` : ''}`;
  const base = {
    error: service,
    ...(answered && err.status !== undefined && { status: err.status }),
    ...(allowed && { allowed }),
    ...(!answered && err.kind === 'validation' && { checked_before_sending: true }),
  };
  // An answer of the service: the shared classifier; a check of the client's own (no status): its kind.
  const kind = err.status !== undefined ? classifyError(err.status, err.error_code).kind : err.kind;
  const code = err.error_code ?? err.name;
  const retry = secondsOf(err.retryAfterMs);

  switch (kind) {
    case 'auth':
      return {
        ...base,
        error_code: err.error_code ?? 'UNAUTHORIZED',
        fix: `the API key was refused by ${where}: set VIDEO_API_KEY in this MCP server's configuration (the "env" of the host's server entry) to a valid key of the account, then restart the server.`,
      };
    case 'insufficient_credit':
      return {
        ...base,
        error_code: code,
        fix:
          err.status === 403
            ? "the account's plan does not include this (conversion needs Standard/Premium or higher): use the key of an account whose plan does."
            : "the account's credit is used up: top it up, or use the key of another account. Waiting does not help.",
      };
    case 'not_found':
      return {
        ...base,
        error_code: code,
        fix: `${video} is not one of this account's videos: check the id with list_videos (another account's videos are not visible).`,
      };
    case 'concurrency':
      return {
        ...base,
        error_code: code,
        ...(retry !== undefined && { retry_after_seconds: retry }),
        fix: `the account already runs ${MAX_RUNNING} videos: call wait_for_video on one of its running videos, then start again.`,
      };
    case 'rate_limit':
      return {
        ...base,
        error_code: code,
        ...(retry !== undefined && { retry_after_seconds: retry }),
        fix: `the service asks to wait${retry === undefined ? '' : ` ${retry} s`} before the next request of this kind: call again then.`,
      };
    case 'validation':
      return { ...base, error_code: code, fix: FIXES[code] ?? 'correct the input as the message says.' };
    case 'server':
    case 'unavailable':
      return {
        ...base,
        error_code: code,
        ...(retry !== undefined && { retry_after_seconds: retry }),
        fix: err.notResent
          ? 'the service failed after the request may have created the video, so it was not sent again: look at list_videos before starting it again.'
          : 'the service failed (after the retries the interface advises): try again in a minute.',
      };
    case 'timeout':
    case 'network':
      return {
        ...base,
        error_code: err.kind === 'timeout' ? 'TIMEOUT' : 'NETWORK_ERROR',
        fix: err.notResent
          ? 'no answer came after the request may have created the video, so it was not sent again: look at list_videos before starting it again.'
          : `${where} could not be reached or did not answer in time: check VIDEO_API_BASE_URL and the network, then try again.`,
      };
    case 'download':
      return {
        ...base,
        error_code: err.error_code ?? 'DOWNLOAD_FAILED',
        fix:
          err.error_code === 'TOO_LARGE'
            ? 'the video is larger than this server accepts to write.'
            : `the download host refused or did not deliver the video (after one fresh address): try download_video again later; read the download resource for a fresh address.`,
      };
    case 'not_ready':
      return {
        ...base,
        error_code: 'VIDEO_RUNNING',
        fix: `${video} is still running: call wait_for_video first.`,
      };
    case 'video_failed':
    case 'video_expired':
      return {
        ...base,
        error_code: kind === 'video_failed' ? 'VIDEO_FAILED' : 'VIDEO_EXPIRED',
        fix: `${video} cannot be downloaded: generate it again.`,
      };
    default:
      return {
        ...base,
        error_code: code,
        fix: `${where} answered something this server cannot use: try again, and report it if it persists.`,
      };
  }
}
