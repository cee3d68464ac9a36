// A wrong base URL, told as such. A 404 where no id was given, or an answer that is not the API's, is
// first asked of the rules' one diagnosis of a base URL (the contract suite's preflight asks the same):
// when what answers at the base is not the API, the error line says so with the fix ("is /v1 missing?
// … use --base-url …/v1"), instead of "check the id". The probe goes without the key: a URL that may be
// the wrong one is sent no secret, and no account's quota is spent.
import {
  BODY_LIMITS,
  baseUrlProblem,
  PROBE_PATH,
  readBody,
  readProbe,
  type ProbeReading,
} from '@videogen/openapi/rules';
import type { DescribedError } from './errors.js';
import { EXIT } from './exit-codes.js';

/** How long the diagnosis waits for each of its (at most two) answers. */
const PROBE_TIMEOUT_MS = 10_000;

interface Answered {
  status?: number;
  kind?: string;
}

/** An answer that may come from something that is not the API: a 404, or a body the client could not take for the API's. */
function mayBeTheWrongBase(err: unknown): boolean {
  const e = err as Answered | undefined;
  if (!e || typeof e.kind !== 'string') return false;
  if (e.kind === 'not_found' || e.kind === 'unexpected_response') return true;
  // A status the interface gives no meaning to (405 from a web server, a 3xx): not an answer of the API.
  return e.kind === 'api' && e.status !== undefined && e.status >= 300 && e.status < 500;
}

async function probe(url: string): Promise<ProbeReading | undefined> {
  try {
    const res = await fetch(url, {
      headers: { accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    const bytes = await readBody(res, { maxBytes: BODY_LIMITS.maxBytes });
    return readProbe({ status: res.status, headers: res.headers, text: new TextDecoder().decode(bytes) });
  } catch {
    return undefined;
  }
}

/**
 * When `err` may come from a wrong base URL and the diagnosis finds the base is not the API: the error to
 * print instead (exit 2, code NOT_THE_API). Undefined otherwise: the error means what it says.
 */
export async function wrongBaseUrl(
  err: unknown,
  o: { baseUrl?: string; urlSource: string },
): Promise<DescribedError | undefined> {
  if (!o.baseUrl || !mayBeTheWrongBase(err)) return undefined;
  const base = o.baseUrl.replace(/\/+$/, '');
  const first = await probe(base + PROBE_PATH);
  if (!first) return undefined;
  const problem = await baseUrlProblem({ base, urlSource: o.urlSource, first, probe });
  if (!problem) return undefined;
  return {
    // It starts with the URL (kept as typed) and ends with the fix: no capital, no full stop to mistake for the URL's.
    message: problem,
    exitCode: EXIT.INVALID_INPUT,
    code: 'NOT_THE_API',
    status: (err as Answered).status,
  };
}
