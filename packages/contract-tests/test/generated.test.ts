// @module-tag full/runs
// Generated requests (src/generation/): a service that breaks only on inputs no hand-written scenario
// sends is caught with generation and missed without it; the failure is shrunk to its smallest request
// and bundled for --replay; a seed reproduces the same requests. (Against the independent servers the
// suite holds on, both personalities under every limiter style, generation adds no interface failure:
// alternative.test.ts runs them with generation on.)
import { describe, expect, it } from 'vitest';
import { startSandboxTarget } from '../src/cli/launch.ts';
import { replay } from '../src/commands/replay.ts';
import { checkId } from '../src/engine/catalogue.ts';
import { makeBundle } from '../src/report/failures.ts';
import type { TargetConfig } from '../src/shapes.ts';
import { pathOf, queryOf, startBreakingProxy, type Break } from './breaking-proxy.ts';
import { failures, generation, runSuite, SELF_TEST_TIME_SCALE } from './harness.ts';

/** A service that answers 500 to a page of 10 or more of its video list: no hand-written check asks for one. */
const largePages: Break = {
  request: (req) =>
    req.method === 'GET' &&
    pathOf(req) === '/v1/videos/' &&
    /^\d+$/.test(queryOf(req).get('page') ?? '') &&
    Number(queryOf(req).get('page')) >= 10
      ? {
          status: 500,
          headers: { 'content-type': 'application/json' },
          text: JSON.stringify({ error_code: 'UNKNOWN_ERROR', error: 'page out of range' }),
        }
      : undefined,
};

async function behindProxy<T>(
  brk: Break,
  fn: (config: TargetConfig) => Promise<T>,
  options: Record<string, unknown> = {},
) {
  const sandbox = await startSandboxTarget(SELF_TEST_TIME_SCALE, {}, options);
  const proxy = await startBreakingProxy(sandbox.handle.origin, brk);
  try {
    return await fn({ ...sandbox.config, baseUrl: proxy.baseUrl });
  } finally {
    await proxy.close();
    await sandbox.close();
  }
}

// Each test has its own sandbox, and mostly waits: side by side.
describe.concurrent('generated requests', () => {
  it('catch a 500 that only generated inputs meet, shrunk to its smallest request; missed without generation; the bundle replays it', async () => {
    await behindProxy(largePages, async (config) => {
      const operations = ['listVideos'];
      const without = await runSuite(config, { operations, profile: 'read-only' });
      expect(failures(without.results)).toEqual([]);

      const generated = await runSuite({ ...config, generation: generation(3) }, { operations, profile: 'read-only' });
      const failed = generated.byId.get('listVideos › generated_positive_data_conformance');
      expect(failed?.state, failed?.message).toBe('failed');
      // fast-check shrank the page to the boundary: the smallest page that fails.
      expect(failed!.message).toMatch(
        /smallest failing request: page=10 \(\d+ shrinking steps, \d+ requests; the first failing one: page=\d+/,
      );
      expect(generated.byId.get('listVideos › not_a_server_error')?.state).toBe('failed');
      // Its bundle holds the one shrunk request, not every generated one, and --replay reproduces it.
      const bundle = makeBundle(checkId(failed!), failed!.message ?? '', config, failed!.exchanges ?? []);
      expect(bundle.exchanges.map((e) => `${e.request.method} ${e.request.path}`)).toEqual(['GET /videos/?page=10']);
      const again = await replay(bundle, config);
      expect(again.reproduced).toBe(true);
    });
  });

  it('a seed reproduces the same requests', async () => {
    // What was sent, per rate class (the two classes' lanes run side by side; each class's order is the seed's).
    const requests = async () =>
      behindProxy({}, async (config) => {
        // (The random phase: the boundary phase sends the same requests whatever the seed, boundary.test.ts.)
        const { run } = await runSuite(
          { ...config, generation: { ...generation(11, 6), boundary: false } },
          { operations: ['listVideoSettings', 'getVideo', 'createConversion', 'generateVideo'], profile: 'no-credit' },
        );
        const sent = (method: string) =>
          run.exchanges
            .filter((e) => e.scenario.startsWith('generated') && (e.method === 'GET') === (method === 'GET'))
            .map((e) => {
              const r = e.request!;
              const form = r.form?.map((p) =>
                p.file ? `${p.name}=${p.file.filename}:${p.file.size}` : `${p.name}=${p.value}`,
              );
              return `${e.method} ${e.path} ${JSON.stringify(r.headers ?? {})} ${JSON.stringify(r.json ?? r.raw ?? form ?? '')}`;
            });
        return { get: sent('GET'), post: sent('POST') };
      });
    const first = await requests();
    expect(first.get.length).toBeGreaterThan(15);
    expect(first.post.length).toBeGreaterThan(10);
    const second = await requests();
    expect(second.get).toEqual(first.get);
    expect(second.post).toEqual(first.post);
  });

  it('generations and conversions the interface allows: in the full profile one per operation, each followed to its end; within a credit budget more, never past it', async () => {
    await behindProxy({}, async (config) => {
      const operations = ['generateVideo', 'createConversion'];
      const random = { ...generation(5), boundary: false };
      const byDefault = await runSuite({ ...config, generation: random }, { operations });
      expect(failures(byDefault.results)).toEqual([]);
      // One accepted request, and the last status read of its video (terminal).
      for (const op of operations) {
        const verdict = byDefault.byId.get(`${op} › generated_positive_data_conformance`);
        // A skip's reason in the failure: which of the lane's requests were left out, and why.
        expect(verdict, verdict?.message).toMatchObject({
          state: 'passed',
          note: expect.stringMatching(/^2 generated/),
        });
      }
      const followed = byDefault.run.exchanges.filter(
        (e) => e.scenario === 'generated requests that spend credits' && e.operationId === 'getVideo',
      );
      expect(followed.length).toBeGreaterThanOrEqual(2);
      expect(followed.map((e) => (e.body as { status?: string }).status)).toContain('completed');
      const budget = 9;
      const within = await runSuite(
        { ...config, generation: { ...generation(10), boundary: false } },
        { operations, budget },
      );
      expect(failures(within.results)).toEqual([]);
      for (const op of operations)
        expect(within.byId.get(`${op} › generated_positive_data_conformance`)).toMatchObject({
          state: 'passed',
          note: expect.stringMatching(/^4 generated/),
        });
      expect(within.run.creditsSpent).toBeGreaterThan(5);
      expect(within.run.creditsSpent).toBeLessThanOrEqual(budget);
    });
  });
});
