// The preflight of a run and of --plan (src/preflight.ts): the keys of the target in the order the run
// uses them, each request held to its account's pace by the run's pacer, and what it learned (the
// target's time scale) written into the target. An operator's mistake comes back as a failure: the
// caller prints it and exits 2 before any check.
import type { Pacer } from '@videogen/openapi/rules';
import { fetchProbe, preflight, type PreflightKey, type PreflightResult, type ProbeSend } from '../preflight.ts';
import { KEY_ENV, type TargetConfig } from '../shapes.ts';

export interface TargetCheck {
  /** The target, with the time scale the preflight read when none was given. */
  config: TargetConfig;
  result: PreflightResult;
}

export interface TargetCheckOptions {
  /** Run without VIDEO_API_KEY on purpose (--keyless). */
  keyless?: boolean;
  /** The time scale was given (--time-scale): it wins over what the target states. */
  timeScaleGiven?: boolean;
  /** How the user named the URL (`--base-url`, `VIDEO_API_BASE_URL`). */
  urlSource?: string;
  pacer?: Pacer;
  send?: ProbeSend;
}

export async function checkTarget(config: TargetConfig, o: TargetCheckOptions = {}): Promise<TargetCheck> {
  if (!config.apiKey && !o.keyless)
    return {
      config,
      result: {
        ok: false,
        kind: 'no-key',
        message: `no API key: set ${KEY_ENV.main} to a key of the account to check, or run only the checks that need none (authentication) with --keyless`,
        requests: 0,
      },
    };
  const keys: PreflightKey[] = [];
  // The accounts as the run's APIs name them (engine/run.ts), so that the pacer holds each on its own.
  const add = (key: string | undefined, variable: string, account: string) => {
    if (key) keys.push({ key, variable, account });
  };
  add(config.apiKey, KEY_ENV.main, 'main');
  add(config.otherAccountKey, KEY_ENV.other, 'other');
  add(config.freePlanKey, KEY_ENV.freePlan, 'free-plan');
  add(config.noCreditKey, KEY_ENV.noCredit, 'no-credit');
  const pacer = config.rateLimited ? o.pacer : undefined;
  const result = await preflight({
    baseUrl: config.baseUrl,
    urlSource: o.urlSource ?? 'VIDEO_API_BASE_URL',
    keys,
    send: o.send ?? fetchProbe,
    pace: pacer
      ? async (account) => {
          const ticket = await pacer.acquire({ account, rateClass: 'B' });
          return (answer) => ticket.settle(answer && { status: answer.status, headers: answer.headers });
        }
      : undefined,
  });
  const learned =
    result.ok && result.timeScale && !o.timeScaleGiven && config.kind === 'external' ? result.timeScale : 0;
  return { config: learned ? { ...config, timeScale: learned } : config, result };
}
