import type { TimeoutDeadline } from '@videogen/client';
import { classifyError, MAX_RUNNING, Redactor, unreachable } from '@videogen/openapi/rules';
import { EXIT, type ExitCode } from './exit-codes.js';

/** An error the CLI raises itself: its message already says what to fix. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    readonly code: string = 'CLI_ERROR',
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export const usageError = (message: string) => new CliError(message, EXIT.INVALID_INPUT, 'INVALID_INPUT');

/** CLI flag of each generation form field, so that messages name what the user typed. */
export const FIELD_FLAGS: Record<string, string> = {
  text: '--text',
  pdf_file: '--pdf',
  pptx_file: '--pptx',
  audio_file: '--audio',
  video_file: '--video',
  image_files: '--image',
};

/** What the command knows when a call fails, to turn a field name back into the user's file. */
export interface ErrorContext {
  videoId?: string;
  /** form field → the files the user gave for it, with their sizes */
  files?: Record<string, { path: string; size: number }[]>;
  plan?: string;
  baseUrl?: string;
  /** How the user gave the base URL (`--base-url`, `VIDEO_API_BASE_URL`), for the fix. */
  urlSource?: string;
  timeoutSeconds?: number;
  /** The file a download is writing (for the line printed when a signal stops it). */
  downloading?: string;
}

export interface DescribedError {
  message: string;
  exitCode: ExitCode;
  code: string;
  status?: number;
}

const MB = 1_000_000;
export const formatMB = (bytes: number) => `${Number((bytes / MB).toFixed(bytes % MB === 0 ? 0 : 1))} MB`;

// Duck-typed rather than instanceof only: the client's classes are the contract, but a second copy
// of the client in node_modules would break instanceof.
interface ApiErrorLike {
  name: string;
  message: string;
  status?: number;
  error_code?: string;
  error?: string;
  kind?: string;
  field?: string;
  limit?: unknown;
  video?: { status?: string };
  host?: string;
  /** TimeoutError: which deadline passed (headers, body-idle, body-total, polling). */
  deadline?: string;
}

function isApiError(err: unknown): err is ApiErrorLike {
  return err instanceof Error && typeof (err as { kind?: unknown }).kind === 'string';
}

function fileHint(field: string | undefined, ctx: ErrorContext): string {
  if (!field) return '';
  const flag = FIELD_FLAGS[field] ?? field;
  const files = ctx.files?.[field];
  return files?.length ? `${flag} ${files.map((f) => f.path).join(', ')}` : flag;
}

/** Name the user's flag and file in a server message that only names the form field. */
function withFlags(text: string, ctx: ErrorContext): string {
  for (const field of Object.keys(FIELD_FLAGS)) {
    if (ctx.files?.[field]?.length && new RegExp(`\\b${field}\\b`).test(text)) {
      return `${fileHint(field, ctx)}: ${text}`;
    }
  }
  return text;
}

const upgradeHint = (ctx: ErrorContext) =>
  ctx.plan === 'business' ? '' : ' (if your account is on the Business plan, pass --plan business)';

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A client message without the client's option names (the command line has flags for them). */
/** The transport's deadlines (not the wait for a video): what did not come in time, the flag that sets it, the code. */
const TRANSPORT_DEADLINES: Record<Exclude<TimeoutDeadline, 'polling'>, { what: string; flag: string; code: string }> = {
  headers: { what: 'did not answer in time', flag: '--request-timeout', code: 'HEADERS_TIMEOUT' },
  'body-idle': { what: 'stopped sending its answer (the body stalled)', flag: '--body-timeout', code: 'BODY_TIMEOUT' },
  'body-total': { what: 'did not finish sending its answer in time', flag: '--body-deadline', code: 'BODY_TIMEOUT' },
};

const clientOptionsOut = (s: string) => s.replace(/ \((timeoutMs|bodyTimeoutMs|bodyDeadlineMs|maxBodyBytes)\)/g, '');

