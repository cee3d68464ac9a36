// @module-tag full/processes
// For every 7.2 scenario of the sandbox (its seeded magic-value videos and accounts), the
// CLI's convert, the client's convert and a raw POST give the same error_code. They share one rule
// (conversionProblem), but only this test shows they agree with the service's answer.
import { createClient } from '@videogen/client';
import { parseRetryAfter } from '@videogen/openapi/rules';
import { FIXTURES, SANDBOX_KEYS, startSandbox } from '@videogen/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from './helpers.js';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, timeScale: 100 });
});
afterAll(async () => {
  await sandbox?.close();
});

type Account = keyof typeof SANDBOX_KEYS;
type Target = { language?: string; aspect_ratio?: string };
const A = FIXTURES.acme.videos;
const SCENARIOS: Array<[string, Account, string, Target, string]> = [
  ['no target', 'acme', A.convertible, {}, 'CONVERT_TARGET_REQUIRED'],
  ['unknown language', 'acme', A.convertible, { language: 'xx' }, 'INVALID_LANGUAGE'],
  ['unknown ratio', 'acme', A.convertible, { aspect_ratio: '5:4' }, 'INVALID_ASPECT_RATIO'],
  [
    'unknown language on a real-avatar video (request first)',
    'acme',
    A.realAvatar,
    { language: 'xx' },
    'INVALID_LANGUAGE',
  ],
  ['real avatar', 'acme', A.realAvatar, { language: 'en' }, 'UNSUPPORTED_HEAVY_AVATAR'],
  ['no video data', 'acme', A.notConvertible, { language: 'en' }, 'SOURCE_VIDEO_NOT_CONVERTIBLE'],
  ['failed source', 'acme', A.failed, { language: 'en' }, 'SOURCE_VIDEO_NOT_CONVERTIBLE'],
  ['expired source', 'acme', A.expired, { aspect_ratio: '1:1' }, 'SOURCE_VIDEO_NOT_CONVERTIBLE'],
  ['same language', 'acme', A.convertible, { language: 'ja' }, 'CONVERT_NO_CHANGE'],
  ['same language and ratio', 'acme', A.limitedVoices, { language: 'ja', aspect_ratio: '16:9' }, 'CONVERT_NO_CHANGE'],
  ['language the voices lack', 'acme', A.limitedVoices, { language: 'fr' }, 'LANGUAGE_NOT_SUPPORTED_BY_VOICES'],
  ["another account's video", 'acme', FIXTURES.globex.videos.convertible, { language: 'en' }, 'NOT_FOUND'],
  ['Free plan', 'initech', FIXTURES.initech.videos.convertible, { language: 'en' }, 'INSUFFICIENT_CREDIT'],
  ['no credit', 'umbrella', FIXTURES.umbrella.videos.convertible, { language: 'en' }, 'INSUFFICIENT_CREDIT'],
  ['server error', 'acme', A.unknownError, { language: 'en' }, 'UNKNOWN_ERROR'],
];

/** The service's own answer; a rate-limit 429 (not the credit one) is waited out, as a client would. */
async function rawPost(key: string, id: string, target: Target): Promise<string | undefined> {
  for (;;) {
    const res = await fetch(`${sandbox.baseUrl}/videos/${id}/conversions/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(target),
    });
    const body = (await res.json().catch(() => ({}))) as { error_code?: string };
    if (res.status === 429 && body.error_code !== 'INSUFFICIENT_CREDIT') {
      await new Promise((r) => setTimeout(r, parseRetryAfter(res.headers.get('retry-after')) ?? 100));
      continue;
    }
    return res.ok ? undefined : body.error_code;
  }
}

async function clientConvert(key: string, id: string, target: Target): Promise<string | undefined> {
  const client = createClient({ apiKey: key, baseUrl: sandbox.baseUrl, retry: { baseDelayMs: 1, maxDelayMs: 5 } });
  const e = await client.convert(id, target as never).then(
    () => undefined,
    (err) => err,
  );
  return e?.error_code;
}

async function cliConvert(key: string, id: string, target: Target): Promise<string | undefined> {
  const flags = [
    ...(target.language !== undefined ? ['--language', target.language] : []),
    ...(target.aspect_ratio !== undefined ? ['--aspect-ratio', target.aspect_ratio] : []),
  ];
  const r = await run(['convert', id, ...flags, '--json'], { key, baseUrl: sandbox.baseUrl });
  const line = r.stdout.trim().split('\n').at(-1) ?? '';
  return r.code === 0 ? undefined : JSON.parse(line).error?.code;
}

describe('convert: raw POST, client and CLI give the same error_code', () => {
  it.each(SCENARIOS)('%s', async (_name, account, id, target, expected) => {
    const key = SANDBOX_KEYS[account];
    const raw = await rawPost(key, id, target);
    expect(raw, 'raw POST').toBe(expected);
    expect({ client: await clientConvert(key, id, target), cli: await cliConvert(key, id, target) }).toEqual({
      client: raw,
      cli: raw,
    });
  });
});
