/**
 * Exit codes of `videogen`. Distinct per cause so that scripts can branch without parsing text.
 * Documented in `videogen --help` (EXIT_CODES_HELP) and in the README; keep the three in sync.
 */
export const EXIT = {
  OK: 0,
  /** Anything not listed below: server error (5xx after retries), network failure, a download the download host refused, a bug. */
  ERROR: 1,
  /** Invalid input: bad arguments, a file too large or of the wrong type, a language or setting that does not fit. */
  INVALID_INPUT: 2,
  /** The API key is missing or rejected (401/403). */
  AUTH: 3,
  /** The video (or setting) does not exist or is not yours (404). */
  NOT_FOUND: 4,
  /** Rate limit, concurrency limit or insufficient credit / plan (RateLimitError, ConcurrencyLimitError, InsufficientCreditError: 429, 503, 403 INSUFFICIENT_CREDIT). */
  LIMIT: 5,
  /** The video ended `failed` or `expired`: there is nothing to download. */
  VIDEO_FAILED: 6,
  /** Waiting for the video took longer than --timeout. */
  TIMEOUT: 7,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODES_HELP = `
Exit codes:
  0  success
  1  other error (server error after retries, network failure, download refused by the download host
     or not a video)
  2  invalid input (arguments, file size or type for the plan, language, setting)
  3  authentication failed (VIDEO_API_KEY missing or rejected)
  4  not found (unknown video id, or another account's video)
  5  rate limit, concurrency limit, or insufficient credit / plan
  6  the video failed or expired
  7  timed out while waiting (--timeout)
  130, 143, 129  stopped by SIGINT (Ctrl-C), SIGTERM, SIGHUP (a download removes its partial file first)
`;
