// Servers the suite was not tuned to (issue 33 item 6). Each independent server of the fixtures (written
// from the interface alone, choosing otherwise wherever it is silent) and the sandbox's `alternative`
// personality is calibrated (full profile), the twin is held to what the server does, behaviour by
// behaviour (measured ones within calibrate's own tolerances); then `compare --twin` sends the same
// scenarios and probes to the server and to a sandbox started from that twin, and must find no
// difference. Each at a time scale that keeps the limiter probes readable on a busy machine (a spacing
// interval of 100 ms at least); latencies are the machine's at that scale, and compared by medians.
// Each server is a test file of its own (independent-NAME.test.ts), a process of its own: two calibrations
// in one process read each other's work (a limiter inference takes seconds of CPU) as the target's timing.
// scripts/test.mjs runs them two at a time at most, in lanes of their own: three side by side beside the
// other stream's files misread limiters and latencies at a load of 20.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { BEHAVIOUR_KEYS, builtinTwin, readTwin, type BehaviourKey, type Twin } from '@videogen/openapi/twin';
import { expectedBehaviours } from '../fixtures/independent/expected.ts';
import { SERVERS } from '../fixtures/independent/servers.ts';
import { calibrate, compare, misreadings, startTarget, workDir, type Target } from './targets.ts';

const TIME_SCALE = 20;
const dir = workDir();

/** What no calibration observes (hours, 50 MB uploads, an account without credit, a 503 of load). */
const UNOBSERVABLE = [
  'refusal.oversize_upload',
  'refusal.generation_no_credit',
  'refusal.payload_too_large',
  'retry_after.unavailable',
  'lifecycle.expire_after_seconds',
];

export type CaseName = 'gateway' | 'storage' | 'alternative';

interface Case {
  name: CaseName;
  /** Credits: the gateway's transient 5xx on creates count as maybe spent (at most once), so it needs more. */
  budget: number;
  /** What this server's twin must hold. */
  expected: () => Partial<Record<BehaviourKey, unknown>>;
  /** Behaviours this server does not let a calibration see at this time scale, and why. */
  unseen: string[];
  /** Measured, but within this machine's own scheduling noise at this time scale: compare still holds them. */
  noisy?: string[];
}

const alternative = () =>
  Object.fromEntries(BEHAVIOUR_KEYS.map((k) => [k, builtinTwin('alternative').behaviours[k].value])) as Partial<
    Record<BehaviourKey, unknown>
  >;

const CASES: Case[] = [
  // Its generations take seconds: at 20× they end before the concurrency probe's requests are answered.
  {
    name: 'gateway',
    budget: 14,
    expected: () => expectedBehaviours(SERVERS.gateway),
    unseen: ['concurrency.limit', 'refusal.generation_concurrency', 'retry_after.concurrency'],
    // Its generations and conversions take 5-20 s: 0.25-1 s real at 20×, one sample per mode, which a busy
    // CI machine misread by more than the tolerance of a single sample (5.92 s for a median of 14 s).
    noisy: BEHAVIOUR_KEYS.filter((k) => k.startsWith('duration.')),
  },
  // A budget of 6 leaves out the modes the suite does not generate (their 90 s generations): both sides alike.
  {
    name: 'storage',
    budget: 6,
    expected: () => expectedBehaviours(SERVERS.storage),
    unseen: ['duration.generation.pdf_file', 'duration.generation.pptx_file', 'rules.request_fields'],
  },
  { name: 'alternative', budget: 10, expected: alternative, unseen: [] },
];

/** The calibration and the comparison of one server, as a test file runs them. */
export function independentServer(which: CaseName) {
  const found = CASES.find((c) => c.name === which);
  if (!found) throw new Error(`no independent server ${which}`);
  const { name, budget, expected, unseen, noisy = [] } = found;
  let target: Target;
  let twin: Twin;
  let output: string;
  const file = join(dir, `${name}.twin.json`);
  beforeAll(async () => {
    target = await startTarget(name, TIME_SCALE);
    const r = await calibrate(
      ['--out', file, '--time-scale', String(TIME_SCALE), '--budget', String(budget)],
      target.env,
    );
    output = r.out;
    expect(r.code, r.err.slice(-2000)).toBe(0);
    twin = readTwin(file);
    // A calibration at 20×: 30–50 s on two quiet cores (npm run fidelity), more under a load of 30.
  }, 300_000);
  afterAll(() => target?.close());

  test('calibrate: the twin holds what the server does wherever the interface is silent', () => {
    // Latencies are this machine's as much as the server's at 20× (the creates' also its work on their
    // bodies: a form parsed, a video stored): measured, not held to the truth here (npm run fidelity, at 4×).
    // The others' are held within twice this machine's own round trip as measured beside the calibration,
    // which a load of 30 outran (a gateway's 60 ms of service time is 3 ms real at 20×; read 13 ms): at 20×
    // no latency is held to the truth here, compare still holds the twin's to the server's.
    const latencies = BEHAVIOUR_KEYS.filter((k) => k.startsWith('latency.'));
    expect(misreadings(twin, expected(), [...UNOBSERVABLE, ...unseen, ...noisy, ...latencies])).toEqual([]);
    // Every behaviour it could not observe says why; the twin holds no key; the spend stays in the budget.
    for (const key of BEHAVIOUR_KEYS) {
      const p = twin.behaviours[key].provenance;
      if (p.source !== 'observed') expect(p.note, key).toMatch(/^not observed: ./);
    }
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(target.env.VIDEO_API_KEY);
    expect(text).not.toContain(target.env.VIDEO_API_OTHER_ACCOUNT_KEY);
    expect(output).toMatch(/^Calibrated .*: \d+ of 71 behaviours observed/);
    expect(Number(/Spent (\d+) credit/.exec(output)?.[1])).toBeLessThanOrEqual(budget);
  });

  test('compare: the server and a sandbox started from its twin answer alike', async () => {
    const json = join(dir, `${name}.compare.json`);
    const html = join(dir, `${name}.compare.html`);
    // This shared machine (2 cores, many builds) answers even an empty local request in up to 25 ms, and a
    // server in this process in 10–60 ms: at 20× that is up to 1.2 s of service time. The latencies are
    // compared with that noise (--latency-noise, real ms); the fidelity script measures them at 4×.
    const r = await compare(
      [
        ...['--twin', file, '--time-scale', String(TIME_SCALE), '--budget', String(budget)],
        ...['--latency-noise', '60', '--json', json, '--html', html],
      ],
      target.env,
    );
    expect(r.code, `${r.out}\n${r.err.slice(-1500)}`).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      differences: number;
      behaviours: Array<{ key: string; verdict: string }>;
    };
    expect(r.out).toMatch(/The twin behaves as the target in everything compared/);
    expect(report.differences).toBe(0);
    // Compared, not skipped: at least every behaviour the calibration observed and the interface leaves open.
    expect(report.behaviours.filter((b) => b.verdict === 'same').length).toBeGreaterThanOrEqual(55);
    expect(readFileSync(html, 'utf8')).toMatch(/<h1>Twin comparison<\/h1>/);
  }, 300_000);
}
