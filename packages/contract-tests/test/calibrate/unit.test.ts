// The pure parts of calibration: fitting distributions, comparing behaviours with their tolerances, the
// changelog of --diff, reading a presigned URL and a refusal, and writing a twin (valid, redacted, every
// behaviour not observed saying why). No server: the end-to-end tests (independent.test.ts) run them whole.
import { describe, expect, test } from 'vitest';
import { loadSpec } from '@videogen/openapi';
import { builtinTwin, parseTwin, validateTwin, type BehaviourKey, type Twin } from '@videogen/openapi/twin';
import { diffTwins, formatDiff } from '../../src/calibrate/diff.ts';
import { extract, presignedQuery, refusalOf } from '../../src/calibrate/extract.ts';
import { fitSamples } from '../../src/calibrate/fit.ts';
import { sameBehaviour, sameDistributions, sameRates } from '../../src/calibrate/same.ts';
import type { Seen } from '../../src/calibrate/seen.ts';
import { twinOf, unobservedReason } from '../../src/calibrate/twin.ts';
import { registerSecret } from '../../src/engine/redact.ts';

/** Log-normal draws of a median and a spread, from a fixed sequence (no randomness in a test). */
const lognormal = (p50: number, sigma: number, n: number) =>
  Array.from({ length: n }, (_, i) => {
    // Normal quantiles of evenly spaced probabilities: the sample is the distribution itself.
    const p = (i + 0.5) / n;
    const z = Math.sqrt(2) * inverseErf(2 * p - 1);
    return p50 * Math.exp(sigma * z);
  });
function inverseErf(x: number): number {
  const a = 0.147;
  const ln = Math.log(1 - x * x);
  const t = 2 / (Math.PI * a) + ln / 2;
  return Math.sign(x) * Math.sqrt(Math.sqrt(t * t - ln / a) - t);
}

