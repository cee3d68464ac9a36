// The behaviours of a twin read from exchanges (seen.ts), one reader per behaviour: what the answers
// show where the interface is silent. Each gives a Finding (the value, the answers that set it, how
// many, and a note when the answers disagree or the fit needs words), or says why it could not
// (the reason goes into the twin as "not observed: …"). Live runs and recordings are read alike.
import { deref, type OpenApiDocument } from '@videogen/openapi';
import { MAX_RUNNING, PAGE_SIZE, UPLOAD_LIMITS } from '@videogen/openapi/rules';
import type { BehaviourKey } from '@videogen/openapi/twin';
import { NOT_MADE } from '../engine/http.ts';
import { fitSamples } from './fit.ts';
import { WATCH_SECONDS } from './probes.ts';
import { codeOf, isSuccess, isUuid, modeOf, objectOf, SIGNATURE_PARAM, type Seen } from './seen.ts';

export interface Finding {
  value: unknown;
  /** The answers that set it (the twin keeps a few, redacted). */
  evidence: Seen[];
  /** How many answers (or samples) it rests on. */
  samples?: number;
  note?: string;
  /**
   * How far the value can be off from how it was read, in its own unit (a duration: half the widest
   * bracket between the reads that timed a sample): a comparison's noise is at least this.
   */
  readingError?: number;
}

/** What calibration learned: a finding per behaviour it observed, a reason per one it could not. */
export interface Findings {
  found: Map<BehaviourKey, Finding>;
  missing: Map<BehaviourKey, string>;
}

/** A transient answer retried or waited out before a final one (7.1): status, and what its body was. */
export interface TransientSeen {
  status: number;
  errorCode?: string;
  detail?: string;
}

export interface ExtractContext {
  /** The target's base URL (its origin tells a download host of another origin). */
  baseUrl: string;
  /** How much faster than real time the target runs: service time = real time × timeScale. */
  timeScale: number;
  spec: OpenApiDocument;
  /** Answers retried or waited out (live runs), which the final exchanges do not show. */
  transients?: TransientSeen[];
  /** Latency differences below this (real ms) are a loopback's noise, not the target's. */
  latencyGrainMs?: number;
  /** This machine's own round trip to an empty local server (real ms, median): subtracted from each latency. */
  localRoundTripMs?: number;
}

const CREATES = ['generateVideo', 'createConversion'];
const GETS_BY_ID = ['getVideo', 'getConversionOptions'];
const LISTS = ['listVideos', 'listVideoSettings'];

/** The most common value of a list (by JSON), with how many times it came. */
function majority<T>(values: T[]): { value: T; count: number; distinct: number } | undefined {
  const counts = new Map<string, { value: T; count: number }>();
  for (const v of values) {
    const k = JSON.stringify(v);
    const c = counts.get(k) ?? { value: v, count: 0 };
    c.count++;
    counts.set(k, c);
  }
  const best = [...counts.values()].sort((a, b) => b.count - a.count)[0];
  return best && { ...best, distinct: counts.size };
}

/** A finding from answers that each show a value: the majority, its answers first as evidence. */
function byMajority<T>(pairs: Array<{ value: T; seen: Seen }>, what: string): Finding | undefined {
  const m = majority(pairs.map((p) => p.value));
  if (!m) return undefined;
  const same = pairs.filter((p) => JSON.stringify(p.value) === JSON.stringify(m.value)).map((p) => p.seen);
  const others = pairs.filter((p) => JSON.stringify(p.value) !== JSON.stringify(m.value));
  return {
    value: m.value,
    evidence: [...same.slice(0, 3), ...others.slice(0, 2).map((p) => p.seen)],
    samples: pairs.length,
    ...(m.distinct > 1 && {
      note: `${m.count} of ${pairs.length} ${what} showed this; others: ${[...new Set(others.map((o) => JSON.stringify(o.value)))].slice(0, 3).join(', ')}`,
    }),
  };
}

// ---- what a request was ---------------------------------------------------------------------------

/** The refusal behaviour a refused generation form shows, by what is wrong with the form. */
function formRefusal(
  s: Seen,
  settings: Map<string, string[]>,
  plan: 'personal' | 'business',
): BehaviourKey | undefined {
  const f = s.form;
  if (!f) return 'refusal.invalid_form';
  if (!isUuid(f.setting) || Object.entries(f.counts).some(([name, n]) => n > 1 && name !== 'image_files'))
    return 'refusal.invalid_form';
  if (f.text !== undefined && f.text.trim() === '') return 'refusal.empty_text';
  if (!modeOf(f.fields)) return 'refusal.bad_combination';
  const images = f.counts.image_files ?? 0;
  if ('maxItems' in UPLOAD_LIMITS.image_files && images > UPLOAD_LIMITS.image_files.maxItems)
    return 'refusal.too_many_images';
  for (const file of f.files) {
    const limits = UPLOAD_LIMITS[file.field as keyof typeof UPLOAD_LIMITS];
    if (!limits) continue;
    const ext = (/\.[^.]+$/.exec(file.name)?.[0] ?? '').toLowerCase();
    if (!(limits.extensions.business as readonly string[]).includes(ext)) return 'refusal.wrong_extension';
    if (file.size > limits.maxBytes[plan]) return 'refusal.oversize_upload';
  }
  const fields = settings.get(f.setting);
  if (!fields) return settings.size ? 'refusal.unknown_setting' : undefined;
  const fits =
    f.fields.every((x) => fields.includes(x)) && fields.every((x) => x === 'image_files' || f.fields.includes(x));
  return fits ? undefined : 'refusal.setting_mismatch';
}

