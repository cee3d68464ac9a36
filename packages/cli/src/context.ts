import { type ClientOptions, createClient } from '@videogen/client';
import { PLANS, pathParameterProblem, redactUrl, type Plan, waitLine } from '@videogen/openapi/rules';
import { CliError, usageError, type ErrorContext } from './errors.js';
import { EXIT } from './exit-codes.js';
import { createOutput, type Output } from './output.js';
import { chooseMode, createProgress, type Progress } from './progress.js';

export type Client = ReturnType<typeof createClient>;
export type { Plan };

/** Options every command accepts (declared on the program, shown in each command's --help). */
export interface GlobalOptions {
  json?: boolean;
  quiet?: boolean;
  baseUrl?: string;
  plan?: string;
  /** Seconds (--request-timeout, --body-timeout, --body-deadline). */
  requestTimeout?: number;
  bodyTimeout?: number;
  bodyDeadline?: number;
  /** Bytes (--max-size). */
  maxSize?: number;
}

/**
 * One run of the CLI, made by cli.ts and given to every command: the global options as commander parsed
 * them (before the command's own options are read, so that an error in those is still printed as the
 * options ask), and what the running command has learned, for the error line cli.ts prints once the
 * command's own scope is gone.
 */
export interface Invocation {
  options: GlobalOptions;
  facts: ErrorContext;
}

export function createInvocation(): Invocation {
  return { options: {}, facts: {} };
}

/** What a command works with once it calls the service: the client, and where its results and progress go. */
export interface Context {
  client: Client;
  out: Output;
  progress: Progress;
  plan?: Plan;
  baseUrl?: string;
  /** The invocation's facts: what the command knows so far (the video, the files, a download's file). */
  facts: ErrorContext;
  /** --body-deadline, in ms: a download is bounded as a whole only when it is given. */
  bodyDeadlineMs?: number;
}

const capitalized = (line: string) => line.charAt(0).toUpperCase() + line.slice(1);

export function parsePlan(value: string | undefined): Plan | undefined {
  if (value === undefined || value === '') return undefined;
  const plan = value.toLowerCase() as Plan;
  if (!(PLANS as readonly string[]).includes(plan))
    throw usageError(`Unknown plan "${value}" (from --plan or VIDEO_API_PLAN): use one of ${PLANS.join(', ')}.`);
  return plan;
}

/**
 * The client's options from the global flags and the environment, the key excepted: a bad plan or base
 * URL is a usage error. Shared by every command's client (createContext) and `videogen mcp`'s.
 */
export function clientOptionsOf(invocation: Invocation, env: NodeJS.ProcessEnv = process.env): ClientOptions {
  const { options: opts, facts } = invocation;
  const plan = parsePlan(opts.plan ?? env.VIDEO_API_PLAN);
  const baseUrl = opts.baseUrl ?? (env.VIDEO_API_BASE_URL || undefined);
  if (baseUrl !== undefined) {
    try {
      new URL(baseUrl);
    } catch {
      throw usageError(
        `The base URL "${redactUrl(baseUrl)}" is not a URL: pass e.g. --base-url http://127.0.0.1:4010/v1 (or set VIDEO_API_BASE_URL).`,
      );
    }
  }
  // Messages name it redacted, as every printed URL is (a user, a password, a query value).
  Object.assign(facts, {
    plan,
    baseUrl: baseUrl === undefined ? 'the service' : redactUrl(baseUrl),
    urlSource: opts.baseUrl ? '--base-url' : 'VIDEO_API_BASE_URL',
  });
  const ms = (s: number | undefined) => (s === undefined ? undefined : Math.round(s * 1000));
  return {
    baseUrl,
    plan,
    timeoutMs: ms(opts.requestTimeout),
    bodyTimeoutMs: ms(opts.bodyTimeout),
    bodyDeadlineMs: ms(opts.bodyDeadline),
    maxDownloadBytes: opts.maxSize,
  };
}

/** The client for these options; the client's refusals of a base URL or pacing URL are usage errors. */
export function buildClient(options: ClientOptions): Client {
  try {
    return createClient(options);
  } catch (err) {
    // The client refuses plain HTTP except on loopback (or a host VIDEO_API_ALLOW_HTTP names): a fix in the command line.
    if (err instanceof TypeError)
      throw usageError(
        /PACING_URL/.test(err.message) ? err.message : `${err.message} (--base-url or VIDEO_API_BASE_URL).`,
      );
    throw err;
  }
}

export const NO_API_KEY =
  "VIDEO_API_KEY is not set: export VIDEO_API_KEY=<your API key> (create one in the service's key management menu).";

/** The client, output and progress for the invocation's options; throws the documented errors (no key, a bad URL). */
export async function createContext(invocation: Invocation, env: NodeJS.ProcessEnv = process.env): Promise<Context> {
  const { options: opts, facts } = invocation;
  const out = createOutput(Boolean(opts.json));
  const progress = await createProgress(chooseMode(opts, env));
  const options = clientOptionsOf(invocation, env);
  const apiKey = env.VIDEO_API_KEY;
  if (!apiKey) throw new CliError(NO_API_KEY, EXIT.AUTH, 'NO_API_KEY');
  const client = buildClient({
    ...options,
    apiKey,
    // Every wait of a second or more, said before it is slept, as a plain line of the progress (stderr;
    // none with --quiet): the account's limits, the server's Retry-After, a retry's backoff.
    onWait: (notice) => progress.info(capitalized(waitLine(notice))),
  });
  const bodyDeadlineMs = opts.bodyDeadline === undefined ? undefined : Math.round(opts.bodyDeadline * 1000);
  return {
    client,
    out,
    progress,
    plan: options.plan,
    baseUrl: options.baseUrl,
    facts,
    ...(bodyDeadlineMs !== undefined && { bodyDeadlineMs }),
  };
}

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
  tib: 2 ** 40,
};

/** A size from the command line: bytes, or with a unit (500MB, 4GB: decimal as everywhere in the toolkit; 2GiB: binary). */
export function parseSize(name: string) {
  return (value: string): number => {
    const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value);
    const unit = m ? SIZE_UNITS[(m[2] ?? '').toLowerCase()] : undefined;
    if (!m || unit === undefined || Number(m[1]) <= 0)
      throw usageError(`${name} must be a size such as 500MB, 4GB or 2GiB (or a number of bytes), not "${value}".`);
    return Math.floor(Number(m[1]) * unit);
  };
}

/** Seconds from the command line → milliseconds; decimals allowed (useful against a fast sandbox). */
export function parseSeconds(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0)
      throw usageError(`${name} must be a positive number of seconds, not "${value}".`);
    return n;
  };
}

/**
 * A video id from the command line, checked as the document types it (a UUID) before anything is sent:
 * `videogen status .` asked GET /videos/ and printed the list as a status.
 */
export function videoIdArgument(id: string): string {
  const problem = pathParameterProblem('video_id', id);
  if (problem) throw usageError(`${problem}: pass a video id as "videogen list" or "videogen generate" prints it.`);
  return id;
}
