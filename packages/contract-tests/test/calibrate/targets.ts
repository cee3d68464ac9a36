// The targets the calibration tests observe, each started here on a free port at a time scale: the
// independent servers of the fixtures, and the sandbox with a personality (as a target only). And the
// commands as the bin runs them, in this process, their output kept.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_KEYS, startSandbox } from '@videogen/sandbox';
import type { BehaviourKey, Twin } from '@videogen/openapi/twin';
import { sameBehaviour } from '../../src/calibrate/same.ts';
import { calibrateCommand } from '../../src/commands/calibrate.ts';
import { compareCommand } from '../../src/commands/compare.ts';
import { SERVERS, startIndependentServer } from '../fixtures/independent/servers.ts';

export interface Target {
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startTarget(
  name: keyof typeof SERVERS | 'alternative' | 'default',
  timeScale: number,
): Promise<Target> {
  if (name === 'alternative' || name === 'default') {
    const sb = await startSandbox({ port: 0, timeScale, personality: name });
    return {
      env: {
        VIDEO_API_BASE_URL: sb.baseUrl,
        VIDEO_API_KEY: SANDBOX_KEYS.acme,
        VIDEO_API_OTHER_ACCOUNT_KEY: SANDBOX_KEYS.globex,
      },
      close: () => sb.close(),
    };
  }
  const srv = await startIndependentServer(SERVERS[name], { timeScale });
  return {
    env: { VIDEO_API_BASE_URL: srv.baseUrl, VIDEO_API_KEY: srv.keys.main, VIDEO_API_OTHER_ACCOUNT_KEY: srv.keys.other },
    close: () => srv.close(),
  };
}

export interface Ran {
  code: number;
  out: string;
  err: string;
}

export const workDir = () => mkdtempSync(join(tmpdir(), 'calibrate-test-'));

/** `videogen-contract calibrate ARGS` in this process, with `env` as its whole environment. */
export async function calibrate(args: string[], env: Record<string, string>): Promise<Ran> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await calibrateCommand(args, { out: (t) => out.push(t), err: (t) => err.push(t) }, env);
  return { code, out: out.join(''), err: err.join('') };
}

/** `videogen-contract compare ARGS` in this process. */
export async function compare(args: string[], env: Record<string, string>): Promise<Ran> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await compareCommand(args, { out: (t) => out.push(t), err: (t) => err.push(t) }, env);
  return { code, out: out.join(''), err: err.join('') };
}

/**
 * Where a calibrated twin differs from what it must hold: every expected behaviour observed and the same
 * (sameBehaviour, with the twin's own sample counts against an exact truth), the keys that cannot be
 * observed at this time scale excepted. A list of lines, empty when the twin is right.
 */
export function misreadings(
  twin: Twin,
  expected: Partial<Record<BehaviourKey, unknown>>,
  except: string[] = [],
): string[] {
  const out: string[] = [];
  const calibration = twin.calibration as
    | { time_scale?: number; local_round_trip_ms?: { p50: number; p95: number } }
    | undefined;
  const scale = calibration?.time_scale ?? 1;
  // A latency is this busy machine's too: twice its own round trip to an empty local server, as measured.
  const own = calibration?.local_round_trip_ms ?? { p50: 5, p95: 50 };
  const latencyNoiseMs = { p50: Math.max(5, 2 * own.p50), p95: Math.max(50, 2 * own.p95) };
  for (const [key, value] of Object.entries(expected) as Array<[BehaviourKey, unknown]>) {
    if (except.includes(key)) continue;
    const b = twin.behaviours[key];
    if (b.provenance.source !== 'observed') {
      out.push(`${key}: not observed (${b.provenance.note ?? ''})`);
      continue;
    }
    if (key === 'transient.errors') {
      const v = b.value as { rate: number; answers: Array<{ status: number; form: string }> };
      const want = value as { rate: number | string; answers?: Array<{ status: number; form: string }> };
      const ok =
        want.rate === 0
          ? v.rate === 0
          : v.rate > 0 && v.answers.every((a) => want.answers?.some((w) => w.status === a.status && w.form === a.form));
      if (!ok) out.push(`${key}: ${JSON.stringify(v)}, expected ${JSON.stringify(want)}`);
      continue;
    }
    const s = sameBehaviour(
      key,
      { value, samples: 1000 },
      { value: b.value, samples: b.provenance.samples },
      { timeScale: scale, latencyNoiseMs },
    );
    if (!s.same)
      out.push(
        `${key}: ${JSON.stringify(b.value)}, expected ${JSON.stringify(value)}${s.tolerance ? ` [${s.tolerance}]` : ''}`,
      );
  }
  return out;
}