/** The settings of the account as its lists showed them: id → request_fields. */
function settingsOf(seen: Seen[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const s of seen)
    if (s.operationId === 'listVideoSettings' && isSuccess(s))
      for (const r of (objectOf(s.body)?.results as unknown[]) ?? []) {
        const o = objectOf(r);
        if (typeof o?.video_setting_id === 'string' && Array.isArray(o.request_fields))
          out.set(
            o.video_setting_id,
            o.request_fields.filter((x): x is string => typeof x === 'string'),
          );
      }
  return out;
}

/** Which refusal of the interface's open cases an answer shows, if any. */
export function refusalOf(s: Seen, settings: Map<string, string[]>): BehaviourKey | undefined {
  if (isSuccess(s) || s.status < 400) return undefined;
  const code = codeOf(s);
  if (s.auth === 'none') return s.status === 401 || s.status === 403 ? 'refusal.missing_credentials' : undefined;
  if (s.auth === 'malformed') return s.status === 401 || s.status === 403 ? 'refusal.malformed_credentials' : undefined;
  if (s.auth === 'unknown') return s.status === 401 || s.status === 403 ? 'refusal.unknown_key' : undefined;
  if (s.status === 429 && code !== 'INSUFFICIENT_CREDIT') return 'refusal.rate_limited';
  if (!s.operationId || (s.status >= 500 && s.status !== 503)) return undefined;
  if (s.status === 413) return 'refusal.payload_too_large';
  if (GETS_BY_ID.includes(s.operationId)) {
    const id = s.params.video_id;
    if (id !== undefined && !isUuid(id)) return 'refusal.malformed_id';
    return s.status === 404 ? 'refusal.unknown_id' : undefined;
  }
  if (LISTS.includes(s.operationId)) return /^[1-9][0-9]*$/.test(s.query.page ?? '1') ? undefined : 'refusal.bad_page';
  if (s.operationId === 'generateVideo') {
    if (s.status === 429 && code === 'INSUFFICIENT_CREDIT') return 'refusal.generation_no_credit';
    if (s.status === 503) return code === 'SIMULTANEOUS_GENERATE_LIMIT' ? 'refusal.generation_concurrency' : undefined;
    return formRefusal(s, settings, 'business');
  }
  if (s.operationId === 'createConversion') {
    const body = s.json;
    if (
      s.raw !== undefined ||
      (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body)))
    )
      return s.status === 400 || s.status === 415 || s.status === 422 ? 'refusal.conversion_body_invalid' : undefined;
  }
  return undefined;
}

/**
 * The behaviours a run sent the requests for, whatever they were answered: the refusals told by a
 * request's own shape (its key, id, page, form, body), and the durations of the modes it made. A
 * comparison counts a behaviour one side did not show as a difference only when that side was asked.
 */
export function askedFor(seen: Seen[]): Set<BehaviourKey> {
  const settings = settingsOf(seen);
  const out = new Set<BehaviourKey>();
  for (const s of seen) {
    if (!s.operationId) continue;
    // As if refused: which refusal the request's shape is.
    const kind = refusalOf({ ...s, status: s.auth === 'key' ? 400 : 401, body: undefined, text: '' }, settings);
    if (kind) out.add(kind);
  }
  for (const m of madeVideos(seen))
    out.add(m.op === 'createConversion' ? 'duration.conversion' : (`duration.generation.${m.mode}` as BehaviourKey));
  return out;
}

// ---- the readers ----------------------------------------------------------------------------------

type Reader = (seen: Seen[], ctx: ExtractContext, add: (key: BehaviourKey, f: Finding | string) => void) => void;

const keyed = (seen: Seen[]) => seen.filter((s) => s.auth === 'key');

const successStatuses: Reader = (seen, _ctx, add) => {
  const ops = new Set(seen.map((s) => s.operationId).filter((o): o is string => Boolean(o)));
  for (const op of [
    'generateVideo',
    'listVideos',
    'getVideo',
    'getConversionOptions',
    'createConversion',
    'listVideoSettings',
  ]) {
    const pairs = keyed(seen)
      .filter((s) => s.operationId === op && isSuccess(s))
      .map((s) => ({ value: s.status, seen: s }));
    const key = `success.status.${op}` as BehaviourKey;
    const f = byMajority(pairs, 'successes');
    add(key, f ?? (ops.has(op) ? `no ${op} request was accepted` : `no ${op} request was sent`));
  }
};

const REFUSALS: BehaviourKey[] = [
  'refusal.missing_credentials',
  'refusal.malformed_credentials',
  'refusal.unknown_key',
  'refusal.rate_limited',
  'refusal.malformed_id',
  'refusal.unknown_id',
  'refusal.bad_page',
  'refusal.invalid_form',
  'refusal.bad_combination',
  'refusal.empty_text',
  'refusal.unknown_setting',
  'refusal.setting_mismatch',
  'refusal.oversize_upload',
  'refusal.wrong_extension',
  'refusal.too_many_images',
  'refusal.generation_no_credit',
  'refusal.generation_concurrency',
  'refusal.conversion_body_invalid',
  'refusal.payload_too_large',
];

const refusals: Reader = (seen, _ctx, add) => {
  const settings = settingsOf(seen);
  const byKey = new Map<BehaviourKey, Array<{ value: { status: number; error_code: string }; seen: Seen }>>();
  for (const s of seen) {
    const key = refusalOf(s, settings);
    if (!key) continue;
    const value = { status: s.status, error_code: codeOf(s) ?? `HTTP_${s.status}` };
    byKey.set(key, [...(byKey.get(key) ?? []), { value, seen: s }]);
  }
  for (const key of REFUSALS) {
    const f = byMajority(byKey.get(key) ?? [], 'answers');
    add(key, f ?? 'no request of this kind was refused in what was sent');
  }
};

