// @module-tag full/runtimes
// The relay's deliveries verified by the libraries receivers use, as they are installed from the
// registry: Svix's `Webhook` (svix 2.5.0, which declares Node >= 22: run on the pinned Node 22 of
// packages/runtime-tests) and the stock standardwebhooks, with each secret of a rotation; a delivery
// changed on the way is refused by both.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createClient } from '@videogen/client';
import { FIXTURES, MAGIC, type RunningSandbox, SANDBOX_KEYS } from '@videogen/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureRuntimes } from '../../runtime-tests/scripts/runtimes.mjs';
import { createRelay } from '../src/index.js';
import { ensureVerifiers } from '../scripts/verifiers.mjs';
import {
  fastRelayOptions,
  fastSandbox,
  OLD_SECRET,
  type Receiver,
  SECRET,
  startReceiver,
  tempDir,
  until,
} from './helpers.js';

let sb: RunningSandbox;
let receiver: Receiver;
const VERIFY = fileURLToPath(new URL('../verifiers/verify.mjs', import.meta.url));

beforeAll(async () => {
  ensureVerifiers();
  sb = await fastSandbox();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await sb?.close();
});

it('verify with svix (its own header names too) and standardwebhooks, with either secret of a rotation', async () => {
  const relay = await createRelay({
    ...fastRelayOptions({ receiverUrl: receiver.url, name: 'svix', baseUrl: sb.baseUrl }),
    secret: [SECRET, OLD_SECRET],
    stateFile: `${tempDir('svix')}/state.json`,
    listIntervalMs: 60_000,
    logLevel: 'off',
  });
  const client = createClient({ apiKey: SANDBOX_KEYS.acme, baseUrl: sb.baseUrl, relayUrl: relay.url });
  await client.videos.generate({ video_setting_id: FIXTURES.acme.settings.text, text: 'Verified by Svix' });
  await client.videos.generate({ video_setting_id: FIXTURES.acme.settings.text, text: `Failed ${MAGIC.fail}` });
  await until(() => receiver.deliveries.length >= 2, 'two deliveries');
  await relay.stop();

  const deliveries = receiver.deliveries.map((d) => ({ headers: d.headers, body: d.body }));
  const [first] = deliveries;
  if (!first) throw new Error('no delivery');
  // The same delivery with its body changed on the way: refused.
  deliveries.push({ ...first, body: first.body.replace('"video.', '"video.x') });
  const node22 = ensureRuntimes().node22;
  const out = JSON.parse(
    execFileSync(node22, [VERIFY], {
      input: JSON.stringify({ secrets: [SECRET, OLD_SECRET], deliveries }),
      encoding: 'utf8',
    }),
  ) as { node: string; results: Array<Record<string, string>> };
  expect(out.node).toMatch(/^v22\./);
  const ok = Object.fromEntries(
    ['svix#0', 'svix-headers#0', 'standardwebhooks#0', 'svix#1', 'svix-headers#1', 'standardwebhooks#1'].map((k) => [
      k,
      'ok',
    ]),
  );
  expect(out.results.slice(0, -1)).toEqual([ok, ok]);
  for (const result of Object.values(out.results.at(-1) ?? {})) expect(result).not.toBe('ok');
});
