// The files of a generation, as a model names them: an absolute local path, or a URL. A URL is fetched
// here into a temporary file first (the client then uploads it from disk, so that a retry re-reads it):
// https anywhere, plain http on loopback or to a host VIDEO_API_ALLOW_HTTP names (the client's own rule,
// insecureUrlProblem, and its opt-in), redirects followed by hand so that each hop is held to that rule
// (fetch's own following would reach an http host a redirect names before we could refuse it), the body
// held to the field's size limit for the plan (UPLOAD_LIMITS) and to the toolkit's stall window
// (BODY_LIMITS) by the rules' limitBody. A URL is printed redacted (redactUrl) or as its origin and path.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { basename, extname, isAbsolute, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { fileURLToPath } from 'node:url';
import {
  BODY_LIMITS,
  BodyTimeoutError,
  declaredTooLarge,
  insecureUrlProblem,
  limitBody,
  PLAN_LIMITS_AS,
  type Plan,
  redactUrl,
  ResponseTooLargeError,
  UPLOAD_LIMITS,
} from '@videogen/openapi/rules';
import { ToolProblem } from './answers.js';

export type FileField = keyof typeof UPLOAD_LIMITS;

/** Redirects followed for a file URL before giving up (browsers and curl follow about 20; a file host needs few). */
const MAX_REDIRECTS = 5;

/** The plan whose upload limits a plan uses (Free: Personal's, x-upload-limits.plans). */
function limitsPlan(plan: Plan): 'personal' | 'business' {
  return plan in PLAN_LIMITS_AS
    ? PLAN_LIMITS_AS[plan as keyof typeof PLAN_LIMITS_AS]
    : (plan as 'personal' | 'business');
}

/** A field's accepted extensions and size for the plan, from the document. */
export function fieldLimits(field: FileField, plan: Plan): { extensions: readonly string[]; maxBytes: number } {
  const limits = UPLOAD_LIMITS[field];
  const p = limitsPlan(plan);
  return { extensions: limits.extensions[p], maxBytes: limits.maxBytes[p] };
}