const requestFieldsRule: Reader = (seen, _ctx, add) => {
  const settings = settingsOf(seen);
  const pairs: Array<{ value: string; seen: Seen }> = [];
  for (const s of seen) {
    if (s.operationId !== 'generateVideo' || !s.form?.setting || s.auth !== 'key') continue;
    const fields = settings.get(s.form.setting);
    if (!fields || !modeOf(s.form.fields)) continue;
    const subset = s.form.fields.every((f) => fields.includes(f));
    const strict = fields.some((f) => f !== 'image_files' && !s.form?.fields.includes(f));
    if (!subset || !strict) continue;
    if (isSuccess(s)) pairs.push({ value: 'any_listed_subset', seen: s });
    else if (s.status >= 400 && s.status < 500 && s.status !== 429) pairs.push({ value: 'every_listed', seen: s });
  }
  add(
    'rules.request_fields',
    byMajority(pairs, 'generations') ?? 'no generation sent a part of its setting’s request_fields',
  );
};

const paging: Reader = (seen, _ctx, add) => {
  const order: Array<{ value: string; seen: Seen }> = [];
  for (const s of keyed(seen)) {
    if (s.operationId !== 'listVideos' || !isSuccess(s)) continue;
    const times = ((objectOf(s.body)?.results as unknown[]) ?? [])
      .map((r) => Date.parse(String(objectOf(r)?.created_at)))
      .filter((t) => Number.isFinite(t));
    if (times.length < 2 || times[0] === times[times.length - 1]) continue;
    order.push({ value: times[0] > times[times.length - 1] ? 'newest_first' : 'oldest_first', seen: s });
  }
  add(
    'paging.videos_order',
    byMajority(order, 'pages') ?? 'no page of GET /videos/ listed two videos of different times',
  );
  const past: Array<{ value: unknown; seen: Seen }> = [];
  for (const op of LISTS) {
    const answers = keyed(seen).filter((s) => s.operationId === op);
    const totals = answers.map((s) => objectOf(s.body)?.total_count).filter((t): t is number => typeof t === 'number');
    if (!totals.length) continue;
    for (const s of answers) {
      const page = Number(s.query.page ?? '1');
      if (!/^[1-9][0-9]*$/.test(s.query.page ?? '1')) continue;
      const total = (objectOf(s.body)?.total_count as number | undefined) ?? Math.min(...totals);
      const last = Math.max(1, Math.ceil(total / PAGE_SIZE));
      if (page <= last || s.status === 429 || s.status >= 500) continue;
      const body = objectOf(s.body);
      if (isSuccess(s) && body)
        past.push({
          value: {
            answer:
              body.page === page && Array.isArray(body.results) && !body.results.length ? 'empty_page' : 'last_page',
          },
          seen: s,
        });
      else if (s.status >= 400)
        past.push({
          value: { answer: 'refused', status: s.status, error_code: codeOf(s) ?? `HTTP_${s.status}` },
          seen: s,
        });
    }
  }
  add('paging.past_end', byMajority(past, 'pages past the end') ?? 'no page past the last one was asked for');
};

const HEADER_FAMILIES = {
  'ratelimit-structured': ['ratelimit'],
  ratelimit: ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy'],
  'x-ratelimit': ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'],
} as const;

export function headerFamily(h: Record<string, string>): keyof typeof HEADER_FAMILIES | undefined {
  for (const [family, names] of Object.entries(HEADER_FAMILIES))
    if (names.some((n) => h[n] !== undefined)) return family as keyof typeof HEADER_FAMILIES;
  return undefined;
}

const rateLimitHeaders: Reader = (seen, _ctx, add) => {
  const api = keyed(seen).filter((s) => s.operationId);
  if (api.length < 3) return add('rate_limit.headers', 'fewer than 3 answers to requests with the key');
  const withFamily = api.map((s) => ({ s, family: headerFamily(s.headers) }));
  const present = withFamily.filter((x) => x.family);
  if (!present.length) {
    add('rate_limit.headers', {
      value: { family: 'none' },
      evidence: api.slice(0, 3),
      samples: api.length,
      note: `none of ${api.length} answers carried rate-limit headers`,
    });
    return;
  }
  const family = majority(present.map((x) => x.family))?.value;
  const on = present.some((x) => x.s.status !== 429) ? 'every_answer' : 'rate_limited_only';
  const reset = present
    .map((x) => x.s.headers['x-ratelimit-reset'])
    .filter((v): v is string => v !== undefined)
    .some((v) => Number(v) > 1e9)
    ? 'epoch_seconds'
    : 'delta_seconds';
  const ours = present.filter((x) => x.family === family).map((x) => x.s);
  add('rate_limit.headers', {
    value: { family, on, reset },
    evidence: [...ours.slice(0, 2), ...ours.filter((s) => s.status === 429).slice(0, 1)],
    samples: present.length,
    note: `${present.length} of ${api.length} answers carried them`,
  });
};

/** The form of a Retry-After header: seconds, an HTTP-date, or absent. */
export function retryAfterForm(value: string | undefined): 'seconds' | 'http_date' | 'absent' | undefined {
  if (value === undefined) return 'absent';
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return 'seconds';
  return Number.isFinite(Date.parse(value)) ? 'http_date' : undefined;
}