function describeApiError(err: ApiErrorLike, ctx: ErrorContext): DescribedError {
  const code = err.error_code ?? err.kind ?? err.name;
  const status = err.status;
  const detail = (err.error ?? err.message ?? '').trim();
  const tag = status ? `${status} ${code}` : code;
  const video = ctx.videoId ? `video ${ctx.videoId}` : 'the video';
  // An answer of the service is classified by the one shared rule (interface 7.1, x-retry-policy),
  // exactly as the client does; the client's local errors (no status) keep their own kind.
  const kind = status !== undefined ? classifyError(status, err.error_code).kind : (err.kind ?? '').toLowerCase();
  const is = (name: string, k: string) => err.name === name || kind === k;

  // The download host is not the API: its 403 is an expired or refused address, never the key.
  if (err.kind === 'download' && err.error_code === 'NOT_A_VIDEO') {
    // (The client's message names the host, what it answered and its first bytes; nothing was written.)
    return {
      message: `${detail.replace(/\.$/, '')}. Nothing was written: the download address does not serve the video; try "videogen download ${ctx.videoId ?? 'ID'} OUT" again later, and report it if it persists.`,
      exitCode: EXIT.ERROR,
      code: 'NOT_A_VIDEO',
      status,
    };
  }
  // A download larger than the ceiling, or one that stalled or missed its deadline (the client's
  // message says which and after how many bytes; no partial file is kept).
  if (err.kind === 'download' && err.error_code === 'TOO_LARGE') {
    return {
      message: `${clientOptionsOut(detail)
        .replace(/\(maxBytes\)/, '(--max-size)')
        .replace(/\.$/, '')}. If the video is really that large, raise --max-size (e.g. --max-size 8GB).`,
      exitCode: EXIT.ERROR,
      code: 'DOWNLOAD_TOO_LARGE',
      status,
    };
  }
  if (err.kind === 'download' && err.error_code === 'BODY_TIMEOUT') {
    const flag = /bodyDeadlineMs/.test(detail) ? '--body-deadline' : '--body-timeout';
    return {
      message: `${clientOptionsOut(detail).replace(/\.$/, '')} (after one fresh download address); no partial file was kept. Run "videogen download ${ctx.videoId ?? 'ID'} OUT" again later; on a slow link, raise ${flag} SECONDS.`,
      exitCode: EXIT.ERROR,
      code: 'DOWNLOAD_TIMEOUT',
      status,
    };
  }
  if (err.kind === 'download') {
    const answer = status ? `answered ${status}` : 'dropped the connection';
    return {
      message:
        `Download of ${video} failed: the download host ${err.host ?? ''} ${answer} (after one fresh download address): run "videogen download ${ctx.videoId ?? 'ID'} OUT" again later; if it keeps failing, the video may no longer be stored.`.replace(
          /  +/g,
          ' ',
        ),
      exitCode: EXIT.ERROR,
      code: 'DOWNLOAD_FAILED',
      status,
    };
  }
  if (kind === 'insufficient_credit') {
    const fix =
      status === 403
        ? 'use the key of an account whose plan includes conversion (Standard/Premium or higher)'
        : "top up the account's credit, or use the key of another account";
    return { message: `${detail.replace(/\.$/, '')} (${tag}): ${fix}.`, exitCode: EXIT.LIMIT, code, status };
  }
  if (kind === 'auth') {
    return {
      message: `Authentication failed (${tag}): set VIDEO_API_KEY to a valid API key for ${ctx.baseUrl ?? 'the service'}.`,
      exitCode: EXIT.AUTH,
      code,
      status,
    };
  }
  if (kind === 'not_found') {
    return {
      message: ctx.videoId
        ? `Video ${ctx.videoId} was not found (${tag}): check the id with "videogen list"; a video of another account is not visible.`
        : `${ctx.baseUrl ?? 'The service'} answered ${tag} where no id was given: check the base URL (with /v1) in VIDEO_API_BASE_URL or --base-url.`,
      exitCode: EXIT.NOT_FOUND,
      code,
      status,
    };
  }
  if (kind === 'concurrency') {
    return {
      message: `At most ${MAX_RUNNING} videos can be generated or converted at once per account (${tag}): wait for one to finish ("videogen wait ID") and retry.`,
      exitCode: EXIT.LIMIT,
      code,
      status,
    };
  }
  if (kind === 'rate_limit') {
    return {
      message: `Rate limit exceeded (${tag}): ${detail || 'wait a few seconds'} and retry.`,
      exitCode: EXIT.LIMIT,
      code,
      status,
    };
  }
  if (is('VideoFailedError', 'video_failed')) {
    return {
      message: `${capital(video)} failed: nothing to download; check the input (setting, text, files) and generate again.`,
      exitCode: EXIT.VIDEO_FAILED,
      code: 'VIDEO_FAILED',
    };
  }
  if (is('VideoExpiredError', 'video_expired')) {
    return {
      message: `${capital(video)} has expired: it can no longer be downloaded; generate it again.`,
      exitCode: EXIT.VIDEO_FAILED,
      code: 'VIDEO_EXPIRED',
    };
  }
  // The service, or something in between, did not send its answer in time (TRANSPORT_DEADLINES).
  if (kind === 'timeout' && err.deadline && err.deadline !== 'polling') {
    const { what, flag, code } =
      TRANSPORT_DEADLINES[err.deadline as keyof typeof TRANSPORT_DEADLINES] ?? TRANSPORT_DEADLINES['body-total'];
    return {
      message: `${ctx.baseUrl ?? 'The service'} ${what}: ${clientOptionsOut(detail)}. Try again later; if the network is slow, raise ${flag} SECONDS.`,
      exitCode: EXIT.ERROR,
      code,
    };
  }
  if (kind === 'response_too_large') {
    return {
      message: `${ctx.baseUrl ?? 'The service'} sent an answer larger than the client accepts, so it was not read: ${clientOptionsOut(detail)}. No answer of the service's API is that large: a proxy or gateway in between may be misbehaving.`,
      exitCode: EXIT.ERROR,
      code: 'RESPONSE_TOO_LARGE',
    };
  }
  if (is('TimeoutError', 'timeout')) {
    const secs = ctx.timeoutSeconds;
    return {
      message: `Timed out${secs ? ` after ${secs} s` : ''} waiting for ${video}: it is still running; wait longer with "videogen wait ${ctx.videoId ?? 'ID'} --timeout SECONDS".`,
      exitCode: EXIT.TIMEOUT,
      code: 'TIMEOUT',
    };
  }
  // VideoNotReadyError: download of a video that is not completed yet.
  if (is('VideoNotReadyError', 'not_ready') || err.video?.status === 'running') {
    const id = ctx.videoId ?? 'ID';
    return {
      message: `Video ${id} is still running, so there is nothing to download yet: pass --wait, or run "videogen wait ${id}" first.`,
      exitCode: EXIT.INVALID_INPUT,
      code: 'VIDEO_RUNNING',
    };
  }
  if (kind === 'validation') {
    // The service refused the setting itself (the CLI's own look-up passed, or was another account's).
    const perAccount =
      err.error_code === 'INVALID_VIDEO_SETTING'
        ? ': setting ids are per account: list yours with "videogen settings"'
        : '';
    return {
      message: `${describeValidation(err, ctx, tag, detail)}${perAccount}`,
      exitCode: EXIT.INVALID_INPUT,
      code,
      status,
    };
  }
  if (is('NetworkError', 'network')) {
    // The shared diagnosis of a base URL that does not answer (the contract suite's preflight says the same).
    // A time-out here is the connection's (undici's connect timeout, 10 s); the answer's own is a TimeoutError.
    const url = ctx.baseUrl && URL.canParse(ctx.baseUrl) ? new URL(ctx.baseUrl) : undefined;
    const why = url && unreachable(url, err, ctx.urlSource ?? 'VIDEO_API_BASE_URL or --base-url', 10_000);
    return {
      message: why
        ? `${capital(why)}.`
        : `Cannot reach ${ctx.baseUrl ?? 'the service'} (${detail}): check VIDEO_API_BASE_URL or --base-url and your network.`,
      exitCode: EXIT.ERROR,
      code: 'NETWORK_ERROR',
    };
  }
  if (kind === 'server' || kind === 'unavailable') {
    return {
      message: `The service failed (${tag}): ${detail || 'server error'}; try again later.`,
      exitCode: EXIT.ERROR,
      code,
      status,
    };
  }
  return { message: `${detail || err.name} (${tag})`, exitCode: EXIT.ERROR, code, status };
}

