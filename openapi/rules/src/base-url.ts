// One diagnosis of a base URL: is what answers there the API, and if not, what to fix. The contract
// suite's preflight asks it before any check; the CLI asks it when an answer looks like a wrong base URL
// (a 404 where no id was given, an answer that is not the API's). The probe is GET {base}/video-settings/
// (any key may read it, no credit, class B): the API answers its list, or its envelope {error_code,
// error} with a status other than 404. The commonest slip, the base without /v1, is named with the fix.
// Pure: the caller sends (fetch, node:http), so that the client's runtimes may bundle it.
import { BASE_PATH } from './generated/constants.js';
import { operationById } from './operations.js';
import { redactUrl } from './redact.js';

/** What the probe reads: the settings list (any key may read it; no credit, class B). */
export const PROBE_PATH = operationById('listVideoSettings').path;

/** An answer as the probe reads it (a fetch Response or a node:http answer, read whole). */
export interface ProbeAnswer {
  status: number;
  headers: { get(name: string): string | null };
  text: string;
}

/** Sends one GET; rejects when no answer arrives (the error's code, or its cause's, names why). */
export type ProbeSend = (url: string, headers: Record<string, string>, timeoutMs: number) => Promise<ProbeAnswer>;

/** An answer to the probe, read. */
export interface ProbeReading {
  answer: ProbeAnswer;
  contentType: string;
  /** The body read as JSON (undefined when it is not). */
  body: { results?: unknown; error_code?: unknown; error?: unknown } | undefined;
  /** The settings list (2.5: results). */
  list: boolean;
  /** The error envelope of 7.1. */
  envelope: boolean;
}

export function readProbe(answer: ProbeAnswer): ProbeReading {
  const contentType = answer.headers.get('content-type') ?? '';
  // Read as JSON whatever the content type says: a list served as text/html is the API with a bug, not
  // another server.
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.text);
  } catch {
    parsed = undefined;
  }
  const object = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed);
  const body = object ? (parsed as ProbeReading['body']) : undefined;
  return {
    answer,
    contentType,
    body,
    list: object && Array.isArray(body?.results),
    envelope: object && typeof body?.error_code === 'string' && typeof body?.error === 'string',
  };
}

/** An answer this API can give to the probe at that base: the list, or an envelope that is not a 404. */
export const isTheApi = (r: ProbeReading) =>
  (r.answer.status >= 200 && r.answer.status < 300 && r.list) || (r.envelope && r.answer.status !== 404);

/** The envelope's error_code of an answer, when it is the envelope. */
export const probeErrorCode = (r: ProbeReading) =>
  r.envelope && typeof r.body?.error_code === 'string' ? r.body.error_code : undefined;

/** What came back, for a message: `404 text/html (a web page)`, `200 application/json without the list`. */
export function describeProbe(r: ProbeReading): string {
  const type = r.contentType.split(';')[0]?.trim() || 'no content type';
  const what =
    r.answer.status >= 300 && r.answer.status < 400
      ? ` (a redirect to ${r.answer.headers.get('location') ?? 'nowhere'})`
      : r.envelope
        ? ` ${probeErrorCode(r)}`
        : /html/i.test(type) || /^\s*</.test(r.answer.text)
          ? ' (a web page)'
          : r.body !== undefined
            ? ' without the list or the error envelope {error_code, error}'
            : /json/i.test(type)
              ? ' that is not valid JSON'
              : '';
  return `${r.answer.status} ${type}${what}`;
}

/** How to set the URL, as the user sets it: `--target URL` / `--base-url URL` or `VIDEO_API_BASE_URL=URL`. */
export const settingOf = (source: string, url: string) =>
  source.startsWith('-') ? `${source} ${url}` : `${source}=${url}`;

/** A URL that ended with the probe's path (a redirect's target), without it: the base it points at. */
function baseOf(href: string): string {
  const probe = PROBE_PATH.replace(/\/$/, '');
  const trimmed = href.replace(/\/$/, '');
  return trimmed.endsWith(probe) ? trimmed.slice(0, -probe.length) : href;
}

export interface BaseUrlOptions {
  /** The base URL as given (a trailing slash is ignored). */
  base: string;
  /** How the user gave it, for the fix: `VIDEO_API_BASE_URL`, `--base-url`, `--target`. */
  urlSource: string;
  /** What the base answered to GET {base}{PROBE_PATH}. */
  first: ProbeReading;
  /**
   * Sends the probe without a key (the API answers its envelope all the same, 401, and no account's quota
   * is spent), to see whether {base}/v1 is the API; resolves undefined when no answer came.
   */
  probe: (url: string) => Promise<ProbeReading | undefined>;
  /** Retries the caller made of a 5xx before this (named in the message). */
  retries?: number;
}

/**
 * Why the base URL is not the API, in one line with the fix, or undefined when it is the API. A redirect
 * is named with where it leads; a base without /v1 whose /v1 is the API is named so ("is /v1 missing?").
 */