const retryAfter: Reader = (seen, _ctx, add) => {
  const pick = (filter: (s: Seen) => boolean) =>
    keyed(seen)
      .filter(filter)
      .map((s) => ({ value: retryAfterForm(s.headers['retry-after']), seen: s }))
      .filter((p): p is { value: 'seconds' | 'http_date' | 'absent'; seen: Seen } => p.value !== undefined);
  const limited = pick((s) => s.status === 429 && codeOf(s) !== 'INSUFFICIENT_CREDIT');
  add('retry_after.rate_limited', byMajority(limited, '429s') ?? 'no request was refused for the rate limit');
  const busy = pick((s) => s.status === 503 && codeOf(s) === 'SIMULTANEOUS_GENERATE_LIMIT');
  add('retry_after.concurrency', byMajority(busy, '503s') ?? 'no request met the concurrency limit');
  const load = pick((s) => s.status === 503 && codeOf(s) !== 'SIMULTANEOUS_GENERATE_LIMIT');
  add('retry_after.unavailable', byMajority(load, '503s') ?? 'no 503 other than the concurrency limit was answered');
};

/** Videos created by accepted creates, with when they were seen running and when first seen ended. */
interface Made {
  id: string;
  op: string;
  mode?: string;
  create: Seen;
  /** Real ms the target likely started it: midway through the create's round trip. */
  start: number;
  lastRunning?: number;
  firstEnded?: number;
  ended?: Seen;
  status?: string;
}

function madeVideos(seen: Seen[]): Made[] {
  const made = new Map<string, Made>();
  for (const s of seen) {
    const id = objectOf(s.body)?.video_id;
    if (!s.operationId || !CREATES.includes(s.operationId) || !isSuccess(s) || typeof id !== 'string' || !(s.at > 0))
      continue;
    made.set(id, {
      id,
      op: s.operationId,
      mode: s.form ? modeOf(s.form.fields) : undefined,
      create: s,
      start: s.at + s.ms / 2,
    });
  }
  for (const s of [...seen].sort((a, b) => a.at - b.at)) {
    const m = s.operationId === 'getVideo' && isSuccess(s) ? made.get(s.params.video_id ?? '') : undefined;
    const status = objectOf(s.body)?.status;
    if (!m || typeof status !== 'string' || m.firstEnded !== undefined) continue;
    const t = s.at + s.ms / 2;
    if (status === 'running') m.lastRunning = t;
    else {
      m.firstEnded = t;
      m.ended = s;
      m.status = status;
    }
  }
  return [...made.values()];
}

const durations: Reader = (seen, ctx, add) => {
  const made = madeVideos(seen).filter((m) => m.status === 'completed' && m.firstEnded !== undefined);
  const groups = new Map<string, Made[]>();
  for (const m of made) {
    const key =
      m.op === 'createConversion' ? 'duration.conversion' : m.mode ? `duration.generation.${m.mode}` : undefined;
    if (key) groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  const keys = [
    ...new Set([
      ...((
        ctx.spec.components?.schemas?.GenerateVideoRequest as { 'x-valid-combinations'?: Array<{ fields: string[] }> }
      )?.['x-valid-combinations']?.map((c) => `duration.generation.${c.fields.join('+')}`) ?? []),
      'duration.conversion',
    ]),
  ] as BehaviourKey[];
  for (const key of keys) {
    const group = groups.get(key) ?? [];
    if (!group.length) {
      add(
        key,
        key === 'duration.conversion'
          ? 'no conversion was made and followed to completion'
          : 'no generation of this input mode was made and followed to completion',
      );
      continue;
    }
    // Each sample: midway between the last status read that showed it running and the first that showed it
    // ended. One whose end was seen long after it came (a bracket wider than half the duration, and than
    // twice the watch's) says little: it is left out while a closer one is there.
    const scale = ctx.timeScale / 1000;
    const timed = group.map((m) => {
      const lo = ((m.lastRunning ?? m.start) - m.start) * scale;
      const hi = ((m.firstEnded ?? m.start) - m.start) * scale;
      return { m, sample: (lo + hi) / 2, width: hi - lo };
    });
    const close = timed.filter((t) => t.width <= Math.max(t.sample / 2, 2 * WATCH_SECONDS));
    const used = close.length ? close : timed;
    const samples = used.map((t) => t.sample);
    const widths = used.map((t) => t.width).sort((a, b) => a - b);
    const resolution = widths[Math.floor(widths.length / 2)];
    const fit = fitSamples(samples, 's', resolution);
    if (!fit) continue;
    add(key, {
      value: fit.value,
      evidence: used.flatMap((t) => [t.m.create, ...(t.m.ended ? [t.m.ended] : [])]).slice(0, 6),
      samples: fit.samples,
      readingError: widths[widths.length - 1] / 2,
      note: `${fit.note}; each sample is timed from the create's answer to midway between the last read showing running and the first showing completed (reads ${Math.round(resolution * 10) / 10} s apart at the median)${used.length < timed.length ? `; ${timed.length - used.length} more whose end was seen too late to time left out` : ''}`,
    });
  }
};

const latency: Reader = (seen, ctx, add) => {
  const grain = (ctx.latencyGrainMs ?? 1) * ctx.timeScale;
  for (const op of [
    'generateVideo',
    'listVideos',
    'getVideo',
    'getConversionOptions',
    'createConversion',
    'listVideoSettings',
  ]) {
    // Bursts are left out (the limiter probe's, the suite's rate_limit_burst: requests sent at once wait
    // for each other at both ends): a latency is what one request of ordinary traffic takes.
    const answers = keyed(seen).filter(
      (s) =>
        s.operationId === op &&
        s.status < 500 &&
        s.status !== 429 &&
        s.ms > 0 &&
        s.probe !== 'limiter' &&
        !s.scenario?.endsWith('rate_limit_burst'),
    );
    const successes = answers.filter(isSuccess);
    const used = successes.length >= 3 ? successes : answers;
    const key = `latency.${op}` as BehaviourKey;
    const own = ctx.localRoundTripMs ?? 0;
    const fit = fitSamples(
      used.map((s) => Math.max(0, s.ms - own) * ctx.timeScale),
      'ms',
      grain,
    );
    if (!fit) {
      add(key, `no answer of ${op} was timed`);
      continue;
    }
    const sorted = [...used].sort((a, b) => a.ms - b.ms);
    add(key, {
      value: fit.value,
      evidence: [sorted[0], sorted[Math.floor(sorted.length / 2)], sorted[sorted.length - 1]],
      samples: fit.samples,
      note: `${fit.note}; each sample from sending the request to the end of its answer${own ? `, less this machine's own round trip to an empty local server (${Math.round(own * 10) / 10} ms at the median)` : ''}${ctx.timeScale !== 1 ? `, × the time scale ${ctx.timeScale}` : ''}${used === answers && answers.length > successes.length ? ' (refusals included: fewer than 3 successes)' : ''}`,
    });
  }
};

const copyright: Reader = (seen, _ctx, add) => {
  const pairs: Array<{ value: unknown; seen: Seen }> = [];
  for (const s of keyed(seen)) {
    const body = objectOf(s.body);
    if (s.operationId !== 'getVideo' || !isSuccess(s) || body?.status !== 'completed' || !Array.isArray(body.copyright))
      continue;
    const first = body.copyright[0];
    if (typeof first === 'string') pairs.push({ value: { form: 'string' }, seen: s });
    else if (objectOf(first)) {
      const o = objectOf(first) ?? {};
      const text = Object.entries(o)
        .filter(([, v]) => typeof v === 'string')
        .sort((a, b) => String(b[1]).length - String(a[1]).length)[0]?.[0];
      if (text) pairs.push({ value: { form: 'object', text_field: text }, seen: s });
    }
  }
  const f = byMajority(pairs, 'completed videos with copyright items');
  if (f) {
    const sample = objectOf(f.evidence[0]?.body)?.copyright as unknown[];
    const example = sample?.[0];
    f.value = { ...(f.value as object), ...(example !== undefined && { example }) };
  }
  add('copyright.items', f ?? 'no completed video read had copyright items');
};

const timestamps: Reader = (seen, _ctx, add) => {
  const pairs: Array<{ value: { utc: string; fraction_digits: number }; seen: Seen }> = [];
  for (const s of keyed(seen)) {
    if (!s.operationId || !LISTS.includes(s.operationId) || !isSuccess(s)) continue;
    for (const r of ((objectOf(s.body)?.results as unknown[]) ?? []).slice(0, 3)) {
      const stamp = objectOf(r)?.created_at;
      if (typeof stamp !== 'string') continue;
      const m = /T\d{2}:\d{2}:\d{2}(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})$/.exec(stamp);
      if (!m) continue;
      const digits = (m[1] ?? '').length;
      const utc = m[2] === 'Z' ? 'Z' : '+00:00';
      pairs.push({ value: { utc, fraction_digits: digits === 0 ? 0 : digits <= 3 ? 3 : 6 }, seen: s });
    }
  }
  add('body.timestamps', byMajority(pairs, 'timestamps') ?? 'no list answer held a timestamp');
};

