// The sandbox's behaviour wherever the interface is silent, read from a twin (@videogen/openapi/twin):
// compiled once at start into what each answer needs, so that the hot path does no more for a twin than
// it did for the hard-coded personalities (a decoration, a latency or a transient error costs only when
// the twin has one). `default` (our decisions) is the twin of `createSandbox()`; `alternative` and any
// calibrated twin file answer through the same code.
import { randomBytes } from 'node:crypto';
import { RATE_LIMITS } from '@videogen/openapi/rules';
import {
  builtinTwin,
  isBuiltinTwin,
  parseTwin,
  readTwin,
  type Distribution,
  type DownloadAuthorization,
  type DownloadRefusal,
  type ExtraFieldMap,
  type PastEnd,
  type PresignedQuery,
  type RateLimitHeaders,
  type RetryAfterForm,
  type TransientAnswer,
  type Twin,
  type TwinFile,
} from '@videogen/openapi/twin';
import type { Operation } from '@videogen/openapi';
import type { OperationId } from '@videogen/openapi/types';
import { ApiError, type RefusalKind } from './errors.js';
import type { RateLimiterStyle } from './rate-limit.js';
import { Sampler } from './sampling.js';

/** A twin as `createSandbox({ twin })` takes it: a built-in name, a file path, or a (parsed or raw) twin. */
export type TwinSource = string | URL | Twin | TwinFile;

/** How one rate-limit class is enforced. */
export interface ClassLimit {
  style: RateLimiterStyle;
  limit: number;
  windowSeconds: number;
  /** A refused request counts against the window too. */
  refusedCount: boolean;
}

/** The download URL's form and what its host answers. */
export interface DownloadBehaviour {
  otherOrigin: boolean;
  query: PresignedQuery;
  ttlSeconds: number;
  authorization: DownloadAuthorization;
  refusal: DownloadRefusal;
}

/** What the sandbox may override of a twin (its options and flags, for tests and benchmarks). */
export interface TwinOverrides {
  /** Every generation and conversion runs this long (service seconds). */
  generationSeconds?: number;
  expireAfterSeconds?: number;
  downloadTtlSeconds?: number;
  /** One limiter style for every class. */
  rateLimiter?: RateLimiterStyle;
  /** The seed of every sample (latencies, durations, transient errors). Default 0. */
  seed?: number;
}

export interface TwinBehaviour {
  /** The twin's name (`default`, `alternative`, `staging@2026-11-02`). */
  name: string;
  twin: Twin;
  successStatus(op: OperationId): number;
  /** An error in the twin's words: an open refusal's status and code, the `Retry-After` form, extra fields. */
  error(err: ApiError, now: number): ApiError;
  /** What the twin adds to the operation's success body, or undefined when nothing (the body goes out as it is). */
  decorator(op: OperationId): ((body: unknown, now: number) => unknown) | undefined;
  limits: Record<string, ClassLimit>;
  /** Videos that may run at once per account (8.2; the twin's `concurrency.limit`). */
  concurrencyLimit: number;
  rateLimitHeaders: Required<RateLimitHeaders>;
  videosOldestFirst: boolean;
  pastEnd: PastEnd;
  lenientRequestFields: boolean;
  /** Whether any operation has a latency (the sandbox adds its hook only then). */
  hasLatency: boolean;
  /** The next latency of the operation for the account, service milliseconds. */
  latencyMs(op: OperationId, account: string): number;
  /** The next duration of a generation of `mode` (its fields joined by `+`) or of a conversion, service seconds. */
  durationSeconds(what: 'generation' | 'conversion', mode: string | undefined, account: string): number;
  expireAfterSeconds: number;
  /** The median duration of a generation of the first input mode (what the docs' page says a generation takes). */
  typicalGenerationSeconds: number;
  download: DownloadBehaviour;
  /** The codings of API answers, and the size below which an answer is sent as it is. */
  encoding: { codings: string[]; minBytes: number };
  /** A transient error for the account's next request, or undefined (the twin's rate, under the seed). */
  transient(account: string): TransientAnswer | undefined;
  /** The `Retry-After` form of a 503 other than the concurrency limit's. */
  unavailableRetryAfter: RetryAfterForm;
  /**
   * For the response self-check: the answers our document would give where this twin chose otherwise
   * (its success status mapped back, its refusal codes mapped to ours); [] when the answer is ours.
   */
  declared(op: Operation, status: number, body: unknown): Array<{ status: number; body: unknown }>;
  /** Headers the twin writes in a form of its own where our document declares one (left out of the self-check). */
  ownHeaders: readonly string[];
  /** The account's samples start again from the first (`/_sandbox/reset`). */
  reset(account: string): void;
}

