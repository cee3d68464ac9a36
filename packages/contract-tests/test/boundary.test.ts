// The boundary phase (src/generation/boundary*.ts): its values and their oracles read from the document
// and the rules; deterministic and before the random requests; within --max-time at the interface's
// real-time limits in every profile; what each profile may send; a failure named by its class of input,
// shrunk to the one class that fails, written as a bundle that --replay re-sends (a hang too).
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ASPECT_RATIOS, LANGUAGES, UPLOAD_LIMITS } from '@videogen/openapi/rules';
import { startSandboxTarget } from '../src/cli/launch.ts';
import { replay } from '../src/commands/replay.ts';
import { checkId } from '../src/engine/catalogue.ts';
import { loadContract } from '../src/engine/contract.ts';
import { boundaryCases, positiveCases, type BoundaryContext } from '../src/generation/boundary-cases.ts';
import { valueTier } from '../src/generation/boundary.ts';
import { enumEdges, integerEdges, nearMisses } from '../src/generation/edges.ts';
import { makeBundle } from '../src/report/failures.ts';
import { PROFILES, type Profile, type TargetConfig } from '../src/shapes.ts';
import { pathOf, queryOf, startBreakingProxy, type Break } from './breaking-proxy.ts';
import { failures, generation, runSuite, SELF_TEST_TIME_SCALE } from './harness.ts';

const contract = loadContract();
const source = {
  id: '71de0a00-0000-4000-8000-000000000001',
  options: {
    is_convertible: true,
    current_language: 'ja',
    current_aspect_ratio: '16:9',
    available_languages: LANGUAGES.filter((l) => l !== 'ja'),
  },
};
const ctx = (profile: Profile, over: Partial<BoundaryContext> = {}): BoundaryContext => ({
  contract,
  target: { kind: 'external', stateful: true },
  profile,
  settings: {
    text: '5e77a000-0000-4000-8000-000000000001',
    'image_files+text': '5e77a000-0000-4000-8000-000000000007',
    pdf_file: '5e77a000-0000-4000-8000-000000000002',
    video_file: '5e77a000-0000-4000-8000-000000000006',
  },
  videos: [source.id],
  source,
  plans: { main: 'business' },
  otherKey: false,
  sizes: false,
  ...over,
});
const sent = (cases: ReturnType<typeof boundaryCases>) =>
  cases.flatMap((c) => {
    const b = c.case.body;
    return b?.kind === 'json' ? [b.value] : b?.kind === 'raw' ? [b.text] : [];
  });

describe('the boundary phase’s values and oracles', () => {
  it('an integer without a maximum: the minimum, one below, and integers past any page (2^31 − 1 … 10^18 as text)', () => {
    const e = integerEdges(1, undefined);
    expect(e.allowed.map((x) => x.value)).toEqual([
      '1',
      '2147483647',
      '2147483648',
      '9007199254740992',
      '1000000',
      '1000000000000000000',
    ]);
    expect(e.refused.map((x) => x.value)).toContain('0');
    expect(integerEdges(1, 50).refused.map((x) => x.value)).toContain('51');
  });

  it('an enum’s edges (first, last, one per shape) and near misses that are never one of its values', () => {
    expect(enumEdges(LANGUAGES).edge).toEqual(['ja', 'zh-Hans', 'el']);
    expect(enumEdges(ASPECT_RATIOS).edge).toEqual(['16:9', '9:16', '4:3', '21:9']);
    expect(nearMisses('zh-Hans', LANGUAGES).map((m) => m.value)).toEqual([
      'ZH-HANS',
      'zh-hans',
      ' zh-Hans ',
      'zh-Hanu',
    ]);
    for (const v of [...LANGUAGES, ...ASPECT_RATIOS])
      for (const m of nearMisses(v, [...LANGUAGES, ...ASPECT_RATIOS]))
        expect([...LANGUAGES, ...ASPECT_RATIOS]).not.toContain(m.value);
  });

  it('covers every declared parameter and field: page on both lists, video_id on three operations, every language and aspect ratio, every extension of every file field', () => {
    const cases = boundaryCases(ctx('no-credit'));
    const ops = (pred: (c: (typeof cases)[number]) => boolean) =>
      new Set(cases.filter(pred).map((c) => c.case.operationId));
    expect(ops((c) => 'page' in c.case.query)).toEqual(new Set(['listVideos', 'listVideoSettings']));
    expect(ops((c) => 'video_id' in c.case.path)).toEqual(
      new Set(['getVideo', 'getConversionOptions', 'createConversion']),
    );
    const bodies = JSON.stringify(sent(cases));
    for (const v of [...LANGUAGES, ...ASPECT_RATIOS]) expect(bodies).toContain(JSON.stringify(v));
    const names = cases.flatMap((c) =>
      c.case.body?.kind === 'form' ? c.case.body.parts.flatMap((p) => (p.file ? [p.file.filename] : [])) : [],
    );
    for (const l of Object.values(UPLOAD_LIMITS))
      for (const ext of new Set(Object.values(l.extensions).flat()))
        expect(
          names.some((n) => n.endsWith(ext)),
          ext,
        ).toBe(true);
  });

  it('obeys the profile: GET only in read-only; a POST only where a conforming target refuses it (no credit); the valid ones only as positives', () => {
    expect(boundaryCases(ctx('read-only')).every((c) => contract.operation(c.case.operationId)?.method === 'GET')).toBe(
      true,
    );
    for (const profile of PROFILES)
      for (const c of boundaryCases(
        ctx(profile, { sizes: true, otherKey: true, plans: { main: 'business', other: 'personal' } }),
      ))
        if (contract.operation(c.case.operationId)?.method !== 'GET')
          expect({
            classes: c.classes,
            expect: c.case.expect.kind,
            decided: ('decided' in c.case.expect && c.case.expect.decided) || undefined,
          }).toMatchObject({ expect: 'refused', decided: undefined });
    const positives = positiveCases(ctx('full', { sizes: true }));
    expect(positives.length).toBeLessThanOrEqual(3);
    expect(positives.every((c) => c.case.expect.kind === 'accepted')).toBe(true);
  });

  it('is deterministic, and fits in the default --max-time at the interface’s real-time limits in every profile; its value tier at the sandbox’s pace', () => {
    expect(JSON.stringify(boundaryCases(ctx('full')))).toEqual(JSON.stringify(boundaryCases(ctx('full'))));
    const target = (timeScale: number) =>
      ({
        kind: 'external',
        stateful: true,
        timeScale,
        generation: generation(1),
        fixtures: {},
      }) as unknown as TargetConfig;
    for (const profile of PROFILES) {
      const real = valueTier({ target: target(1), profile });
      expect(real.edgeMs, profile).toBeLessThanOrEqual(120_000);
      // (Read-only has no value tier: its GET requests are all edges.)
      if (real.value) expect(real.fits, profile).toBe(false);
      expect(valueTier({ target: target(SELF_TEST_TIME_SCALE), profile }).fits, profile).toBe(true);
    }
  });
});