/** The property names the document declares for an operation's success body, and for its list items. */
function documented(spec: OpenApiDocument, op: string): { fields: Set<string>; items?: Set<string> } {
  const operation = Object.values(spec.paths ?? {})
    .flatMap((p) => Object.values(p as Record<string, { operationId?: string; responses?: Record<string, unknown> }>))
    .find((o) => o?.operationId === op);
  const names = (schema: unknown, into: Set<string>, depth = 0): Set<string> => {
    const s = deref<Record<string, unknown>>(spec, schema);
    if (!s || depth > 6) return into;
    for (const k of Object.keys((s.properties as object) ?? {})) into.add(k);
    for (const part of (s.allOf as unknown[]) ?? []) names(part, into, depth + 1);
    return into;
  };
  const response = deref<{ content?: Record<string, { schema?: unknown }> }>(spec, operation?.responses?.['200']);
  const schema = response?.content?.['application/json']?.schema;
  const fields = names(schema, new Set());
  if (!fields.has('results')) return { fields };
  const find = (node: unknown, depth = 0): unknown => {
    const s = deref<Record<string, unknown>>(spec, node);
    const results = (s?.properties as Record<string, { items?: unknown }> | undefined)?.results;
    if (results?.items) return results.items;
    for (const part of (s?.allOf as unknown[]) ?? []) {
      const hit = depth < 6 ? find(part, depth + 1) : undefined;
      if (hit) return hit;
    }
    return undefined;
  };
  return { fields, items: names(find(schema), new Set()) };
}

/** How an extra field's values behave across answers: a constant, or generated per answer. */
function extraField(
  name: string,
  values: Array<{ v: unknown; body: Record<string, unknown> }>,
): Record<string, unknown> {
  const vs = values.map((x) => x.v);
  // The next page's number (null on the last page): read so even when every page seen was the last.
  const pages = values.every(({ v, body }) => (body.has_next ? v === Number(body.page) + 1 : v === null));
  if (pages && /next/i.test(name) && 'has_next' in (values[0]?.body ?? {})) return { generate: 'next_page' };
  if (vs.every((v) => JSON.stringify(v) === JSON.stringify(vs[0]))) return { const: vs[0] };
  if (vs.every((v) => typeof v === 'string') && new Set(vs).size === vs.length) {
    const strings = vs as string[];
    if (strings.every((s) => Number.isFinite(Date.parse(s)) && /\d{4}-\d{2}-\d{2}T/.test(s)))
      return { generate: 'now' };
    let common = strings[0];
    for (const s of strings) while (!s.startsWith(common)) common = common.slice(0, -1);
    // An id's prefix ends at its last separator (`req_`, `gw-`): what follows it is the id's own.
    const prefix = /^(.*[_\-.:])/.exec(common)?.[1] ?? '';
    return { generate: 'request_id', ...(prefix && { prefix: prefix.slice(0, 20) }) };
  }
  return { const: vs[0] };
}