/** The twin of a `twin` option: a built-in name, a file, or an object (validated; `TwinError` otherwise). */
export function loadTwin(source: TwinSource | undefined): Twin {
  if (source === undefined) return builtinTwin('default');
  if (typeof source === 'string' && isBuiltinTwin(source)) return builtinTwin(source);
  if (typeof source === 'string' || source instanceof URL) return readTwin(source);
  return parseTwin(source);
}

/** `Retry-After` in the twin's form: seconds as the sandbox wrote them, an HTTP-date, or none. */
export function retryAfterIn(form: RetryAfterForm, seconds: string, now: number): string | undefined {
  if (form === 'absent') return undefined;
  if (form === 'seconds') return seconds;
  return new Date(Math.ceil((now + Number(seconds) * 1000) / 1000) * 1000).toUTCString();
}

/** `2026-01-19T09:00:00.000Z` in the twin's form of an ISO 8601 UTC timestamp. */
function timestampIn(iso: string, utc: string, digits: number): string {
  const m = /^(.*T\d\d:\d\d:\d\d)(\.\d+)?Z$/.exec(iso);
  if (!m) return iso;
  const fraction = (m[2] ?? '.').slice(1).padEnd(digits, '0').slice(0, digits);
  return `${m[1]}${digits ? `.${fraction}` : ''}${utc}`;
}

const SIMULTANEOUS = 'SIMULTANEOUS_GENERATE_LIMIT';

/**
 * Whether the sandbox raises an open refusal on an operation, read from the document: the self-check
 * maps a twin's answer back to ours only where that refusal can be the answer.
 */
function raisedOn(kind: RefusalKind, op: Operation): boolean {
  const content = op.operation.requestBody?.content ?? {};
  const form = 'multipart/form-data' in content;
  const hasPathId = op.parameters.some((p) => p.in === 'path');
  switch (kind) {
    case 'missing_credentials':
    case 'malformed_credentials':
    case 'unknown_key':
    case 'rate_limited':
      return true;
    case 'malformed_id':
      return hasPathId;
    case 'unknown_id':
      return hasPathId && op.method === 'GET';
    case 'bad_page':
      return op.parameters.some((p) => p.in === 'query');
    case 'conversion_body_invalid':
      return 'application/json' in content;
    case 'payload_too_large':
      return op.operation.requestBody !== undefined;
    default:
      // The generation's refusals: its form's.
      return form;
  }
}

/** The median of a distribution. */
const medianOf = (d: Distribution) => (d.family === 'constant' ? d.value : d.p50);
/** The key of the first input mode's generation duration. */
const firstGenerationKey = (b: object) => {
  const key = Object.keys(b).find((k) => k.startsWith('duration.generation.'));
  if (!key) throw new Error('the twin has no generation duration');
  return key;
};

