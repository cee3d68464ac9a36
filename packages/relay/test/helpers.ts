// What the relay's tests share: a real receiver (an HTTP server on loopback that records every delivery
// and answers as the test says), the signing secrets, a sandbox on a free port at a high time scale.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '@videogen/sandbox';

/** Two Standard Webhooks secrets (a rotation): 32 random-looking bytes each, base64. */
export const SECRET = `whsec_${Buffer.from('relay-test-secret-0123456789abcdef').toString('base64')}`;
export const OLD_SECRET = `whsec_${Buffer.from('relay-test-older-secret-9876543210').toString('base64')}`;

export interface Delivery {
  /** The path it was POSTed to (a test gives each relay its own). */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** When it arrived (ms). */
  at: number;
}

/** What the receiver answers a delivery: a status (200 by default), or `hold` (no answer until released). */
export type Answer = number | 'hold';

export interface Receiver {
  url: string;
  deliveries: Delivery[];
  /** Decides each answer (default: 200). */
  answer: (d: Delivery) => Answer;
  /** Answers every held delivery with this status. */
  release(status?: number): void;
  held(): number;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const holding: Array<(status: number) => void> = [];
  const r: Receiver = {
    url: '',
    deliveries: [],
    answer: () => 200,
    release(status = 200) {
      for (const h of holding.splice(0)) h(status);
    },
    held: () => holding.length,
    close: async () => {
      r.release(503);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server: Server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const d: Delivery = { path: req.url ?? '/', headers: req.headers, body, at: Date.now() };
    r.deliveries.push(d);
    const a = r.answer(d);
    const reply = (status: number) => {
      if (res.writableEnded || res.destroyed) return;
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status < 300 ? 'ok' : `receiver says ${status}`);
    };
    if (a === 'hold') holding.push(reply);
    else reply(a);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  r.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return r;
}

/** A sandbox on a free port, 100 times faster than real time (a generation: 0.3 s; class B: one per 20 ms). */
export function fastSandbox(options: Parameters<typeof startSandbox>[0] = {}): Promise<RunningSandbox> {
  return startSandbox({ port: 0, timeScale: 100, ...options });
}

/** Polls `check` until it returns something truthy (a hang guard, not a measure: `ms` is generous). */
export async function until<T>(check: () => T | Promise<T>, what: string, ms = 30_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`still waiting for ${what} after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export const tempDir = (name: string) => mkdtempSync(join(tmpdir(), `videogen-relay-${name}-`));

/** The JSON payload of a delivery. */
export const payloadOf = (d: Delivery) =>
  JSON.parse(d.body) as { type: string; timestamp: string; data: Record<string, unknown> };
