// The preflight of a run and of --plan (src/preflight.ts): the keys of the target in the order the run
// uses them, each request held to its account's pace by the run's pacer, and what it learned (the
// target's time scale) written into the target. An operator's mistake comes back as a failure: the
// caller prints it and exits 2 before any check.
import { BODY_LIMITS, readBody, type Pacer } from '@videogen/openapi/rules';
import { loadSandbox, sandboxAccounts } from '../cli/launch.ts';
import { learnsTimeScale } from '../engine/run.ts';
import { registerSecret } from '../engine/redact.ts';
import { fetchProbe, preflight, type PreflightKey, type PreflightResult, type ProbeSend } from '../preflight.ts';
import { FIXTURE_ENV, KEY_ENV, type FixtureIds, type TargetConfig } from '../shapes.ts';

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
    result.ok && result.timeScale && learnsTimeScale(config, o.timeScaleGiven === true) ? result.timeScale : 0;
  const checked = learned ? { ...config, timeScale: learned } : config;
  if (!result.ok) return { config: checked, result };
  const sandbox = await identifySandbox(checked);
  const requests = result.requests + sandbox.asked;
  if (!sandbox.identified) return { config: checked, result: { ...result, requests } };
  return {
    config: sandbox.identified.config,
    result: { ...result, requests, notes: [...result.notes, sandbox.identified.note] },
  };
}

/**
 * A videogen sandbox, told apart by asking it rather than assumed: only when the run says the target is one
 * (--target-kind sandbox) or its key is one of the sandbox's documented keys (no service accepts those),
 * GET /_sandbox/clock, an endpoint of the sandbox alone, must answer which account the key is. Then its
 * documented keys stand in for the other accounts' keys and its seeded settings and videos for the
 * fixtures, where the environment gave none: no "set VIDEO_API_OTHER_ACCOUNT_KEY" against a sandbox whose
 * keys are public, no failed video missed because newer ones pushed it out of discovery's pages.
 */
export async function identifySandbox(config: TargetConfig): Promise<{
  /** Requests sent to tell (0 or 1: the preflight counts it among its own). */
  asked: number;
  identified?: { config: TargetConfig; note: string };
}> {
  if (config.kind === 'prism' || !config.apiKey) return { asked: 0 };
  const sandbox = await loadSandbox().catch(() => undefined);
  if (!sandbox) return { asked: 0 };
  const documented = Object.values(sandbox.SANDBOX_KEYS as Record<string, string>);
  if (config.kind !== 'sandbox' && !documented.includes(config.apiKey)) return { asked: 0 };
  let account: unknown;
  try {
    const res = await fetch(`${new URL(config.baseUrl).origin}/_sandbox/clock`, {
      headers: { authorization: `Bearer ${config.apiKey}`, accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
    const body = JSON.parse(new TextDecoder().decode(await readBody(res, { maxBytes: BODY_LIMITS.maxBytes })));
    if (res.status === 200 && typeof body?.time_scale === 'number') account = body.account;
  } catch {
    account = undefined;
  }
  if (typeof account !== 'string') return { asked: 1 };
  const known = sandboxAccounts(sandbox, account);
  const filled: string[] = [];
  const fill = (name: 'otherAccountKey' | 'freePlanKey' | 'noCreditKey', variable: string) => {
    if (config[name] || !known[name]) return {};
    registerSecret(known[name]);
    filled.push(variable);
    return { [name]: known[name] };
  };
  const fixtures: FixtureIds = { ...known.fixtures };
  // What the environment (or --seed-fixtures) named wins over the seeded ids.
  for (const [name, value] of Object.entries(config.fixtures)) if (value) fixtures[name as keyof FixtureIds] = value;
  const seeded = Object.keys(FIXTURE_ENV).filter(
    (n) => !config.fixtures[n as keyof FixtureIds] && known.fixtures[n as keyof FixtureIds],
  ).length;
  const next: TargetConfig = {
    ...config,
    ...fill('otherAccountKey', KEY_ENV.other),
    ...fill('freePlanKey', KEY_ENV.freePlan),
    ...fill('noCreditKey', KEY_ENV.noCredit),
    fixtures,
  };
  const keys = filled.length ? `its documented keys stand in for ${filled.join(', ')}; ` : '';
  return {
    asked: 1,
    identified: {
      config: next,
      note: `the target is a videogen sandbox (GET /_sandbox/clock: the key is account ${account}'s): ${keys}its seeded settings and videos stand in for ${seeded} fixture${seeded === 1 ? '' : 's'} not given`,
    },
  };
}