describe('the boundary phase against a target', { tags: ['full/runs'] }, () => {
  it('sends the same requests whatever the seed, before the random ones, and fails nothing against the sandbox', async () => {
    const sandbox = await startSandboxTarget(SELF_TEST_TIME_SCALE);
    try {
      const boundary = async (seed: number) => {
        const { run, results } = await runSuite(
          { ...sandbox.config, generation: generation(seed, 2) },
          { profile: 'read-only', operations: ['listVideos', 'getVideo'] },
        );
        expect(failures(results)).toEqual([]);
        const first = run.exchanges.findIndex((e) => e.scenario.startsWith('generated'));
        const last = run.exchanges.findLastIndex((e) => e.scenario.startsWith('boundary'));
        expect(last).toBeLessThan(first);
        return run.exchanges.filter((e) => e.scenario.startsWith('boundary')).map((e) => `${e.method} ${e.path}`);
      };
      const one = await boundary(1);
      expect(one).toContain('GET /videos/?page=2147483648');
      expect(await boundary(2)).toEqual(one);
    } finally {
      await sandbox.close();
    }
  });

  it('names a failure by its class of input, shrunk to the one class that fails; its bundle replays it, a hang too', async () => {
    const sandbox = await startSandboxTarget(SELF_TEST_TIME_SCALE);
    const held: ServerResponse[] = [];
    // A service that answers 500 to a language in capitals, and never ends the body for page 10^6.
    const brk: Break = {
      request: (req) => {
        if (
          req.method === 'POST' &&
          /^\{/.test(req.body.toString()) &&
          JSON.parse(req.body.toString()).language === 'JA'
        )
          return {
            status: 500,
            headers: { 'content-type': 'application/json' },
            text: JSON.stringify({ error_code: 'UNKNOWN_ERROR', error: 'KeyError' }),
          };
        if (pathOf(req) === '/v1/video-settings/' && queryOf(req).get('page') === '1000000')
          return (res: ServerResponse) => {
            res.writeHead(200, { 'content-type': 'application/json' });
            res.write('{');
            held.push(res);
          };
        return undefined;
      },
    };
    const proxy = await startBreakingProxy(sandbox.handle.origin, brk);
    try {
      const config = {
        ...sandbox.config,
        baseUrl: proxy.baseUrl,
        limits: { bodyTimeoutMs: 1000, bodyDeadlineMs: 2000 },
      };
      // (The full profile: in no-credit the credit guard sends no create after a 500 to one, which may
      // have spent a credit, so a failing conversion is reported unshrunk there.)
      const { byId } = await runSuite(
        { ...config, generation: generation(1, 0) },
        {
          profile: 'full',
          operations: ['createConversion', 'listVideoSettings'],
          checks: (c) => c.name === 'boundary_values',
        },
      );
      const conversion = byId.get('createConversion › boundary_values');
      expect(conversion?.state).toBe('failed');
      expect(conversion?.message).toMatch(/language: another case \("JA"\) → 500/);
      expect(conversion?.inputClasses).toEqual(['language: another case ("JA")']);
      // Shrunk: the request that carried it with an aspect ratio is replaced by the language alone.
      expect(conversion?.message).toMatch(
        /shrunk from: language: another case \("JA"\) \+ aspect_ratio: the first value \+ an unknown field/,
      );
      const bundle = makeBundle(checkId(conversion!), conversion!.message ?? '', config, conversion!.exchanges ?? []);
      expect(bundle.exchanges.map((e) => e.request.json)).toEqual([{ language: 'JA' }]);
      expect((await replay(bundle, config)).reproduced).toBe(true);

      const hang = byId.get('listVideoSettings › boundary_values');
      expect(hang?.state).toBe('failed');
      expect(hang?.message).toMatch(/page: 10\^6 → no answer/);
      const held1 = makeBundle(checkId(hang!), hang!.message ?? '', config, hang!.exchanges ?? []);
      expect(held1.exchanges.map((e) => `${e.request.method} ${e.request.path} ${e.response.status}`)).toEqual([
        'GET /video-settings/?page=1000000 0',
      ]);
      expect((await replay(held1, config)).reproduced).toBe(true);
    } finally {
      for (const res of held) res.destroy();
      await proxy.close();
      await sandbox.close();
    }
  });
});
