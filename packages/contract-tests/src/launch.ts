// Starting a target when none is given: the sandbox (in this process) or the Prism mock (a child).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { specPath } from '@videogen/openapi';
import { driftFileFromEnv, registerTargetSecrets, strictFromEnv, targetFromEnv, type TargetConfig } from './target.ts';

export interface Launched {
  config: TargetConfig;
  close(): Promise<void>;
}

/** The sandbox's time scale for contract runs: windows of 0.1 s, generations of 0.3 s. */
export const SANDBOX_TIME_SCALE = 100;

/** The seeded sandbox fixtures as the suite's fixture ids (README of @videogen/sandbox). */
export function sandboxTarget(baseUrl: string, sandbox: { SANDBOX_KEYS: any; FIXTURES: any }, timeScale: number): TargetConfig {
  const { SANDBOX_KEYS: keys, FIXTURES: fx } = sandbox;
  return {
    kind: 'sandbox',
    baseUrl: baseUrl.replace(/\/+$/, ''),
    apiKey: keys.acme,
    otherAccountKey: keys.globex,
    freePlanKey: keys.initech,
    noCreditKey: keys.umbrella,
    profile: 'full',
    timeScale,
    stateful: true,
    checksKeys: true,
    rateLimited: true,
    strict: strictFromEnv(process.env, 'sandbox'),
    driftFile: driftFileFromEnv(process.env),
    fixtures: {
      videoSettingId: fx.acme.settings.text,
      pdfSettingId: fx.acme.settings.pdf,
      pptxSettingId: fx.acme.settings.pptx,
      textPdfSettingId: fx.acme.settings.textPdf,
      audioSettingId: fx.acme.settings.audio,
      videoFileSettingId: fx.acme.settings.video,
      textImagesSettingId: fx.acme.settings.textImages,
      completedVideoId: fx.acme.videos.convertible,
      failedVideoId: fx.acme.videos.failed,
      expiredVideoId: fx.acme.videos.expired,
      convertibleVideoId: fx.acme.videos.convertible,
      limitedVoicesVideoId: fx.acme.videos.limitedVoices,
      notConvertibleVideoId: fx.acme.videos.notConvertible,
      realAvatarVideoId: fx.acme.videos.realAvatar,
      unknownErrorVideoId: fx.acme.videos.unknownError,
      otherAccountVideoId: fx.globex.videos.convertible,
      freePlanVideoId: fx.initech.videos.convertible,
      noCreditVideoId: fx.umbrella.videos.convertible,
    },
  };
}

export async function startSandboxTarget(
  timeScale = SANDBOX_TIME_SCALE,
  profile?: TargetConfig['profile'],
  /** Other sandbox options (a personality, a limiter style). */
  options: Record<string, unknown> = {},
): Promise<Launched & { sandbox: any; handle: any }> {
  const sandbox: any = await import('@videogen/sandbox');
  // Generations of 60 service seconds (0.6 s at 100×) leave the concurrency check a wide margin
  // between the class-A window (0.1 s) and the end of the two running videos, on a loaded machine too.
  const handle = await sandbox.startSandbox({ port: 0, timeScale, validateResponses: true, generationSeconds: 60, ...options });
  const config = sandboxTarget(handle.baseUrl, sandbox, timeScale);
  if (profile) config.profile = profile;
  registerTargetSecrets(config);
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

export async function startPrismTarget(): Promise<Launched> {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve('@stoplight/prism-cli/package.json');
  const bin = join(dirname(pkg), require(pkg).bin.prism ?? require(pkg).bin);
  const port = await freePort();
  const child = spawn(process.execPath, [bin, 'mock', '-p', String(port), '-h', '127.0.0.1', '-v', 'warn', specPath], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prism exited (${child.exitCode}): ${stderr}`);
    try {
      await fetch(`${baseUrl}/video-settings/`);
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
    profile: (process.env.CONTRACT_PROFILE as TargetConfig['profile']) ?? 'full',
    timeScale: 1,
    stateful: false,
    checksKeys: false,
    rateLimited: false,
    strict: strictFromEnv(process.env, 'prism'),
    driftFile: driftFileFromEnv(process.env),
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

/** The target of a run: VIDEO_API_BASE_URL when set, else the Prism mock or the sandbox started here. */
export async function launchTarget(env: NodeJS.ProcessEnv = process.env): Promise<Launched> {
  if (env.VIDEO_API_BASE_URL) return { config: targetFromEnv(env), close: async () => undefined };
  if (env.CONTRACT_TARGET === 'prism') return startPrismTarget();
  const timeScale = Number(env.CONTRACT_TIME_SCALE ?? SANDBOX_TIME_SCALE) || SANDBOX_TIME_SCALE;
  return startSandboxTarget(timeScale, env.CONTRACT_PROFILE as TargetConfig['profile'] | undefined);
}
