// The preflight: before any check (and before the pacing proxy listens), one request per key to the
// settings list tells an operator's mistake from the service's behaviour, so that a lost secret, a
// typo in the URL or a wrong key stops the run in seconds with the cause and the fix in one line
// (exit 2) instead of turning into failures, skips or drift advice. It also reads the target's pace
// (RateLimit-Policy), so that a run and --plan against a time-scaled sandbox know its time scale.
// Imports only Node and the rules, so that the pacing proxy (src/proxy/) can use it as it is.
import {
  BASE_PATH,
  BODY_LIMITS,
  classifyError,
  operationById,
  parseRateLimitHeaders,
  readBody,
  RETRY_POLICY,
  redactUrl,
  timeScaleOf as timeScaleOfPolicy,
} from '@videogen/openapi/rules';

/** An answer as the preflight reads it (a fetch Response or a node:http answer, read whole). */
export interface ProbeAnswer {
  status: number;
  headers: { get(name: string): string | null };
  text: string;
}

/** Sends one GET; rejects when no answer arrives (the error's code, or its cause's, names why). */
export type ProbeSend = (url: string, headers: Record<string, string>, timeoutMs: number) => Promise<ProbeAnswer>;

export interface PreflightKey {
  /** Where the key came from, as the user set it: `VIDEO_API_KEY`. */
  variable: string;
  key: string;
  /** The account whose limits it spends (the pacer's name for it). */
  account: string;
}

export interface PreflightOptions {
  baseUrl: string;
  /** How the user gave the URL, for the fix: `VIDEO_API_BASE_URL`, `--base-url`, `--target`. */
  urlSource: string;
  /** The keys to try, the main one first; none: a keyless run (the answer must still be the API's). */
  keys: PreflightKey[];
  send: ProbeSend;
  /** Holds a keyed request to its account's pace; the returned function is told the answer. */
  pace?: (account: string) => Promise<(answer?: ProbeAnswer) => void>;
  /** Wait for one answer (default 10 s): a host that drops packets is named within seconds. */
  timeoutMs?: number;
  /** Sleeps between the retries of a 5xx (tests shorten it). */
  sleep?: (ms: number) => Promise<void>;
}

export interface PreflightOk {
  ok: true;
  /** What was found, one line each (printed on stderr before the run). */
  notes: string[];
  /** The target's time scale read from RateLimit-Policy (a sandbox started with --time-scale), when it states one. */
  timeScale?: number;
  /** The RateLimit-Policy it was read from. */
  policy?: string;
  /** Requests the preflight sent. */
  requests: number;
}

export interface PreflightFailure {
  ok: false;
  /** What kind of mistake (for tests and tools): */
  kind: 'no-key' | 'unreachable' | 'not-the-api' | 'key-rejected' | 'same-key';
  /** The cause and the fix, in one line. */
  message: string;
  requests: number;
}

export type PreflightResult = PreflightOk | PreflightFailure;

/** What the preflight reads: the settings list (any key may read it; no credit, class B), the document's path. */
const PROBE_PATH = operationById('listVideoSettings').path;

/** A URL that ended with the probe's path (a redirect's target), without it: the base it points at. */
function baseOf(href: string): string {
  const probe = PROBE_PATH.replace(/\/$/, '');
  const trimmed = href.replace(/\/$/, '');
  return trimmed.endsWith(probe) ? trimmed.slice(0, -probe.length) : href;
}
const DEFAULT_TIMEOUT_MS = 10_000;
/** First wait before retrying a 5xx (7.1: exponential backoff), doubled each time; real time (the scale is not known yet). */
const BACKOFF_MS = 500;

/** The code that names why a request got no answer: on the error, or on its cause (fetch wraps it). */
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

/** Why no answer came, in words, and what to do: connection refused, DNS, TLS, time-out, a closed connection. */
export function unreachable(url: URL, err: unknown, urlSource: string, timeoutMs: number): string {
  const code = errorCode(err);
  const host = url.host;
  const target = redactUrl(url.href.replace(/\/+$/, ''));
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
  if (
    code === 'ECONNRESET' ||
    code === 'UND_ERR_SOCKET' ||
    code === 'EPIPE' ||
    /socket hang up|other side closed/i.test(errorMessage(err))
  )
    return `cannot reach ${target}: the connection was closed without an answer (${code ?? 'closed'}${url.protocol === 'http:' ? ': an HTTPS server on an http:// URL?' : ''}): check ${urlSource}`;
  return `cannot reach ${target}: ${errorMessage(err) || String(err)}${code ? ` (${code})` : ''}: check ${urlSource}`;
}

