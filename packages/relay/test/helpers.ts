// What the relay's in-process tests share with its process tests (harness.mjs: the receiver, the
// secrets, `until`), and a sandbox on a free port at a high time scale.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '@videogen/sandbox';
import type { Delivery } from './harness.mjs';

export { fastRelayOptions, OLD_SECRET, SECRET, startReceiver, until } from './harness.mjs';
export type { Delivery, Receiver } from './harness.mjs';

/** A sandbox on a free port, 100 times faster than real time (a generation: 0.3 s; class B: one per 20 ms). */
export function fastSandbox(options: Parameters<typeof startSandbox>[0] = {}): Promise<RunningSandbox> {
  return startSandbox({ port: 0, timeScale: 100, ...options });
}

export const tempDir = (name: string) => mkdtempSync(join(tmpdir(), `videogen-relay-${name}-`));

/** The JSON payload of a delivery. */
export const payloadOf = (d: Delivery) =>
  JSON.parse(d.body) as { type: string; timestamp: string; data: Record<string, unknown> };