describe('fitSamples', () => {
  test('one sample is a constant that says how little it knows', () => {
    const fit = fitSamples([42], 's');
    expect(fit?.value).toEqual({ family: 'constant', unit: 's', value: 42 });
    expect(fit?.note).toMatch(/one sample .*×2\.7/);
  });

  test('samples within the resolution of each other are a constant at their median', () => {
    expect(fitSamples([29.6, 30.1, 30.4], 's', 2)?.value).toEqual({ family: 'constant', unit: 's', value: 30.1 });
  });

  test('a spread is a log-normal: the median, and the p95 from the log spread below 20 samples', () => {
    const fit = fitSamples(lognormal(45, 0.4, 9), 's');
    expect(fit?.value.family).toBe('lognormal');
    if (fit?.value.family !== 'lognormal') return;
    expect(fit.value.p50).toBeCloseTo(45, 0);
    // p95 = p50 · e^(1.645 σ): about 87 s for σ 0.4.
    expect(fit.value.p95 / fit.value.p50).toBeGreaterThan(1.6);
    expect(fit.value.p95 / fit.value.p50).toBeLessThan(2.3);
    expect(fit.note).toMatch(/from 9 samples: median 45 s \(95% interval of the median/);
  });

  test('from 20 samples the p95 is read from the samples, from 100 the p99 too', () => {
    const fit = fitSamples(lognormal(60, 0.5, 120), 'ms');
    expect(fit?.note).toMatch(/read from the samples/);
    expect(fit?.value).toHaveProperty('p99');
  });
});

describe('sameBehaviour', () => {
  const d = (p50: number, p95: number) => ({ family: 'lognormal' as const, unit: 's' as const, p50, p95 });

  test('two fits of one distribution are the same; a median twice as long is not', () => {
    expect(sameDistributions({ value: d(45, 80), samples: 5 }, { value: d(52, 95), samples: 5 }, 2, 's').same).toBe(
      true,
    );
    expect(sameDistributions({ value: d(45, 80), samples: 5 }, { value: d(90, 150), samples: 5 }, 2, 's').same).toBe(
      false,
    );
  });

  test('few samples widen the tolerance of the median, and leave the p95 out', () => {
    const r = sameDistributions({ value: d(45, 80), samples: 1 }, { value: d(70, 200), samples: 1 }, 2, 's');
    expect(r.same).toBe(true);
    expect(r.tolerance).toMatch(/not compared \(fewer than 10 samples/);
  });

  test('rates: 2 in 100 against 3 in 100 are the same; 0 in 200 against 20 in 200 are not', () => {
    expect(sameRates({ value: { rate: 0.02 }, samples: 100 }, { value: { rate: 0.03 }, samples: 100 }).same).toBe(true);
    expect(sameRates({ value: { rate: 0 }, samples: 200 }, { value: { rate: 0.1 }, samples: 200 }).same).toBe(false);
  });

  test('transient 5xx: their forms are compared where both sides saw one; a side that kept none says nothing of them', () => {
    const html = { value: { rate: 0.01, answers: [{ status: 502, form: 'html', weight: 1 }] }, samples: 200 };
    const text = { value: { rate: 0.01, answers: [{ status: 502, form: 'text', weight: 1 }] }, samples: 200 };
    const unkept = { value: { rate: 0.01, answers: [] }, samples: 200 };
    expect(sameBehaviour('transient.errors', html, text).same).toBe(false);
    expect(sameBehaviour('transient.errors', html, unkept).same).toBe(true);
  });

  test('what a target chooses is compared exactly; a copyright example is not behaviour', () => {
    expect(
      sameBehaviour(
        'refusal.bad_page',
        { value: { status: 400, error_code: 'A' } },
        { value: { status: 400, error_code: 'B' } },
      ).same,
    ).toBe(false);
    expect(
      sameBehaviour(
        'copyright.items',
        { value: { form: 'object', text_field: 'notice', example: { notice: 'a' } } },
        { value: { form: 'object', text_field: 'notice', example: { notice: 'b' } } },
      ).same,
    ).toBe(true);
  });
});

/** A twin whose listed behaviours are observed on a made-up target with the values given. */
function observedTwin(name: string, values: Partial<Record<BehaviourKey, unknown>>, samples = 5): Twin {
  const file = structuredClone(builtinTwin('default')) as unknown as {
    name: string;
    behaviours: Record<string, unknown>;
  };
  file.name = name;
  for (const [key, value] of Object.entries(values))
    file.behaviours[key] = {
      value,
      provenance: {
        source: 'observed',
        target: 'https://staging.example/v1',
        observed_at: '2026-11-02T03:00:00Z',
        samples,
        evidence: [{ method: 'GET', url: '/videos/', status: 200 }],
      },
    };
  return parseTwin(file);
}

describe('calibrate --diff', () => {
  test('says what changed in behaviour, in words, and what only one calibration saw apart', () => {
    const old = observedTwin('staging@2026-11-01', {
      'duration.generation.text': { family: 'lognormal', unit: 's', p50: 45, p95: 60 },
      'rate_limit.headers': { family: 'ratelimit' },
      'success.status.generateVideo': 200,
      'paging.videos_order': 'newest_first',
    });
    const next = observedTwin('staging@2026-11-02', {
      'duration.generation.text': { family: 'lognormal', unit: 's', p50: 90, p95: 120 },
      'rate_limit.headers': { family: 'x-ratelimit' },
      'success.status.generateVideo': 200,
      'copyright.items': { form: 'string' },
    });
    const d = diffTwins(old, next);
    const text = formatDiff(d);
    expect(d.changes.filter((c) => c.kind === 'changed').map((c) => c.key)).toEqual([
      'rate_limit.headers',
      'duration.generation.text',
    ]);
    expect(text).toContain('rate-limit headers: RateLimit-* → X-RateLimit-*');
    expect(text).toContain('generation time (text): p50 45 s, p95 60 s → p50 90 s, p95 120 s');
    expect(text).toMatch(/order of GET \/videos\/: not observed by staging@2026-11-02/);
    expect(text).toMatch(/copyright items: now observed, strings/);
    expect(diffTwins(old, old).changes).toEqual([]);
  });
});

describe('reading answers', () => {
  test('a presigned URL: S3 names (a lifetime from the signing instant) and plain ones (an epoch)', () => {
    const s3 = presignedQuery([
      new URL(
        'https://bucket.example/v.mp4?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20261102T120000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=ab12',
      ),
    ]);
    expect(s3?.value).toEqual({
      expires: { name: 'X-Amz-Expires', form: 'ttl_seconds', issued: 'X-Amz-Date' },
      signature: { name: 'X-Amz-Signature' },
      fixed: { 'X-Amz-Algorithm': 'AWS4-HMAC-SHA256', 'X-Amz-SignedHeaders': 'host' },
    });
    const plain = presignedQuery([new URL('http://127.0.0.1/d.mp4?expires=1790000000000&signature=ff')]);
    expect(plain?.value).toMatchObject({ expires: { name: 'expires', form: 'epoch_ms' } });
  });

  test('a refusal is named by what was wrong with the request', () => {
    const err = (code: string) => ({ error_code: code, error: 'no' });
    expect(refusalOf(seen({ auth: 'none', status: 401, body: err('X') }), new Map())).toBe(
      'refusal.missing_credentials',
    );
    expect(
      refusalOf(
        seen({ operationId: 'getVideo', params: { video_id: 'nope' }, status: 404, body: err('X') }),
        new Map(),
      ),
    ).toBe('refusal.malformed_id');
    expect(
      refusalOf(seen({ operationId: 'listVideos', query: { page: '0' }, status: 400, body: err('X') }), new Map()),
    ).toBe('refusal.bad_page');
    const setting = '5e77a000-0000-4000-8000-000000000001';
    const form = (fields: string[], text?: string) => ({ fields, setting, text, files: [], counts: {} });
    const settings = new Map([[setting, ['text']]]);
    const gen = (f: ReturnType<typeof form>) =>
      seen({ operationId: 'generateVideo', method: 'POST', form: f, status: 422, body: err('X') });
    expect(refusalOf(gen(form(['text'], '')), settings)).toBe('refusal.empty_text');
    expect(refusalOf(gen(form(['audio_file', 'text'], 'a')), settings)).toBe('refusal.bad_combination');
    expect(refusalOf(gen(form(['pdf_file'])), settings)).toBe('refusal.setting_mismatch');
    expect(
      refusalOf(seen({ status: 429, body: err('INSUFFICIENT_CREDIT'), operationId: 'listVideos' }), settings),
    ).toBeUndefined();
  });
});

describe('writing a twin', () => {
  test('valid, every behaviour either observed with evidence or saying why not, and no key anywhere', () => {
    const key = 'sk-live-0123456789abcdef';
    registerSecret(key);
    const answer = seen({
      operationId: 'listVideos',
      status: 200,
      headers: {
        'x-ratelimit-limit': '5',
        'x-ratelimit-remaining': '4',
        'x-ratelimit-reset': '1790000000',
        'x-echo': key,
      },
      body: { results: [], has_next: false, total_count: 0, page: 1, items_per_page: 50 },
      text: `{"results":[],"note":"${key}"}`,
    });
    const many = Array.from({ length: 4 }, () => answer);
    const findings = extract(many, { baseUrl: 'https://staging.example/v1', timeScale: 1, spec: loadSpec() });
    const file = twinOf(findings, builtinTwin('default'), {
      name: 'staging@2026-11-02',
      baseUrl: 'https://staging.example/v1',
      createdBy: 'test',
      profile: 'read-only',
      creditsSpent: 0,
      requests: 4,
      wallSeconds: 1,
      sources: ['live'],
      timeScale: 1,
    });
    expect(validateTwin(file)).toEqual([]);
    const text = JSON.stringify(file);
    expect(text).not.toContain(key);
    const b = parseTwin(file).behaviours;
    expect(b['rate_limit.headers']).toMatchObject({
      value: { family: 'x-ratelimit', reset: 'epoch_seconds' },
      provenance: { source: 'observed', samples: 4 },
    });
    expect(b['success.status.generateVideo'].provenance).toMatchObject({
      source: 'decision',
      note: expect.stringMatching(
        /^not observed: profile read-only: generations and conversions \(credits\) only in the full profile/,
      ),
    });
    // What the interface states stays the interface's, with why it was not observed.
    expect(b['rate_limit.A.limit'].provenance).toMatchObject({ source: 'interface', section: '8.1' });
    expect(file.calibration?.unobserved?.length).toBeGreaterThan(40);
  });

  test('why a behaviour is not observed: the profile first, else what was seen', () => {
    expect(unobservedReason('rate_limit.B.style', 'x', 'read-only')).toMatch(/only in the no-credit profile/);
    expect(unobservedReason('rate_limit.B.style', 'no 429', 'no-credit')).toBe('no 429');
    expect(unobservedReason('copyright.items', 'none read', 'recorded')).toBe(
      'not in the recorded traffic (none read)',
    );
  });
});

function seen(s: Partial<Seen>): Seen {
  return {
    source: 'live',
    method: 'GET',
    url: 'https://staging.example/v1/videos/',
    path: '/videos/',
    params: {},
    query: {},
    auth: 'key',
    requestHeaders: {},
    status: 200,
    headers: {},
    text: '',
    body: undefined,
    at: 1_790_000_000_000,
    ms: 10,
    ...s,
  };
}