const extraFields: Reader = (seen, ctx, add) => {
  for (const op of [
    'generateVideo',
    'listVideos',
    'getVideo',
    'getConversionOptions',
    'createConversion',
    'listVideoSettings',
  ]) {
    const key = `body.extra_fields.${op}` as BehaviourKey;
    const answers = keyed(seen).filter((s) => s.operationId === op && isSuccess(s) && objectOf(s.body));
    if (!answers.length) {
      add(key, `no success of ${op} was read`);
      continue;
    }
    const doc = documented(ctx.spec, op);
    const fields = new Map<string, Array<{ v: unknown; body: Record<string, unknown> }>>();
    const items = new Map<string, Array<{ v: unknown; body: Record<string, unknown> }>>();
    for (const s of answers) {
      const body = objectOf(s.body) ?? {};
      for (const [k, v] of Object.entries(body))
        if (!doc.fields.has(k)) fields.set(k, [...(fields.get(k) ?? []), { v, body }]);
      if (doc.items)
        for (const r of (body.results as unknown[]) ?? []) {
          const item = objectOf(r) ?? {};
          for (const [k, v] of Object.entries(item))
            if (!doc.items.has(k)) items.set(k, [...(items.get(k) ?? []), { v, body }]);
        }
    }
    const value: Record<string, unknown> = {};
    if (fields.size) value.fields = Object.fromEntries([...fields].map(([k, vs]) => [k, extraField(k, vs)]));
    if (items.size) value.item_fields = Object.fromEntries([...items].map(([k, vs]) => [k, extraField(k, vs)]));
    const shows = answers.filter((s) => Object.keys(objectOf(s.body) ?? {}).some((k) => !doc.fields.has(k)));
    add(key, {
      value,
      evidence: (shows.length ? shows : answers).slice(0, 2),
      samples: answers.length,
      ...(!fields.size && !items.size && { note: `no field beyond the interface's in ${answers.length} answers` }),
    });
  }
  const errors = seen.filter(
    (s) => s.operationId && s.status >= 400 && typeof objectOf(s.body)?.error_code === 'string',
  );
  if (!errors.length) return add('body.extra_fields.error', 'no error envelope was read');
  const extra = new Map<string, Array<{ v: unknown; body: Record<string, unknown> }>>();
  for (const s of errors) {
    const body = objectOf(s.body) ?? {};
    for (const [k, v] of Object.entries(body))
      if (k !== 'error_code' && k !== 'error') extra.set(k, [...(extra.get(k) ?? []), { v, body }]);
  }
  const shows = errors.filter((s) => Object.keys(objectOf(s.body) ?? {}).length > 2);
  add('body.extra_fields.error', {
    value: extra.size ? { fields: Object.fromEntries([...extra].map(([k, vs]) => [k, extraField(k, vs)])) } : {},
    evidence: (shows.length ? shows : errors).slice(0, 2),
    samples: errors.length,
  });
};

/** Whether a request accepted an encoding (live requests accept gzip and deflate, as fetch does). */
const accepts = (s: Seen, coding: string) =>
  new RegExp(`\\b${coding}\\b`, 'i').test(
    s.requestHeaders['accept-encoding'] ?? (s.source === 'live' ? 'gzip, deflate' : ''),
  );

/** The size of a body before any encoding (a JSON body as the target likely wrote it, compact). */
const sizeOf = (s: Seen) =>
  s.body !== undefined ? Buffer.byteLength(JSON.stringify(s.body)) : Buffer.byteLength(s.text);

const encoding: Reader = (seen, _ctx, add) => {
  const answers = seen.filter((s) => s.operationId && accepts(s, 'gzip') && s.status !== 204);
  if (!answers.length) return add('encoding.api', 'no answer to a request that accepts gzip');
  const encoded = answers.filter((s) => /gzip|br|deflate/i.test(s.headers['content-encoding'] ?? ''));
  const codings = majority(encoded.map((s) => s.headers['content-encoding'].toLowerCase().trim()));
  const probeBr = seen.filter(
    (s) => s.probe === 'encoding' && /\bbr\b/.test(s.requestHeaders['accept-encoding'] ?? ''),
  );
  const brToo = probeBr.some((s) => /\bbr\b/i.test(s.headers['content-encoding'] ?? ''));
  if (!encoded.length) {
    const largest = Math.max(...answers.map(sizeOf));
    return add('encoding.api', {
      value: { codings: [] },
      evidence: answers.slice(0, 2),
      samples: answers.length,
      note: `${answers.length} answers to requests accepting gzip, none encoded (the largest ${largest} bytes)`,
    });
  }
  const smallestEncoded = Math.min(...encoded.map(sizeOf));
  const plain = answers
    .filter((s) => !encoded.includes(s))
    .map(sizeOf)
    .filter((n) => n < smallestEncoded);
  const largestPlain = plain.length ? Math.max(...plain) : 0;
  const list = [...new Set([...(brToo ? ['br'] : []), ...(codings ? [codings.value] : [])])].filter((c) =>
    ['gzip', 'br', 'deflate'].includes(c),
  );
  add('encoding.api', {
    value: { codings: list, min_bytes: largestPlain ? largestPlain + 1 : 0 },
    evidence: [encoded[0], ...answers.filter((s) => !encoded.includes(s)).slice(0, 1)],
    samples: answers.length,
    note: `${encoded.length} of ${answers.length} answers accepting gzip were encoded; the smallest encoded body ${smallestEncoded} bytes, the largest sent as it is ${largestPlain} bytes (the threshold lies between)`,
  });
};

