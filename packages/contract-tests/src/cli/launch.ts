// Starting a target when none is given: the sandbox (@videogen/sandbox, in this process) or the Prism
// mock (a child process; a workspace-only option: the package does not ship Prism).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { specPath } from '@videogen/openapi';
import { operationEntry } from '../engine/http.ts';
import { registerSecret } from '../engine/redact.ts';
import type * as SandboxPackage from '@videogen/sandbox';
import type { AccountConfig, RunningSandbox, SandboxOptions } from '@videogen/sandbox';
import type { TargetConfig } from '../shapes.ts';
import { externalTarget, strictDefault, UsageError, type Settings } from './target.ts';

export interface Launched {
  config: TargetConfig;
  close(): Promise<void>;
}

/** The sandbox's time scale for contract runs: windows of 0.1 s, generations of 2.4 s. */
export const SANDBOX_TIME_SCALE = 100;

/**
 * Service seconds a generation runs in the sandbox the suite starts: 2.4 s at 100×. The concurrency
 * probe sends its 4 requests (class A, 0.05 s apart) and 4 status reads within about 0.4 s while the two
 * videos filling the running places must still run: a margin of 6× for a loaded machine.
 */
const GENERATION_SECONDS = 240;

/** What the suite uses of @videogen/sandbox, loaded only when it starts one (a run against a URL never does). */
type SandboxModule = Pick<typeof SandboxPackage, 'startSandbox' | 'SANDBOX_KEYS' | 'FIXTURES' | 'DEFAULT_ACCOUNTS'>;

export async function loadSandbox(): Promise<SandboxModule> {
  try {
    return (await import('@videogen/sandbox')) as unknown as SandboxModule;
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND')
      throw new UsageError(
        'no target: set VIDEO_API_BASE_URL or --base-url (the embedded sandbox, @videogen/sandbox, is not installed)',
      );
    throw err;
  }
}

/** The sandbox's accounts that play the suite's other keys (README of @videogen/sandbox): another account with videos, the Free plan's, the one without credit. */
const PLAYS = { freePlan: 'initech', noCredit: 'umbrella' } as const;

/**
 * The sandbox's documented keys and seeded fixtures seen from one of its accounts (`main`, the account of
 * VIDEO_API_KEY): the keys of the other accounts the suite needs, and the main account's seeded settings
 * and videos as the suite's fixture ids.
 */
export function sandboxAccounts(
  sandbox: Pick<SandboxModule, 'SANDBOX_KEYS' | 'FIXTURES'>,
  main: string,
): Pick<TargetConfig, 'otherAccountKey' | 'freePlanKey' | 'noCreditKey' | 'fixtures'> {
  const { SANDBOX_KEYS: keys, FIXTURES: all } = sandbox;
  const fixtures = all as Record<string, (typeof all)['acme'] | undefined>;
  const keyOf = (account: string) => (keys as Record<string, string | undefined>)[account];
  const fx = fixtures[main];
  const other = main === 'acme' ? 'globex' : 'acme';
  const apart = (account: string) => (account === main ? undefined : account);
  const freePlan = apart(PLAYS.freePlan);
  const noCredit = apart(PLAYS.noCredit);
  return {
    otherAccountKey: keyOf(other),
    freePlanKey: freePlan && keyOf(freePlan),
    noCreditKey: noCredit && keyOf(noCredit),
    fixtures: fx
      ? {
          videoSettingId: fx.settings.text,
          pdfSettingId: fx.settings.pdf,
          pptxSettingId: fx.settings.pptx,
          textPdfSettingId: fx.settings.textPdf,
          audioSettingId: fx.settings.audio,
          videoFileSettingId: fx.settings.video,
          textImagesSettingId: fx.settings.textImages,
          completedVideoId: fx.videos.convertible,
          failedVideoId: fx.videos.failed,
          expiredVideoId: fx.videos.expired,
          convertibleVideoId: fx.videos.convertible,
          limitedVoicesVideoId: fx.videos.limitedVoices,
          notConvertibleVideoId: fx.videos.notConvertible,
          realAvatarVideoId: fx.videos.realAvatar,
          unknownErrorVideoId: fx.videos.unknownError,
          otherAccountVideoId: fixtures[other]?.videos.convertible,
          freePlanVideoId: freePlan && fixtures[freePlan]?.videos.convertible,
          noCreditVideoId: noCredit && fixtures[noCredit]?.videos.convertible,
        }
      : {},
  };
}

