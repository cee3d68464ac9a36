// Writing a twin file from what calibration found: every behaviour observed carries its provenance
// (the target, when, how many answers, a few of them as evidence, redacted: no key, no signature, an
// Authorization value only as `[redacted]`); every behaviour not observed keeps the base twin's value
// (our decisions by default, or an earlier calibration) and says why it was not observed.
import { REDACTED } from '@videogen/openapi/rules';
import {
  BEHAVIOUR_KEYS,
  validateTwin,
  type BehaviourKey,
  type Exchange as TwinExchange,
  type Provenance,
  type Twin,
  type TwinFile,
} from '@videogen/openapi/twin';
import { redact } from '../engine/redact.ts';
import type { Profile } from '../shapes.ts';
import type { Finding, Findings } from './extract.ts';
import type { Seen } from './seen.ts';

/** Evidence kept per behaviour (the format allows 50; a few answers show it, the count says how many). */
const EVIDENCE = 4;
const BODY_CHARS = 600;
const KEPT_RESPONSE_HEADERS =
  /^(content-type|content-encoding|content-length|retry-after|ratelimit|ratelimit-.*|x-ratelimit-.*|location|vary)$/i;
const SECRET_QUERY =
  /^(x-amz-signature|x-amz-credential|x-amz-security-token|signature|sig|token|x-goog-signature|x-goog-credential|key|api_key)$/i;

