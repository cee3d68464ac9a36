// The preflight: before any check (and before the pacing proxy listens), one request per key to the
// settings list tells an operator's mistake from the service's behaviour, so that a lost secret, a
// typo in the URL or a wrong key stops the run in seconds with the cause and the fix in one line
// (exit 2) instead of turning into failures, skips or drift advice. It also reads the target's pace
// (RateLimit-Policy), so that a run and --plan against a time-scaled sandbox know its time scale.
// Imports only Node and the rules, so that the pacing proxy (src/proxy/) can use it as it is.
import {
  BODY_LIMITS,
  baseUrlProblem,
  classifyError,
  closedWithoutAnswer,
  describeProbe,
  PROBE_PATH,
  type ProbeAnswer,
  probeErrorCode,
  type ProbeReading,
  type ProbeSend,
  readBody,
  readProbe,
  RETRY_POLICY,
  redactUrl,
  statedTimeScale,
  unreachable,
} from '@videogen/openapi/rules';

/** An answer as the preflight reads it, and how one is sent: the rules' base-URL probe's. */
export type { ProbeAnswer, ProbeSend };

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

const DEFAULT_TIMEOUT_MS = 10_000;
/** First wait before retrying a 5xx (7.1: exponential backoff), doubled each time; real time (the scale is not known yet). */
const BACKOFF_MS = 500;

const reason = (r: ProbeReading) => `${r.answer.status}${r.envelope ? ` ${probeErrorCode(r)}` : ''}`;

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
  const get = async (url: string, key?: PreflightKey): Promise<ProbeReading> => {
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
        // A kept-alive connection the server closed as it was reused (seen when one process calibrated a
        // server and compared it next): the GET goes once more, on a new connection; a second close is the answer.
        if (attempt === 1 && closedWithoutAnswer(err)) continue;
        throw err;
      }
      settle?.(answer);
      const r = readProbe(answer);
      const c = classifyError(answer.status, probeErrorCode(r));
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
  let first: ProbeReading;
  try {
    first = await get(url.href, main);
  } catch (err) {
    return cannotReach(err);
  }
  const notes: string[] = [];
  // Not the API (a redirect, /v1 missing, a web page, a 5xx without the envelope): the shared diagnosis.
  const problem = await baseUrlProblem({
    base,
    urlSource: o.urlSource,
    first,
    retries: RETRY_POLICY.maxRetries,
    probe: (withVersion) => get(withVersion).catch(() => undefined),
  });
  if (problem) return { ok: false, kind: 'not-the-api', message: problem, requests };
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
      `${printed} answered GET ${PROBE_PATH} with ${describeProbe(first)} after ${RETRY_POLICY.maxRetries} retries: the checks judge what it answers`,
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
    let r: ProbeReading;
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
  const timeScale = status >= 200 && status < 300 ? statedTimeScale(first.answer.headers) : undefined;
  if (timeScale) notes.push(`its limits run ${timeScale}× faster than real time (RateLimit-Policy ${policy})`);
  return { ok: true, notes, timeScale, ...(timeScale && { policy }), requests };
}

/** The preflight's sender over fetch (the suite's own transport): redirects are answers, never followed. */
export const fetchProbe: ProbeSend = async (url, headers, timeoutMs) => {
  const res = await fetch(url, { headers, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  // At most the rules' limit of an answer, decoded (a gzip bomb is stopped there).
  const bytes = await readBody(res, { maxBytes: BODY_LIMITS.maxBytes });
  return { status: res.status, headers: res.headers, text: new TextDecoder().decode(bytes) };
};