/** The seeded sandbox fixtures as the suite's fixture ids (README of @videogen/sandbox). */
export function sandboxTarget(
  baseUrl: string,
  sandbox: Pick<SandboxModule, 'SANDBOX_KEYS' | 'FIXTURES' | 'DEFAULT_ACCOUNTS'>,
  timeScale: number,
  s?: Partial<Settings>,
  /** The sandbox's accounts (their plans: the upload limits its keys meet). */
  accounts: readonly AccountConfig[] = sandbox.DEFAULT_ACCOUNTS,
): TargetConfig {
  const { SANDBOX_KEYS: keys } = sandbox;
  const planOf = (key: string) => accounts.find((a) => a.keys.includes(key))?.plan;
  const main = planOf(keys.acme);
  const other = planOf(keys.globex);
  const config: TargetConfig = {
    kind: 'sandbox',
    baseUrl: baseUrl.replace(/\/+$/, ''),
    apiKey: keys.acme,
    ...sandboxAccounts(sandbox, 'acme'),
    profile: s?.profile ?? 'full',
    timeScale,
    stateful: true,
    checksKeys: true,
    rateLimited: true,
    strict: s?.strict ?? true,
    everyCombination: s?.everyCombination ?? false,
    accountPlans: { ...(main && { main }), ...(other && { other }) },
    ...(s?.limits && { limits: s.limits }),
    ...(s?.generation && { generation: s.generation }),
    ...(s?.named && { named: s.named }),
  };
  for (const k of Object.values(keys)) registerSecret(k as string);
  return config;
}

export async function startSandboxTarget(
  timeScale = SANDBOX_TIME_SCALE,
  settings: Partial<Settings> = {},
  /** Other sandbox options (a personality, a limiter style, accounts). */
  options: SandboxOptions = {},
): Promise<Launched & { sandbox: SandboxModule; handle: RunningSandbox }> {
  const sandbox = await loadSandbox();
  // Its wall clock stands still while held (TargetConfig.holdTime), then shows the real time again: a jump
  // forward by the hold's length, never back.
  const wall = options.now ?? Date.now;
  let heldAt: number | undefined;
  const now = () => heldAt ?? wall();
  const handle = await sandbox.startSandbox({
    port: 0,
    timeScale,
    validateResponses: true,
    generationSeconds: GENERATION_SECONDS,
    ...options,
    now,
  });
  const holdTime = () => {
    heldAt ??= wall();
    return () => void (heldAt = undefined);
  };
  const config = {
    ...sandboxTarget(handle.baseUrl, sandbox, timeScale, settings, options.accounts ?? sandbox.DEFAULT_ACCOUNTS),
    holdTime,
  };
  return { config, sandbox, handle, close: () => handle.close() };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** The Prism mock of the bundled document on a free port (Prism is a dev dependency of the workspace, not of the package). */
export async function startPrismTarget(s: Settings): Promise<Launched> {
  const require = createRequire(import.meta.url);
  let pkg: string;
  try {
    pkg = require.resolve('@stoplight/prism-cli/package.json');
  } catch {
    throw new UsageError(
      '--prism needs the Prism CLI, which this package does not ship (a workspace-only option): npm install --save-dev @stoplight/prism-cli@5.14.2, or start a mock yourself and pass its URL with --base-url --target-kind prism',
    );
  }
  const manifest = require(pkg);
  const bin = join(dirname(pkg), manifest.bin.prism ?? manifest.bin);
  const port = await freePort();
  const child = spawn(process.execPath, [bin, 'mock', '-p', String(port), '-h', '127.0.0.1', '-v', 'warn', specPath], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  // Prism answers about a second after it starts; a machine busy with other work takes many times that.
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prism exited (${child.exitCode}): ${stderr}`);
    try {
      await fetch(baseUrl + operationEntry('listVideoSettings').path);
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill();
        throw new Error(`prism did not start on ${baseUrl}: ${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const config: TargetConfig = {
    kind: 'prism',
    baseUrl,
    // Prism checks that a bearer token is present, not which: any value serves.
    apiKey: 'contract-prism-key',
    profile: s.profile ?? 'full',
    timeScale: 1,
    stateful: false,
    checksKeys: false,
    rateLimited: false,
    strict: strictDefault(s, 'prism'),
    everyCombination: s.everyCombination,
    limits: s.limits,
    generation: s.generation,
    named: s.named,
    fixtures: {},
  };
  return {
    config,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}

/** The target of a run: --base-url / VIDEO_API_BASE_URL when set, else the Prism mock or the sandbox started here. */
export async function launchTarget(s: Settings, opts: { prism?: boolean } = {}): Promise<Launched> {
  if (opts.prism) {
    if (s.baseUrl) throw new UsageError('--prism starts its own mock: unset VIDEO_API_BASE_URL (or drop --base-url)');
    return startPrismTarget(s);
  }
  if (s.baseUrl) return { config: externalTarget(s), close: async () => undefined };
  return startSandboxTarget(s.timeScale ?? SANDBOX_TIME_SCALE, s);
}