const isUrl = (value: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(value);

/** Files fetched for one call, removed when the call is over. */
export class FileInputs {
  #dirs: string[] = [];

  constructor(
    private readonly plan: Plan,
    private readonly options: {
      localFiles: boolean;
      /** The hosts plain http may reach besides loopback (allowedHttpHosts of VIDEO_API_ALLOW_HTTP). */
      allowHttpHosts?: readonly string[];
      signal?: AbortSignal;
    },
  ) {}

  /** A local path the client can upload from, for a tool's file argument. */
  async resolve(field: FileField, value: string): Promise<string> {
    if (isUrl(value) && !/^file:/i.test(value)) return this.#fetch(field, value);
    return this.#local(field, /^file:/i.test(value) ? fileURLToPath(value) : value);
  }

  async close(): Promise<void> {
    const dirs = this.#dirs;
    this.#dirs = [];
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  }

  async #local(field: FileField, value: string): Promise<string> {
    if (!this.options.localFiles)
      throw new ToolProblem(
        'LOCAL_FILES_REFUSED',
        `${field}: this server does not read local files (it was started with local files off).`,
        'give the file as an https URL instead.',
      );
    const path = value.startsWith('~/') ? join(homedir(), value.slice(2)) : value;
    if (!isAbsolute(path))
      throw new ToolProblem(
        'INVALID_FILE',
        `${field}: "${value}" is a relative path, and this server's working directory is not yours.`,
        'give the absolute path of the file (or ~/...), or an https URL.',
      );
    const info = await stat(path).catch(() => undefined);
    if (!info) throw new ToolProblem('INVALID_FILE', `${field}: ${path}: no such file.`, 'check the path.');
    if (!info.isFile())
      throw new ToolProblem('INVALID_FILE', `${field}: ${path} is not a regular file.`, 'give the path of a file.');
    return path;
  }

  async #fetch(field: FileField, value: string): Promise<string> {
    const { extensions, maxBytes } = fieldLimits(field, this.plan);
    let url = this.#checkedUrl(field, value);
    let res: Response | undefined;
    for (let hop = 0; ; hop++) {
      try {
        res = await fetch(url, { redirect: 'manual', signal: this.options.signal });
      } catch (err) {
        this.options.signal?.throwIfAborted();
        throw new ToolProblem(
          'FILE_URL_UNREACHABLE',
          `${field}: ${url.origin} could not be reached (${(err as Error).cause ?? (err as Error).message}).`,
          'check the URL, or give a local path.',
        );
      }
      const location = res.headers.get('location');
      if (res.status < 300 || res.status > 399 || !location) break;
      await res.body?.cancel();
      if (hop >= MAX_REDIRECTS)
        throw new ToolProblem(
          'FILE_URL_REFUSED',
          `${field}: ${redactUrl(value)} redirects more than ${MAX_REDIRECTS} times.`,
          'give the final URL of the file.',
        );
      url = this.#checkedUrl(field, location, url);
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      throw new ToolProblem(
        'FILE_URL_REFUSED',
        `${field}: ${url.origin}${url.pathname} answered ${res.status}.`,
        'check the URL (it must serve the file itself), or give a local path.',
      );
    }
    const name = fileName(field, url, res.headers.get('content-type'), extensions);
    const tooLarge = declaredTooLarge(res.headers, maxBytes);
    if (tooLarge) {
      await res.body.cancel();
      throw sizeProblem(field, maxBytes, this.plan);
    }
    const dir = await mkdtemp(join(tmpdir(), 'videogen-mcp-'));
    this.#dirs.push(dir);
    const path = join(dir, name);
    const body = limitBody(res.body, { idleMs: BODY_LIMITS.idleMs, maxBytes, signal: this.options.signal });
    try {
      await pipeline(Readable.fromWeb(body as WebReadableStream<Uint8Array>), createWriteStream(path));
    } catch (err) {
      this.options.signal?.throwIfAborted();
      if (err instanceof ResponseTooLargeError) throw sizeProblem(field, maxBytes, this.plan);
      if (err instanceof BodyTimeoutError)
        throw new ToolProblem(
          'FILE_URL_STALLED',
          `${field}: ${url.origin} stopped sending the file: ${err.message}.`,
          'try again later, or give a local path.',
        );
      throw err;
    }
    return path;
  }

  /** `value` as a URL the rule lets us fetch; `from`: the URL whose redirect named it (Location, maybe relative). */
  #checkedUrl(field: FileField, value: string, from?: URL): URL {
    const where = from ? `${redactUrl(from.href)} redirects to` : '';
    let url: URL;
    try {
      url = new URL(value, from);
    } catch {
      if (from)
        throw new ToolProblem(
          'FILE_URL_REFUSED',
          `${field}: ${where} "${redactUrl(value)}", which is not a URL.`,
          'give the final URL of the file.',
        );
      throw new ToolProblem(
        'INVALID_FILE',
        `${field}: "${redactUrl(value)}" is not a URL.`,
        'give an https URL or an absolute path.',
      );
    }
    const problem = insecureUrlProblem(url, this.options.allowHttpHosts);
    if (problem)
      throw new ToolProblem(
        'FILE_URL_REFUSED',
        from
          ? `${field}: ${where} ${url.protocol}//${url.host}, refused: ${problem}.`
          : `${field}: refusing ${url.protocol}//${url.host}: ${problem}.`,
        'give an https URL.',
      );
    return url;
  }
}

/**
 * The name the file is uploaded under (its extension is checked against the field's formats): the URL's
 * last path segment; a document served without one gets its field's extension when its Content-Type is
 * the one the document names for the field (x-upload-limits: PDF and PPTX).
 */
function fileName(field: FileField, url: URL, contentType: string | null, extensions: readonly string[]): string {
  let name = basename(decodeURIComponent(url.pathname)).replace(/[^\w.\-[\]=,:]+/g, '_');
  const ext = extname(name).toLowerCase();
  if (extensions.includes(ext)) return name;
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type && type === UPLOAD_LIMITS[field].contentType && type !== 'application/octet-stream') {
    name = `${name || field}${extensions[0]}`;
    return name;
  }
  throw new ToolProblem(
    'FILE_UPLOAD_ERROR',
    `${field}: the file at ${url.origin}${url.pathname} is not named with one of ${extensions.join(', ')}, so its format cannot be told.`,
    'give a URL whose path ends with the file name, or download it and give the local path.',
  );
}

function sizeProblem(field: FileField, maxBytes: number, plan: Plan): ToolProblem {
  return new ToolProblem(
    'FILE_UPLOAD_ERROR',
    `${field}: the file is larger than ${maxBytes / 1_000_000} MB, the limit of the ${plan} plan for it.`,
    'give a smaller file.',
  );
}
