// @module-tag full/matrix
// Calibration against servers it was not tuned to (issue 33 item 6): each independent server of the
// fixtures (written from the interface alone, choosing otherwise wherever it is silent) is calibrated
// with the full profile, and the twin must hold what the server does, behaviour by behaviour, measured
// ones within calibrate's own tolerances; the sandbox's `alternative` personality must come out as the
// built-in alternative twin. Each server at a time scale that keeps its limiter probes readable on a
// busy machine (a spacing interval of 100 ms at least).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BEHAVIOUR_KEYS, builtinTwin, readTwin, type BehaviourKey, type Twin } from '@videogen/openapi/twin';
import { expectedBehaviours } from '../fixtures/independent/expected.ts';
import { SERVERS } from '../fixtures/independent/servers.ts';
import { calibrate, misreadings, startTarget, workDir, type Target } from './targets.ts';

const TIME_SCALE = 20;
const dir = workDir();

describe.each([
  // Generations of a few service seconds end before the concurrency probe's requests are answered at 20×.
  {
    name: 'gateway' as const,
    budget: 10,
    except: ['concurrency.limit', 'latency.generateVideo', 'latency.createConversion'],
  },
  { name: 'storage' as const, budget: 8, except: ['latency.generateVideo', 'latency.createConversion'] },
])('$name', ({ name, budget, except }) => {
  let target: Target;
  let twin: Twin;
  let output: string;
  beforeAll(async () => {
    target = await startTarget(name, TIME_SCALE);
    const file = join(dir, `${name}.twin.json`);
    const r = await calibrate(
      ['--out', file, '--time-scale', String(TIME_SCALE), '--budget', String(budget)],
      target.env,
    );
    output = r.out;
    expect(r.code, r.err.slice(-2000)).toBe(0);
    twin = readTwin(file);
  });
  afterAll(() => target?.close());

  test('the twin holds what the server does wherever the interface is silent', () => {
    expect(misreadings(twin, expectedBehaviours(SERVERS[name]), except)).toEqual([]);
  });

  test('every behaviour not observed says why, and the twin holds no key', () => {
    for (const key of BEHAVIOUR_KEYS) {
      const p = twin.behaviours[key].provenance;
      if (p.source !== 'observed') expect(p.note, key).toMatch(/^not observed: ./);
    }
    expect(twin.calibration).toMatchObject({ profile: 'full', time_scale: TIME_SCALE });
    const text = readFileSync(join(dir, `${name}.twin.json`), 'utf8');
    expect(text).not.toContain(target.env.VIDEO_API_KEY);
    expect(text).not.toContain(target.env.VIDEO_API_OTHER_ACCOUNT_KEY);
    expect(output).toMatch(/^Calibrated .*: \d+ of 71 behaviours observed/);
    const spent = Number(/Spent (\d+) credit/.exec(output)?.[1]);
    expect(spent).toBeLessThanOrEqual(budget);
  });
});

describe('the sandbox’s alternative personality', () => {
  let target: Target;
  let twin: Twin;
  beforeAll(async () => {
    target = await startTarget('alternative', TIME_SCALE);
    const file = join(dir, 'alternative.twin.json');
    const r = await calibrate(['--out', file, '--time-scale', String(TIME_SCALE)], target.env);
    expect(r.code, r.err.slice(-2000)).toBe(0);
    twin = readTwin(file);
  });
  afterAll(() => target?.close());

  test('calibrates to the built-in alternative twin in everything it observes', () => {
    const builtin = builtinTwin('alternative');
    const expected = Object.fromEntries(
      BEHAVIOUR_KEYS.filter((k) => !k.startsWith('latency.')).map((k) => [k, builtin.behaviours[k].value]),
    ) as Partial<Record<BehaviourKey, unknown>>;
    // What a calibration cannot observe stays unobserved (and so is not compared).
    const unobservable = [
      'refusal.oversize_upload',
      'refusal.generation_no_credit',
      'refusal.payload_too_large',
      'retry_after.unavailable',
      'lifecycle.expire_after_seconds',
    ];
    expect((twin.calibration as { unobserved?: string[] }).unobserved).toEqual(unobservable);
    expect(misreadings(twin, expected, unobservable)).toEqual([]);
  });
});