const EXPIRES = /^(x-amz-expires|x-goog-expires|expires|expiry|exp|se|e)$/i;
const ISSUED = /^(x-amz-date|x-goog-date|date|iat|st)$/i;

/** The parts of a presigned URL: which parameter expires it (and in which form), which signs it, which are fixed. */
export function presignedQuery(
  urls: URL[],
): { value: Record<string, unknown>; expiresAt?: (u: URL, at: number) => number } | undefined {
  if (!urls.length) return undefined;
  const names = [...urls[0].searchParams.keys()];
  const signature = names.find((n) => SIGNATURE_PARAM.test(n));
  const expires = names.find((n) => EXPIRES.test(n));
  if (!signature || !expires) return undefined;
  const issued = names.find((n) => ISSUED.test(n));
  const sample = Number(urls[0].searchParams.get(expires));
  const form =
    issued && sample < 1e8
      ? 'ttl_seconds'
      : sample > 1e11
        ? 'epoch_ms'
        : sample > 1e8
          ? 'epoch_seconds'
          : 'ttl_seconds';
  const fixed: Record<string, string> = {};
  for (const n of names)
    if (
      n !== signature &&
      n !== expires &&
      n !== issued &&
      urls.every((u) => u.searchParams.get(n) === urls[0].searchParams.get(n))
    )
      fixed[n] = urls[0].searchParams.get(n) ?? '';
  const value = {
    expires: { name: expires, form, ...(form === 'ttl_seconds' && issued && { issued }) },
    signature: { name: signature },
    ...(Object.keys(fixed).length && { fixed }),
  };
  // When a URL expires, real ms.
  const expiresAt = (u: URL, at: number) => {
    const v = Number(u.searchParams.get(expires));
    if (form === 'epoch_ms') return v;
    if (form === 'epoch_seconds') return v * 1000;
    const when = issued
      ? Date.parse(
          (u.searchParams.get(issued) ?? '').replace(
            /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/,
            '$1-$2-$3T$4:$5:$6Z',
          ),
        )
      : at;
    return (Number.isFinite(when) ? when : at) + v * 1000;
  };
  return { value, expiresAt };
}

/** Rounded up to 3 significant digits: a lifetime read from a URL a moment after it was signed. */
const ceil3 = (x: number) => {
  if (x <= 0) return x;
  const e = 10 ** (Math.floor(Math.log10(x)) - 2);
  return Math.ceil(x / e - 1e-9) * e;
};

const downloads: Reader = (seen, ctx, add) => {
  const views = keyed(seen).filter(
    (s) =>
      s.operationId === 'getVideo' &&
      isSuccess(s) &&
      typeof objectOf(s.body)?.download_url === 'string' &&
      objectOf(s.body)?.download_url !== '',
  );
  const urls = views.map((s) => ({ s, u: new URL(String(objectOf(s.body)?.download_url)) }));
  if (!urls.length) {
    for (const k of ['download.origin', 'download.query', 'download.ttl_seconds'] as BehaviourKey[])
      add(k, 'no completed video’s download_url was read');
  } else {
    const origin = new URL(ctx.baseUrl).origin;
    add(
      'download.origin',
      byMajority(
        urls.map(({ s, u }) => ({ value: u.origin === origin ? 'same' : 'other', seen: s })),
        'download URLs',
      ) ?? '',
    );
    const q = presignedQuery(urls.map((x) => x.u));
    if (!q) {
      add('download.query', 'the download_url has no query parameter that reads as an expiry and a signature');
      add('download.ttl_seconds', 'the download_url names no expiry');
    } else {
      add('download.query', { value: q.value, evidence: urls.slice(0, 2).map((x) => x.s), samples: urls.length });
      const ttls = urls.map(({ s, u }) => ((q.expiresAt?.(u, s.at) ?? 0) - (s.at + s.ms / 2)) * (ctx.timeScale / 1000));
      const longest = Math.max(...ttls);
      // The URL's expiry is written to the second (or the millisecond): the lifetime read is short by up to that grain.
      const form = (q.value.expires as { form?: string }).form;
      const grain = (form === 'epoch_ms' ? 0.001 : 1) * ctx.timeScale;
      const minutes = Math.round(longest / 60) * 60;
      const ttl =
        minutes > 0 && minutes >= longest * 0.99 && minutes <= (longest + grain) * 1.01 ? minutes : ceil3(longest);
      if (ttl > 0)
        add('download.ttl_seconds', {
          value: ttl,
          evidence: urls.slice(0, 2).map((x) => x.s),
          samples: urls.length,
          note: `the longest lifetime left in ${urls.length} download URLs, when read`,
        });
      else add('download.ttl_seconds', 'the download URLs read had expired already');
    }
  }
  const auth = seen.filter((s) => s.probe === 'download_with_authorization');
  const refusalOfDownload = (s: Seen) => ({
    status: s.status,
    form: /^\s*</.test(s.text) ? 'xml' : 'envelope',
    error_code: codeOf(s) ?? `HTTP_${s.status}`,
  });
  add(
    'download.authorization_header',
    byMajority(
      auth.map((s) => ({
        value: isSuccess(s) ? { answer: 'ignored' } : { answer: 'refused', ...refusalOfDownload(s) },
        seen: s,
      })),
      'downloads',
    ) ?? 'no download was tried with an Authorization header',
  );
  const tampered = seen.filter((s) => s.probe === 'download_tampered' && s.status >= 400);
  add(
    'download.refusal',
    byMajority(
      tampered.map((s) => ({ value: refusalOfDownload(s), seen: s })),
      'downloads',
    ) ?? 'no download was tried with a signature changed',
  );
};

