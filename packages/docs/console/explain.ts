// An answer explained in words: what its status and error code mean (the document's own description of
// each code, x-enumDescriptions) and what to do next (the shared classifier of @videogen/openapi/rules,
// the one the client and the CLI use), and what the rate-limit headers say.
import {
  classifyError,
  MAX_RUNNING,
  parseRateLimitHeaders,
  parseRetryAfter,
  RETRY_POLICY,
  type ErrorKind,
} from '@videogen/openapi/rules';

const [loadMin, loadMax] = RETRY_POLICY.serviceUnavailableDelayMs.map((ms) => ms / 1000);

/** What to do, per kind of error (the kinds of classifyError). */
const NEXT: Record<ErrorKind, string> = {
  auth: 'Check the API key: it is missing, unknown, or may not use this operation.',
  not_found: 'The id is unknown, or belongs to another account: list your videos to pick one of yours.',
  rate_limit: 'Too many requests of this rate-limit class: wait as Retry-After says, then send again.',
  insufficient_credit:
    'No retry helps: a 429 means the credit balance is used up, a 403 that the plan does not include this (the Free plan cannot convert).',
  concurrency: `${MAX_RUNNING} videos are already being made for this account: wait until one is completed, then send again.`,
  unavailable: `The service is under load: wait ${loadMin} to ${loadMax} s, then send again.`,
  validation: 'Fix the request as the message says; sending it again unchanged gets the same answer.',
  server: `A server error: a client retries it up to ${RETRY_POLICY.maxRetries} times, with exponential backoff.`,
  api: 'Read the message: this answer is not one the document describes.',
};

/** What to do after a conversion refused with a code of interface 7.2 (the flow page's words). */
export const CONVERSION_ADVICE: Record<string, string> = {
  CONVERT_TARGET_REQUIRED: 'Choose a language, an aspect ratio, or both.',
  INVALID_LANGUAGE: 'Choose one of the supported language codes.',
  INVALID_ASPECT_RATIO: 'Choose one of the supported aspect ratios.',
  LANGUAGE_NOT_SUPPORTED_BY_VOICES:
    "A speaker of this video cannot speak that language: choose one of the video's available_languages.",
  CONVERT_NO_CHANGE: 'The video already has that language and aspect ratio: choose a different one.',
  SOURCE_VIDEO_NOT_CONVERTIBLE:
    'This video has no generated video data (or is not completed): only a completed, convertible video can be converted.',
  UNSUPPORTED_HEAVY_AVATAR: 'Videos with a real avatar cannot be converted.',
  NOT_FOUND: 'The source video does not exist or belongs to another account.',
  INSUFFICIENT_CREDIT: 'With 429 the credit balance is used up; with 403 the plan (Free) does not include conversions.',
  SIMULTANEOUS_GENERATE_LIMIT:
    'Conversions count toward the limit of videos made at once: wait for a running one to finish.',
  UNKNOWN_ERROR: 'An internal error of the service: try again later.',
};

export interface Explanation {
  /** One sentence about the answer as a whole. */
  summary: string;
  /** What to do next, for an error. */
  next?: string;
  /** The rate-limit headers in words, when the answer has them. */
  rateLimit?: string;
  retryAfter?: string;
}

type HeaderList = [string, string][];

const header = (headers: HeaderList, name: string) =>
  headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

export function explainAnswer(
  status: number,
  body: unknown,
  headers: HeaderList,
  descriptions: Record<string, string>,
): Explanation {
  // Any operation's answer: the fields this reads, each still to check.
  const b =
    body && typeof body === 'object'
      ? (body as { error_code?: unknown; video_id?: unknown; status?: unknown })
      : undefined;
  const code = typeof b?.error_code === 'string' ? b.error_code : undefined;
  const out: Explanation = { summary: '' };
  if (status >= 200 && status < 300) {
    const id = b?.video_id;
    out.summary =
      typeof id === 'string' && !b?.status
        ? `Accepted: the new video ${id} is running. Poll "Get a video's status" with this id until it is completed.`
        : 'Success.';
  } else {
    const described = code ? descriptions[code] : undefined;
    out.summary = code
      ? `${code}: ${described ?? 'a code this document does not list (clients accept any code).'}`
      : `HTTP ${status} without the error envelope.`;
    out.next = NEXT[classifyError(status, code).kind];
  }
  const info = parseRateLimitHeaders(Object.fromEntries(headers));
  if (info.limit !== undefined || info.remaining !== undefined) {
    const policy = info.policies[0];
    const parts = [
      policy ? `this rate-limit class allows ${policy.limit} request(s) per ${seconds(policy.windowMs)}` : undefined,
      info.remaining !== undefined ? `${info.remaining} left now` : undefined,
      info.resetMs !== undefined ? `one more is allowed in ${seconds(info.resetMs)}` : undefined,
    ].filter(Boolean);
    out.rateLimit = `RateLimit-*: ${parts.join('; ')} (per account, not per key).`;
  }
  const retryAfter = header(headers, 'retry-after');
  if (retryAfter !== undefined) {
    const ms = parseRetryAfter(retryAfter);
    out.retryAfter = `Retry-After: wait ${ms === undefined ? retryAfter : seconds(ms)} before sending again.`;
  }
  return out;
}