interface Reading {
  answer: ProbeAnswer;
  contentType: string;
  /** The body read as JSON (undefined when it is not); an envelope's error_code when `envelope`. */
  body: { results?: unknown; error_code?: unknown; error?: unknown } | undefined;
  /** The settings list (2.5: results, page). */
  list: boolean;
  /** The error envelope of 7.1. */
  envelope: boolean;
}

function read(answer: ProbeAnswer): Reading {
  const contentType = answer.headers.get('content-type') ?? '';
  // Read as JSON whatever the content type says: a list served as text/html is the API with a bug
  // (content_type_conformance judges it), not another server.
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.text);
  } catch {
    parsed = undefined;
  }
  const object = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed);
  const body = parsed as Reading['body'];
  return {
    answer,
    contentType,
    body,
    list: object && Array.isArray(body?.results),
    envelope: object && typeof body?.error_code === 'string' && typeof body?.error === 'string',
  };
}

/** An answer this API can give to GET /video-settings/ at that base: the list, or an envelope that is not a 404. */
const isTheApi = (r: Reading) =>
  (r.answer.status >= 200 && r.answer.status < 300 && r.list) || (r.envelope && r.answer.status !== 404);

/** The envelope's error_code of an answer, when it is the envelope. */
const codeOf = (r: Reading) => (r.envelope && typeof r.body?.error_code === 'string' ? r.body.error_code : undefined);

/** What came back, for a message: `404 text/html`, `200 application/json without the list`. */
function shown(r: Reading): string {
  const type = r.contentType.split(';')[0].trim() || 'no content type';
  const what =
    r.answer.status >= 300 && r.answer.status < 400
      ? ` (a redirect to ${r.answer.headers.get('location') ?? 'nowhere'})`
      : r.envelope
        ? ` ${codeOf(r)}`
        : /html/i.test(type) || /^\s*</.test(r.answer.text)
          ? ' (a web page)'
          : r.body !== undefined
            ? ' without the list or the error envelope {error_code, error}'
            : /json/i.test(type)
              ? ' that is not valid JSON'
              : '';
  return `${r.answer.status} ${type}${what}`;
}

/** The time scale a RateLimit-Policy header states (the rules' timeScaleOf: a sandbox's --time-scale). */
export function timeScaleOf(policyHeader: string | null): number | undefined {
  if (!policyHeader) return undefined;
  return timeScaleOfPolicy(parseRateLimitHeaders({ 'ratelimit-policy': policyHeader }).policies[0]);
}

/** How to set the URL, as the user sets it: `--target URL` or `VIDEO_API_BASE_URL=URL`. */
const setUrl = (source: string, url: string) => (source.startsWith('-') ? `${source} ${url}` : `${source}=${url}`);

const reason = (r: Reading) => `${r.answer.status}${r.envelope ? ` ${codeOf(r)}` : ''}`;