/**
 * The concurrency limit, from when the run's own videos ran: a create refused for the limit at t says the
 * limit is at most the videos that may have run then (started, not yet seen ended); one accepted says it
 * is more than those surely running (seen running later). Observed when that leaves one number.
 */
const concurrency: Reader = (seen, _ctx, add) => {
  const made = madeVideos(seen);
  const surely = (t: number) =>
    made.filter((m) => m.start < t && m.lastRunning !== undefined && m.lastRunning > t).length;
  const maybe = (t: number) =>
    made.filter((m) => m.start < t && (m.firstEnded === undefined || m.firstEnded > t)).length;
  const refused = keyed(seen).filter((s) => s.status === 503 && codeOf(s) === 'SIMULTANEOUS_GENERATE_LIMIT');
  const upper = refused.map((s) => ({ s, n: maybe(s.at + s.ms / 2) })).filter((x) => x.n > 0);
  if (!upper.length)
    return add('concurrency.limit', 'no request was refused for the concurrency limit while the run’s own videos ran');
  const most = Math.min(...upper.map((x) => x.n));
  const least = Math.max(0, ...made.map((m) => surely(m.start))) + 1;
  if (least !== most)
    return add(
      'concurrency.limit',
      `the reads of the run’s videos put the limit between ${least} and ${most}: not one number`,
    );
  add('concurrency.limit', {
    value: most,
    evidence: upper
      .filter((x) => x.n === most)
      .slice(0, 2)
      .map((x) => x.s),
    samples: upper.length,
    note: `refused while ${most} of the run's videos ran, accepted while ${least - 1} surely ran${most === MAX_RUNNING ? ' (as 8.2 states)' : ''}`,
  });
};

const transient: Reader = (seen, ctx, add) => {
  const recorded = seen.filter(
    (s) => s.source !== 'live' && s.operationId && s.status >= 500 && codeOf(s) !== 'UNKNOWN_ERROR',
  );
  // Every transient 5xx but the concurrency limit's 503 (a limit, not a failure).
  const live = ctx.transients?.filter((t) => t.status >= 500 && t.errorCode !== 'SIMULTANEOUS_GENERATE_LIMIT') ?? [];
  const total = seen.filter((s) => s.operationId).length + live.length;
  if (total < 20) return add('transient.errors', `too few answers (${total}) to say how often a transient 5xx happens`);
  // A create's transient answer whose body was not kept (its look for a video said why it went again)
  // counts in the rate, not in the forms.
  const forms = [
    ...live
      .filter((t) => t.detail !== NOT_MADE)
      .map((t) => ({
        status: t.status,
        form: t.errorCode ? 'envelope' : /^\s*</.test(t.detail ?? '') ? 'html' : t.detail ? 'text' : 'empty',
        ...(t.errorCode && { error_code: t.errorCode }),
      })),
    ...recorded.map((s) => ({
      status: s.status,
      form: codeOf(s) ? 'envelope' : /^\s*</.test(s.text) ? 'html' : s.text ? 'text' : 'empty',
      ...(codeOf(s) && { error_code: codeOf(s) }),
    })),
  ];
  const k = forms.length + live.filter((t) => t.detail === NOT_MADE).length;
  const rate = k / total;
  if (!k)
    return add('transient.errors', {
      value: { rate: 0 },
      evidence: [seen[0], seen[seen.length - 1]],
      samples: total,
      note: `no transient 5xx in ${total} answers (at 95% the rate is below ${Math.round((3 / total) * 1000) / 10}%)`,
    });
  const counts = new Map<string, { answer: Record<string, unknown>; n: number }>();
  for (const f of forms) {
    const key = JSON.stringify(f);
    counts.set(key, { answer: f, n: (counts.get(key)?.n ?? 0) + 1 });
  }
  // Wilson's 95% interval of the rate.
  const z = 1.96;
  const centre = (rate + (z * z) / (2 * total)) / (1 + (z * z) / total);
  const half = (z * Math.sqrt((rate * (1 - rate)) / total + (z * z) / (4 * total * total))) / (1 + (z * z) / total);
  add('transient.errors', {
    value: {
      rate: Number(rate.toFixed(4)),
      answers: [...counts.values()].map((c) => ({ ...c.answer, weight: c.n })),
    },
    evidence: recorded.slice(0, 2).length ? recorded.slice(0, 2) : seen.slice(0, 1),
    samples: total,
    note: `${k} transient 5xx in ${total} answers (95% interval ${percent(Math.max(0, centre - half))}–${percent(centre + half)}%)${live.length ? '; retried as 7.1 says, so the final answers do not show them' : ''}`,
  });
};

/** A share as a percentage with one decimal. */
const percent = (share: number) => (share * 100).toFixed(1);

const READERS: Reader[] = [
  successStatuses,
  refusals,
  requestFieldsRule,
  paging,
  rateLimitHeaders,
  retryAfter,
  concurrency,
  copyright,
  timestamps,
  extraFields,
  encoding,
  downloads,
  latency,
  durations,
  transient,
];

/** Every behaviour the exchanges show (the limiter's apart: limiter probes, inferred in limits.ts). */
export function extract(seen: Seen[], ctx: ExtractContext): Findings {
  const found = new Map<BehaviourKey, Finding>();
  const missing = new Map<BehaviourKey, string>();
  for (const read of READERS)
    read(seen, ctx, (key, f) => {
      if (typeof f === 'string') {
        if (!found.has(key)) missing.set(key, f);
      } else {
        found.set(key, f);
        missing.delete(key);
      }
    });
  missing.set(
    'lifecycle.expire_after_seconds',
    'a completed video expires after hours: a calibration does not wait for it',
  );
  return { found, missing };
}