/** A URL or a text with the values of secret query parameters (a presigned URL's signature) replaced. */
export function redactSigned(text: string): string {
  return redact(text).replace(
    /([?&](?:x-amz-signature|x-amz-credential|x-amz-security-token|signature|sig|token|x-goog-signature|x-goog-credential))=([^&"\s\\]+)/gi,
    `$1=${encodeURIComponent(REDACTED)}`,
  );
}

/** One answer as evidence: the path relative to the base URL, the headers that matter, the body's start; redacted. */
export function evidenceOf(s: Seen, baseUrl: string): TwinExchange {
  let url = s.url.startsWith(baseUrl) ? s.url.slice(baseUrl.length) || '/' : s.url;
  if (!url.startsWith('/')) {
    const u = new URL(url);
    for (const k of [...u.searchParams.keys()]) if (SECRET_QUERY.test(k)) u.searchParams.set(k, REDACTED);
    url = u.href;
  }
  const response: Record<string, string> = {};
  for (const [k, v] of Object.entries(s.headers))
    if (KEPT_RESPONSE_HEADERS.test(k)) response[k] = redact(v).slice(0, 2000);
  const request: Record<string, string> = {};
  for (const [k, v] of Object.entries(s.requestHeaders))
    request[k] = /^authorization$/i.test(k) ? `Bearer ${REDACTED}` : redact(v).slice(0, 2000);
  if (s.auth === 'key') request.authorization = `Bearer ${REDACTED}`;
  const body = redactSigned(s.text).slice(0, BODY_CHARS);
  return {
    method: s.method,
    url: redactSigned(url).slice(0, 2000),
    status: s.status || 599,
    ...(Object.keys(request).length && { request_headers: request }),
    ...(Object.keys(response).length && { response_headers: response }),
    ...(body && { body }),
    ...(s.at > 0 && { at: new Date(s.at).toISOString() }),
    elapsed_ms: Math.round(s.ms * 10) / 10,
  };
}

/** What a profile leaves out, by behaviour: the least profile that observes it and what it sends for it. */
const NEEDS: Array<{ keys: RegExp; profile: Exclude<Profile, 'read-only'>; what: string }> = [
  {
    keys: /^(success\.status\.(generateVideo|createConversion)|body\.extra_fields\.(generateVideo|createConversion)|duration\.|concurrency\.limit|retry_after\.concurrency|refusal\.generation_concurrency|refusal\.setting_mismatch|rules\.request_fields)/,
    profile: 'full',
    what: 'generations and conversions (credits)',
  },
  {
    keys: /^(refusal\.(invalid_form|bad_combination|empty_text|unknown_setting|wrong_extension|too_many_images|conversion_body_invalid|rate_limited)|retry_after\.rate_limited|rate_limit\.[A-Z]+\.(style|refused_count))/,
    profile: 'no-credit',
    what: 'POST requests the interface says are refused, and the limiter probes (a few 429s)',
  },
];
const RANK: Profile[] = ['read-only', 'no-credit', 'full'];

/** Why a behaviour was not observed: the profile, when it leaves the behaviour out, else what was seen. */
export function unobservedReason(key: BehaviourKey, reason: string, profile: Profile | 'recorded'): string {
  if (profile === 'recorded') return `not in the recorded traffic (${reason})`;
  const need = NEEDS.find((n) => n.keys.test(key));
  if (need && RANK.indexOf(profile) < RANK.indexOf(need.profile))
    return `profile ${profile}: ${need.what} only in the ${need.profile} profile (--profile ${need.profile})`;
  return reason;
}

export interface TwinMeta {
  name: string;
  baseUrl: string;
  createdBy: string;
  description?: string;
  profile: Profile | 'recorded';
  creditsSpent: number;
  requests: number;
  wallSeconds: number;
  sources: string[];
  /** How much faster than real time the target ran (its values are in service time: real × this). */
  timeScale: number;
  /** This machine's own round trip to an empty local server during the calibration (real ms). */
  localRoundTrip?: { p50: number; p95: number };
}

const clip = (s: string) => (s.length > 2000 ? `${s.slice(0, 1997)}…` : s);

/** The provenance of a behaviour observed now. */
function observed(f: Finding, baseUrl: string): Provenance | undefined {
  const evidence = f.evidence.filter(Boolean).slice(0, EVIDENCE);
  if (!evidence.length) return undefined;
  const last = Math.max(...f.evidence.map((s) => s.at).filter((t) => t > 0), 0);
  return {
    source: 'observed',
    target: baseUrl,
    observed_at: new Date(last || Date.now()).toISOString(),
    ...(f.samples && { samples: f.samples }),
    evidence: evidence.map((s) => evidenceOf(s, baseUrl)) as [TwinExchange, ...TwinExchange[]],
    ...(f.note && { note: clip(redact(f.note)) }),
  };
}

/** A behaviour not observed now, from the base twin, saying why. */
function kept(
  key: BehaviourKey,
  base: Twin,
  reason: string,
  date: string,
): { value?: unknown; provenance: Provenance } {
  const b = base.behaviours[key];
  const p = b.provenance;
  if (p.source === 'interface')
    return {
      provenance: {
        source: 'interface',
        section: p.section,
        note: clip(`not observed: ${reason}; the interface states it`),
      },
    };
  if (p.source === 'observed')
    return {
      value: b.value,
      provenance: {
        ...p,
        note: clip(
          `${p.note ? `${p.note}; ` : ''}not observed again on ${date} (${reason}): kept from ${String(base.name)}`,
        ),
      },
    };
  return {
    value: b.value,
    provenance: { ...p, note: clip(`not observed: ${reason}${p.note ? ` (${String(base.name)}: ${p.note})` : ''}`) },
  };
}

/** A value observed in part, completed from the base twin: the form of a transient 5xx never seen (rate 0). */
function completed(key: BehaviourKey, value: unknown, base: Twin): unknown {
  if (key !== 'transient.errors') return value;
  const v = value as { rate: number; answers?: unknown[] };
  return v.answers?.length ? v : { ...v, answers: base.behaviours['transient.errors'].value.answers };
}

/** The twin file of a calibration, validated against the format (an invalid one is a bug of calibrate: it throws). */
export function twinOf(findings: Findings, base: Twin, meta: TwinMeta): TwinFile {
  const now = new Date();
  const date = now.toISOString().slice(0, 10);
  const behaviours: Record<string, { value?: unknown; provenance: Provenance }> = {};
  const unobserved: string[] = [];
  for (const key of BEHAVIOUR_KEYS) {
    const f = findings.found.get(key);
    const provenance = f && observed(f, meta.baseUrl);
    if (f && provenance) {
      behaviours[key] = { value: completed(key, f.value, base), provenance };
      continue;
    }
    unobserved.push(key);
    const reason = unobservedReason(key, findings.missing.get(key) ?? 'nothing sent showed it', meta.profile);
    behaviours[key] = kept(key, base, reason, date);
  }
  const file = {
    $schema: 'https://videogen.local/twin/v1.schema.json',
    twin_version: 1,
    name: meta.name,
    ...(meta.description && { description: meta.description }),
    target: { base_url: meta.baseUrl },
    created_at: now.toISOString(),
    created_by: meta.createdBy,
    calibration: {
      profile: meta.profile,
      credits_spent: meta.creditsSpent,
      requests: meta.requests,
      wall_seconds: Math.round(meta.wallSeconds * 10) / 10,
      time_scale: meta.timeScale,
      ...(meta.localRoundTrip && {
        local_round_trip_ms: {
          p50: Math.round(meta.localRoundTrip.p50 * 100) / 100,
          p95: Math.round(meta.localRoundTrip.p95 * 100) / 100,
        },
      }),
      sources: meta.sources,
      unobserved,
    },
    behaviours,
  } as unknown as TwinFile;
  const problems = validateTwin(file);
  if (problems.length)
    throw new Error(
      `calibrate wrote an invalid twin (a bug): ${problems
        .slice(0, 5)
        .map((p) => `${p.path}: ${p.reason}`)
        .join('; ')}`,
    );
  return file;
}

/** A name the format accepts (`staging.example@2026-11-02`) from a base URL and a date. */
export function defaultName(baseUrl: string, date = new Date()): string {
  const host = new URL(baseUrl).host
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '');
  return `${host || 'target'}@${date.toISOString().slice(0, 10)}`.slice(0, 100);
}