export async function baseUrlProblem(o: BaseUrlOptions): Promise<string | undefined> {
  const { first } = o;
  if (isTheApi(first)) return undefined;
  // Messages name URLs redacted, as every printed URL is (a user, a password, a query value).
  const plain = o.base.replace(/\/+$/, '');
  const url = plain + PROBE_PATH;
  const base = redactUrl(plain);
  const status = first.answer.status;
  if (status >= 300 && status < 400) {
    const location = first.answer.headers.get('location');
    const moved = location ? redactUrl(baseOf(new URL(location, url).href)) : undefined;
    return `${base} answered GET ${PROBE_PATH} with ${describeProbe(first)}: no redirect is followed${moved ? `: use ${settingOf(o.urlSource, moved)}` : `: check ${o.urlSource}`}`;
  }
  // The base without /v1 is the commonest slip: see whether adding it gives the API.
  if (!plain.endsWith(BASE_PATH)) {
    const withVersion = await o.probe(plain + BASE_PATH + PROBE_PATH).catch(() => undefined);
    if (withVersion && isTheApi(withVersion))
      return `${base} is not the API (GET ${PROBE_PATH} answered ${describeProbe(first)}): is ${BASE_PATH} missing? ${base}${BASE_PATH} answers as the API: use ${settingOf(o.urlSource, base + BASE_PATH)}`;
  }
  return status >= 500
    ? `${base} answered GET ${PROBE_PATH} with ${describeProbe(first)}${o.retries ? ` after ${o.retries} retries` : ''}, not the API's error envelope: the service behind it is down, or this is not the API: check ${o.urlSource}`
    : `${base} is not the API: GET ${PROBE_PATH} answered ${describeProbe(first)}, where the API answers its list or the envelope {error_code, error}: check ${o.urlSource}`;
}

/** An error as fetch and node:net throw them: a code, a name, a message, the error it wraps. */
type Thrown = { code?: unknown; name?: unknown; message?: unknown; cause?: unknown } | undefined;

/** The error and the ones it wraps (its cause, theirs), at most four. */
function causes(err: unknown): NonNullable<Thrown>[] {
  const out: NonNullable<Thrown>[] = [];
  for (let e = err as Thrown, depth = 0; e && depth < 4; e = e.cause as Thrown, depth++) out.push(e);
  return out;
}

function errorCode(err: unknown): string | undefined {
  for (const e of causes(err)) {
    if (typeof e.code === 'string') return e.code;
    if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'TIMEOUT';
  }
  return undefined;
}

function errorMessage(err: unknown): string {
  const parts: string[] = [];
  for (const e of causes(err)) if (e.message) parts.push(String(e.message));
  return parts.join(': ');
}

/**
 * The connection was closed without an answer: a kept-alive one the server closed as it was reused (its
 * idle time-out met the request), or a server that closes every connection (an HTTPS server on http://).
 */
export function closedWithoutAnswer(err: unknown): boolean {
  const code = errorCode(err);
  return (
    code === 'ECONNRESET' ||
    code === 'UND_ERR_SOCKET' ||
    code === 'EPIPE' ||
    /socket hang up|other side closed/i.test(errorMessage(err))
  );
}

/**
 * Why no answer came from the base URL, in words, and what to do: connection refused, DNS, TLS, a time-out,
 * a closed connection. `timeoutMs`: how long an answer was waited for (named on a time-out).
 */
export function unreachable(url: URL, err: unknown, urlSource: string, timeoutMs: number): string {
  const code = errorCode(err);
  const host = url.host;
  const target = redactUrl(url.href).replace(/\/+$/, '');
  if (/bad port/i.test(errorMessage(err)))
    return `cannot reach ${target}: port ${url.port} is one that fetch refuses to use (the Fetch standard's blocked ports): run the service on another port and fix ${urlSource}`;
  if (code === 'ECONNREFUSED')
    return `cannot reach ${target}: connection refused (nothing listens on ${host}): start the service or fix ${urlSource}`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME' || code === 'EAI_FAIL')
    return `cannot reach ${target}: DNS lookup of ${url.hostname} failed (${code}): check the host name in ${urlSource}`;
  if (
    code &&
    (/^ERR_TLS_|^ERR_SSL_|CERT|^EPROTO$|SELF_SIGNED|UNABLE_TO_(VERIFY|GET)/.test(code) ||
      /certificate|ssl|tls/i.test(errorMessage(err)))
  ) {
    const wrongScheme = /WRONG_VERSION_NUMBER|EPROTO|packet length too long/i.test(`${code} ${errorMessage(err)}`);
    return wrongScheme
      ? `cannot reach ${target}: TLS handshake failed (${code}: the server at ${host} does not speak TLS): use http:// in ${urlSource}`
      : `cannot reach ${target}: TLS handshake failed (${code}${/ALTNAME/.test(code) ? ': the certificate is for another host name' : /EXPIRED/.test(code) ? ': the certificate has expired' : /SELF_SIGNED|UNABLE_TO/.test(code) ? ': the certificate is not signed by a trusted authority' : ''}): fix the certificate, or trust its CA with NODE_EXTRA_CA_CERTS=FILE`;
  }
  if (
    code === 'TIMEOUT' ||
    code === 'ETIMEDOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'UND_ERR_HEADERS_TIMEOUT'
  )
    return `cannot reach ${target}: no answer within ${Math.round(timeoutMs / 1000)} s (${code}): check ${urlSource} and that the network reaches ${host}`;
  if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE' || code === 'UND_ERR_BODY_TIMEOUT')
    return `${target} answered, but ${errorMessage(err)} (${code}): it is not the API, or something in between breaks its answers; check ${urlSource}`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return `cannot reach ${target}: no route to ${host} (${code}): check ${urlSource} and the network`;
  if (closedWithoutAnswer(err))
    return `cannot reach ${target}: the connection was closed without an answer (${code ?? 'closed'}${url.protocol === 'http:' ? ': an HTTPS server on an http:// URL?' : ''}): check ${urlSource}`;
  return `cannot reach ${target}: ${errorMessage(err) || String(err)}${code ? ` (${code})` : ''}: check ${urlSource}`;
}