export function compileTwin(twin: Twin, overrides: TwinOverrides = {}): TwinBehaviour {
  const b = twin.behaviours;
  const value = <K extends keyof Twin['behaviours']>(key: K): Twin['behaviours'][K]['value'] => b[key].value;
  const ours = builtinTwin('default').behaviours;
  const sampler = new Sampler(overrides.seed ?? 0);

  // ---- refusals and errors -------------------------------------------------------------------------
  const refusalKinds = Object.keys(b)
    .filter((k) => k.startsWith('refusal.'))
    .map((k) => k.slice('refusal.'.length) as RefusalKind);
  const refusalOf = (kind: RefusalKind) => b[`refusal.${kind}`].value;
  const retryForms = {
    rateLimited: value('retry_after.rate_limited'),
    concurrency: value('retry_after.concurrency'),
    unavailable: value('retry_after.unavailable'),
  };
  const timestamps = value('body.timestamps');
  const defaultTimestamps = timestamps.utc === 'Z' && timestamps.fraction_digits === 3;
  const stamp = (iso: string) =>
    defaultTimestamps ? iso : timestampIn(iso, timestamps.utc, timestamps.fraction_digits);
  /** The extra fields of a map for one body (undefined: none). */
  const extraOf = (map: ExtraFieldMap | undefined) => {
    const entries = Object.entries(map ?? {});
    if (!entries.length) return undefined;
    return (body: Record<string, unknown>, now: number) => {
      const out: Record<string, unknown> = {};
      for (const [name, field] of entries) {
        if ('const' in field) out[name] = field.const;
        else if (field.generate === 'request_id') out[name] = `${field.prefix ?? ''}${randomBytes(8).toString('hex')}`;
        else if (field.generate === 'now') out[name] = stamp(new Date(now).toISOString());
        else out[name] = body.has_next === true && typeof body.page === 'number' ? body.page + 1 : null;
      }
      return out;
    };
  };
  const errorExtra = extraOf(value('body.extra_fields.error').fields);

  function error(err: ApiError, now: number): ApiError {
    const chosen = err.refusal ? refusalOf(err.refusal) : undefined;
    const status = chosen?.status ?? err.status;
    const code = chosen?.error_code ?? err.code;
    let headers = err.headers;
    const seconds = err.headers['Retry-After'];
    if (seconds !== undefined) {
      const form =
        err.status === 429
          ? retryForms.rateLimited
          : err.status === 503 && (err.code === SIMULTANEOUS || err.refusal === 'generation_concurrency')
            ? retryForms.concurrency
            : err.status === 503
              ? retryForms.unavailable
              : 'seconds';
      const written = retryAfterIn(form, seconds, now);
      if (written !== seconds) {
        const { 'Retry-After': _dropped, ...rest } = err.headers;
        headers = written === undefined ? rest : { ...rest, 'Retry-After': written };
      }
    }
    if (status === err.status && code === err.code && headers === err.headers && !errorExtra) return err;
    const out = new ApiError(status, code, err.message, headers);
    out.refusal = err.refusal;
    if (errorExtra) out.extra = errorExtra({}, now);
    return out;
  }

  // ---- bodies --------------------------------------------------------------------------------------
  const copyright = value('copyright.items');
  const reshaped = (o: Record<string, unknown>): Record<string, unknown> => {
    const out = { ...o };
    if (typeof out.created_at === 'string') out.created_at = stamp(out.created_at);
    if (typeof out.updated_at === 'string') out.updated_at = stamp(out.updated_at);
    if (copyright.form === 'object' && Array.isArray(out.copyright))
      out.copyright = out.copyright.map((c: unknown) => (typeof c === 'string' ? { [copyright.text_field]: c } : c));
    return out;
  };
  const decorators = new Map<string, ((body: unknown, now: number) => unknown) | undefined>();
  function decorator(op: OperationId) {
    if (decorators.has(op)) return decorators.get(op);
    const extra = b[`body.extra_fields.${op}`].value;
    const fields = extraOf(extra.fields);
    const itemFields = extraOf(extra.item_fields);
    const needed = fields || itemFields || !defaultTimestamps || copyright.form !== 'string';
    const decorate = needed
      ? (body: unknown, now: number) => {
          if (!body || typeof body !== 'object') return body;
          const o = body as Record<string, unknown>;
          const out = { ...fields?.(o, now), ...reshaped(o) };
          if (Array.isArray(o.results))
            out.results = o.results.map((r: Record<string, unknown>) => ({ ...itemFields?.(r, now), ...reshaped(r) }));
          return out;
        }
      : undefined;
    decorators.set(op, decorate);
    return decorate;
  }

  // ---- limits ----------------------------------------------------------------------------------------
  const limits: Record<string, ClassLimit> = {};
  for (const cls of Object.keys(RATE_LIMITS) as Array<keyof typeof RATE_LIMITS>) {
    limits[cls] = {
      style: overrides.rateLimiter ?? value(`rate_limit.${cls}.style`),
      limit: value(`rate_limit.${cls}.limit`),
      windowSeconds: value(`rate_limit.${cls}.window_seconds`),
      refusedCount: value(`rate_limit.${cls}.refused_count`),
    };
  }
  const headers = value('rate_limit.headers');

  // ---- time ------------------------------------------------------------------------------------------
  const latencies = new Map<string, Distribution>();
  let hasLatency = false;
  for (const key of Object.keys(b)) {
    if (!key.startsWith('latency.')) continue;
    const d = b[key as `latency.${OperationId}`].value;
    latencies.set(key.slice('latency.'.length), d);
    if (d.family !== 'constant' || d.value > 0) hasLatency = true;
  }
  const constant = (seconds: number): Distribution => ({ family: 'constant', unit: 's', value: seconds });
  const fixedDuration = overrides.generationSeconds === undefined ? undefined : constant(overrides.generationSeconds);
  function durationSeconds(what: 'generation' | 'conversion', mode: string | undefined, account: string): number {
    const key = what === 'conversion' ? 'duration.conversion' : `duration.generation.${mode}`;
    const d = fixedDuration ?? (b as unknown as Record<string, { value: Distribution } | undefined>)[key]?.value;
    if (!d) throw new Error(`the twin has no ${key}`);
    return sampler.sample(d, key, account);
  }

  // ---- transient errors ------------------------------------------------------------------------------
  const transient = value('transient.errors');
  const weights = transient.answers.map((a) => a.weight ?? 1);
  const totalWeight = weights.reduce((x, y) => x + y, 0);
  function transientFor(account: string): TransientAnswer | undefined {
    if (transient.rate <= 0 || sampler.next('transient.errors', account) >= transient.rate) return undefined;
    let pick = sampler.next('transient.errors#answer', account) * totalWeight;
    for (const [i, answer] of transient.answers.entries()) {
      pick -= weights[i];
      if (pick <= 0) return answer;
    }
    return transient.answers[transient.answers.length - 1];
  }

  // ---- the self-check's mapping back to our document ---------------------------------------------------
  /** Per operation: the twin's (status, code) of each open refusal raised there → ours. */
  const backToOurs = new Map<string, Map<string, Array<{ status: number; code: string }>>>();
  function mappingOf(op: Operation) {
    let map = backToOurs.get(op.operationId);
    if (map) return map;
    map = new Map();
    for (const kind of refusalKinds) {
      if (!raisedOn(kind, op)) continue;
      const theirs = refusalOf(kind);
      const mine = ours[`refusal.${kind}`].value;
      if (theirs.status === mine.status && theirs.error_code === mine.error_code) continue;
      const key = `${theirs.status} ${theirs.error_code}`;
      const list = map.get(key) ?? [];
      if (!list.some((c) => c.status === mine.status && c.code === mine.error_code))
        list.push({ status: mine.status, code: mine.error_code });
      map.set(key, list);
    }
    backToOurs.set(op.operationId, map);
    return map;
  }
  function declared(op: Operation, status: number, body: unknown) {
    const id = op.operationId as OperationId;
    const success = b[`success.status.${id}`].value;
    if (status === success) {
      const mine = ours[`success.status.${id}`].value;
      return mine === status ? [] : [{ status: mine, body }];
    }
    const code = (body as { error_code?: unknown } | undefined)?.error_code;
    return (mappingOf(op).get(`${status} ${String(code)}`) ?? []).map((c) => ({
      status: c.status,
      body: { ...(body as object), error_code: c.code },
    }));
  }

  const encoding = value('encoding.api');
  return {
    name: twin.name,
    twin,
    successStatus: (op) => b[`success.status.${op}`].value,
    error,
    decorator,
    limits,
    concurrencyLimit: value('concurrency.limit'),
    rateLimitHeaders: {
      family: headers.family,
      on: headers.on ?? 'every_answer',
      reset: headers.reset ?? 'delta_seconds',
    },
    videosOldestFirst: value('paging.videos_order') === 'oldest_first',
    pastEnd: value('paging.past_end'),
    lenientRequestFields: value('rules.request_fields') === 'any_listed_subset',
    hasLatency,
    latencyMs: (op, account) => {
      const d = latencies.get(op);
      return d ? sampler.sample(d, `latency.${op}`, account) : 0;
    },
    durationSeconds,
    expireAfterSeconds: overrides.expireAfterSeconds ?? value('lifecycle.expire_after_seconds'),
    typicalGenerationSeconds: medianOf(
      fixedDuration ?? (b as unknown as Record<string, { value: Distribution }>)[firstGenerationKey(b)].value,
    ),
    download: {
      otherOrigin: value('download.origin') === 'other',
      query: value('download.query'),
      ttlSeconds: overrides.downloadTtlSeconds ?? value('download.ttl_seconds'),
      authorization: value('download.authorization_header'),
      refusal: value('download.refusal'),
    },
    encoding: { codings: [...encoding.codings], minBytes: encoding.min_bytes ?? 0 },
    transient: transientFor,
    unavailableRetryAfter: retryForms.unavailable,
    declared,
    // The later draft's RateLimit-Policy ("b";q=5;w=10) is not the form our document declares (#12).
    ownHeaders: headers.family === 'ratelimit-structured' ? ['ratelimit-policy'] : [],
    reset: (account) => sampler.reset(account),
  };
}