export async function preflight(o: PreflightOptions): Promise<PreflightResult> {
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const base = o.baseUrl.replace(/\/+$/, '');
  // How messages name it: redacted as every printed URL is (a user, a password, a query value).
  const printed = redactUrl(base);
  let requests = 0;
  // Two variables holding one key: isolation or plan checks would judge one account as two.
  for (const [i, a] of o.keys.entries())
    for (const b of o.keys.slice(i + 1))
      if (a.key === b.key)
        return {
          ok: false,
          kind: 'same-key',
          message: `${b.variable} holds the same key as ${a.variable}: it must be a key of another account`,
          requests,
        };

  /** One GET with the key (or none), a 5xx retried as 7.1 says; a network error thrown. */
  const get = async (url: string, key?: PreflightKey): Promise<Reading> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (key) headers.authorization = `Bearer ${key.key}`;
    for (let attempt = 1; ; attempt++) {
      const settle = key && o.pace ? await o.pace(key.account) : undefined;
      requests++;
      let answer: ProbeAnswer;
      try {
        answer = await o.send(url, headers, timeoutMs);
      } catch (err) {
        settle?.();
        throw err;
      }
      settle?.(answer);
      const r = read(answer);
      const c = classifyError(answer.status, codeOf(r));
      if (c.wait === 'backoff' && attempt <= RETRY_POLICY.maxRetries) {
        await sleep(BACKOFF_MS * 2 ** (attempt - 1));
        continue;
      }
      return r;
    }
  };

  const url = new URL(base + PROBE_PATH);
  const [main, ...others] = o.keys;
  const cannotReach = (err: unknown): PreflightFailure => ({
    ok: false,
    kind: 'unreachable',
    message: unreachable(new URL(base), err, o.urlSource, timeoutMs),
    requests,
  });
  let first: Reading;
  try {
    first = await get(url.href, main);
  } catch (err) {
    return cannotReach(err);
  }
  const notes: string[] = [];
  if (!isTheApi(first)) {
    const status = first.answer.status;
    // A 5xx that is not the envelope: a gateway whose service is down, or not the API at all.
    if (status >= 300 && status < 400) {
      const location = first.answer.headers.get('location');
      const moved = location ? baseOf(new URL(location, url).href) : undefined;
      return {
        ok: false,
        kind: 'not-the-api',
        message: `${printed} answered GET ${PROBE_PATH} with ${shown(first)}: the suite follows no redirect${moved ? `: use ${setUrl(o.urlSource, redactUrl(moved))}` : `: check ${o.urlSource}`}`,
        requests,
      };
    }
    // The base without /v1 is the commonest slip: see whether adding it gives the API.
    if (!base.endsWith(BASE_PATH)) {
      let withV1: Reading | undefined;
      try {
        // Without a key: the API answers its envelope all the same (401), and no account's quota is spent.
        withV1 = await get(base + BASE_PATH + PROBE_PATH);
      } catch {
        withV1 = undefined;
      }
      if (withV1 && isTheApi(withV1))
        return {
          ok: false,
          kind: 'not-the-api',
          message: `${printed} is not the API (GET ${PROBE_PATH} answered ${shown(first)}): is ${BASE_PATH} missing? ${printed}${BASE_PATH} answers as the API: use ${setUrl(o.urlSource, printed + BASE_PATH)}`,
          requests,
        };
    }
    return {
      ok: false,
      kind: 'not-the-api',
      message:
        status >= 500
          ? `${printed} answered GET ${PROBE_PATH} with ${shown(first)} after ${RETRY_POLICY.maxRetries} retries, not the API's error envelope: the service behind it is down, or this is not the API: check ${o.urlSource}`
          : `${printed} is not the API: GET ${PROBE_PATH} answered ${shown(first)}, where the API answers its list or the envelope {error_code, error}: check ${o.urlSource}`,
      requests,
    };
  }
  const status = first.answer.status;
  if (main && (status === 401 || status === 403))
    return {
      ok: false,
      kind: 'key-rejected',
      message: `the key was rejected (${reason(first)}): check ${main.variable}`,
      requests,
    };
  if (status >= 500)
    notes.push(
      `${printed} answered GET ${PROBE_PATH} with ${shown(first)} after ${RETRY_POLICY.maxRetries} retries: the checks judge what it answers`,
    );
  else if (!main)
    notes.push(
      status === 401 || status === 403
        ? `${printed} answers as the API (GET ${PROBE_PATH} without a key → ${reason(first)})`
        : `${printed} answers GET ${PROBE_PATH} without a key (${status}): a service that checks keys answers 401 or 403`,
    );
  else
    notes.push(
      `${printed} answers as the API; ${main.variable} accepted (GET ${PROBE_PATH} → ${status}${status === 429 || status === 503 ? ', so the key is not confirmed yet' : ''})`,
    );
  for (const k of others) {
    let r: Reading;
    try {
      r = await get(url.href, k);
    } catch (err) {
      return cannotReach(err);
    }
    if (r.answer.status === 401 || r.answer.status === 403)
      return {
        ok: false,
        kind: 'key-rejected',
        message: `the key in ${k.variable} was rejected (${reason(r)}): check ${k.variable}`,
        requests,
      };
    notes.push(`${k.variable} accepted (GET ${PROBE_PATH} → ${r.answer.status})`);
  }
  const policy = first.answer.headers.get('ratelimit-policy') ?? undefined;
  const timeScale = status >= 200 && status < 300 ? timeScaleOf(policy ?? null) : undefined;
  if (timeScale) notes.push(`its limits run ${timeScale}× faster than real time (RateLimit-Policy ${policy})`);
  return { ok: true, notes, timeScale, ...(timeScale && { policy }), requests };
}

/** The preflight's sender over fetch (the suite's own transport): redirects are answers, never followed. */
export const fetchProbe: ProbeSend = async (url, headers, timeoutMs) => {
  const res = await fetch(url, { headers, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  // At most the rules' limit of an answer, decoded (a gzip bomb is stopped there, issue 28).
  const bytes = await readBody(res, { maxBytes: BODY_LIMITS.maxBytes });
  return { status: res.status, headers: res.headers, text: new TextDecoder().decode(bytes) };
};
