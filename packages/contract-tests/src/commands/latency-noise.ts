// The latency noise floor that compare and calibrate --diff both read (--latency-noise MS, or
// CONTRACT_LATENCY_NOISE): real milliseconds of a round trip that are the measurement's (loopback, a
// busy machine's scheduling), not the target's. Each command raises it to twice the round trips its
// calibrations measured beside themselves.
import { UsageError } from '../cli/target.ts';

export const LATENCY_NOISE_OPTION = { 'latency-noise': { type: 'string' } } as const;

/** The floor given, in real ms; undefined when neither the option nor the variable is set. */
export function latencyNoiseOf(value: string | undefined, env: NodeJS.ProcessEnv): number | undefined {
  const text = value ?? (env.CONTRACT_LATENCY_NOISE || undefined);
  if (text === undefined) return undefined;
  const noise = Number(text);
  if (!(noise >= 0))
    throw new UsageError(`--latency-noise / CONTRACT_LATENCY_NOISE takes milliseconds ≥ 0, not ${text}`);
  return noise;
}