function describeValidation(err: ApiErrorLike, ctx: ErrorContext, tag: string, detail: string): string {
  const field = err.field;
  const files = field ? ctx.files?.[field] : undefined;
  const flag = field ? (FIELD_FLAGS[field] ?? field) : '';
  if (field && files?.length && typeof err.limit === 'number') {
    // The client's local check carries the limit in bytes (or the image count): name the user's
    // file, its size, and what the plan allows.
    const tooLarge = files.filter((f) => f.size > (err.limit as number));
    if (tooLarge.length) {
      const which = tooLarge.map((f) => `${f.path} is ${formatMB(f.size)}`).join(', ');
      return `${flag} ${which}: the ${ctx.plan ?? 'personal'} plan allows at most ${formatMB(err.limit)} per file for ${flag}${upgradeHint(ctx)}.`;
    }
    if (files.length > err.limit) return `${files.length} ${flag} files given: at most ${err.limit} are allowed.`;
  }
  // The client's local messages start with the field name; the flag and path replace it.
  if (field && files?.length) return `${fileHint(field, ctx)}: ${detail.replace(new RegExp(`^${field}:\\s*`), '')}`;
  const text = withFlags(detail, ctx);
  return `${text}${/FILE_UPLOAD_ERROR/.test(tag) && text !== detail ? upgradeHint(ctx) : ''} (${tag})`;
}

/** Any thrown value → one line that says what to fix, and the exit code. */
export function describeError(err: unknown, ctx: ErrorContext = {}): DescribedError {
  if (err instanceof CliError) return { message: err.message, exitCode: err.exitCode, code: err.code };
  if (isApiError(err)) return describeApiError(err, ctx);
  const fsCode = (err as NodeJS.ErrnoException)?.code;
  if (err instanceof Error && fsCode && ['ENOENT', 'EACCES', 'EISDIR', 'ENOTDIR', 'EROFS'].includes(fsCode)) {
    return {
      message: `${err.message}: check the path and its permissions.`,
      exitCode: EXIT.INVALID_INPUT,
      code: fsCode,
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { message, exitCode: EXIT.ERROR, code: 'ERROR' };
}

/** One line, with the API key (if any slipped into a message) redacted, and any bearer token whatever its source. */
export function sanitize(text: string, secret?: string): string {
  return new Redactor([secret], { bearerTokens: true }).text(text.replace(/\s*\n\s*/g, ' ').trim());
}
