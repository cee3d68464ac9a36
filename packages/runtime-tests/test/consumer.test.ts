// @module-tag full/runtimes
// @module-tag full/packed
// How a user meets the package: the packed tarball installed in a fresh project outside the workspace,
// a strict TypeScript program compiled against it (nodenext and bundler resolution), run on the sandbox.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { startSandbox, SANDBOX_KEYS, FIXTURES, type RunningSandbox } from '@videogen/sandbox';
import { runJson } from './run.js';

const dir = inject('consumerDir');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
let sb: RunningSandbox;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, timeScale: 100, validateResponses: true });
});
afterAll(async () => {
  expect(sb.violations).toEqual([]);
  await sb.close();
});

describe('the packed client in a fresh project', () => {
  it('depends at run time only on what the registry serves (no workspace package)', () => {
    const pkg = JSON.parse(readFileSync(join(dir, 'node_modules/@videogen/client/package.json'), 'utf8'));
    // openapi-fetch (client.api), @opentelemetry/api (traces: the API, no SDK), standardwebhooks (verifyWebhook).
    expect(Object.keys(pkg.dependencies ?? {})).toEqual(['@opentelemetry/api', 'openapi-fetch', 'standardwebhooks']);
    // The shared pacer's Redis store, loaded only when a pacing URL is set: an optional peer, never installed with it.
    expect(pkg.peerDependencies ?? {}).toEqual({ '@videogen/pacer-redis': pkg.version });
    expect(pkg.peerDependenciesMeta?.['@videogen/pacer-redis']?.optional).toBe(true);
    expect(existsSync(join(dir, 'node_modules/@videogen/pacer-redis'))).toBe(false);
  });

  it.each(['nodenext', 'bundler'])('compiles a strict program with moduleResolution %s and runs it', async (mode) => {
    try {
      execFileSync(process.execPath, [tsc, '-p', `tsconfig.${mode}.json`], { cwd: dir, encoding: 'utf8' });
    } catch (e) {
      throw new Error(`tsc (${mode}) failed:\n${(e as { stdout?: string }).stdout}`);
    }
    const out = await runJson(
      process.execPath,
      [`out-${mode}/consumer.js`, FIXTURES.acme.settings.text, '00000000-0000-4000-8000-0000000000ff'],
      {
        cwd: dir,
        env: { VIDEO_API_KEY: SANDBOX_KEYS.acme, VIDEO_API_BASE_URL: sb.baseUrl },
      },
    );
    expect(out).toEqual({
      webhook: 'WEBHOOK_HEADERS_MISSING',
      settings: 7,
      status: 'completed',
      hasUrl: true,
      language: expect.any(String),
      notFound: true,
    });
  });
});
