// What the relay's process tests, its fault runs (scripts/faults.mjs) and its benchmark (bench/relay.mjs)
// share: relays as real child processes (fixtures/relay-process.mjs), a real receiver that records every
// delivery and answers as told, a real redis-server (packages/pacer-redis's test helper), and the tally
// of what was expected against what arrived.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

export { freePort, startRedis } from '../../pacer-redis/test/redis-server.mjs';

const RELAY = fileURLToPath(new URL('./fixtures/relay-process.mjs', import.meta.url));

/** Two Standard Webhooks secrets (a rotation). */
export const SECRET = `whsec_${Buffer.from('relay-test-secret-0123456789abcdef').toString('base64')}`;
export const OLD_SECRET = `whsec_${Buffer.from('relay-test-older-secret-9876543210').toString('base64')}`;

/**
 * A receiver on a loopback port (default: a free one). Every POST is recorded `{ path, headers, body, at }`; `answer(d)`
 * says what to answer (a status, or 'hold': nothing until `release`). `close()` answers what is held.
 */
export async function startReceiver(port = 0) {
  const holding = [];
  const r = {
    url: '',
    deliveries: [],
    answer: () => 200,
    release(status = 200) {
      for (const h of holding.splice(0)) h(status);
    },
    held: () => holding.length,
    async close() {
      r.release(503);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const d = { path: req.url ?? '/', headers: req.headers, body, at: Date.now() };
    r.deliveries.push(d);
    const a = r.answer(d);
    const reply = (status) => {
      if (res.writableEnded || res.destroyed) return;
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status < 300 ? 'ok' : `receiver says ${status}`);
    };
    if (a === 'hold') holding.push(reply);
    else reply(a);
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${server.address().port}`;
  return r;
}

/**
 * A relay as its own process. `options`: createRelay's (JSON); `env`: more environment. `onLog(record)`
 * sees each log record as it is written (the tests kill on one). Resolves once it runs.
 */
export function startRelay({ options, env = {}, onLog }) {
  const child = spawn(process.execPath, [RELAY], {
    env: { ...process.env, RELAY_OPTIONS: JSON.stringify(options), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs = [];
  let rest = '';
  child.stderr.on('data', (d) => {
    rest += d;
    const lines = rest.split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      let record;
      try {
        record = JSON.parse(line);
      } catch {
        record = { level: 'error', msg: line };
      }
      logs.push(record);
      onLog?.(record, relay);
    }
  });
  const exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      relay.diedAt = Date.now();
      resolve({ code, signal });
    }),
  );
  const relay = {
    child,
    pid: child.pid,
    logs,
    exited,
    url: undefined,
    /** When the process ended (ms), once it has. */
    diedAt: undefined,
    /** kill -9: no clean-up, no release of its leases. */
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      return exited;
    },
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /ready (\S+)/.exec(out);
      if (m) {
        relay.url = m[1] === '-' ? undefined : m[1];
        resolve(relay);
      }
    });
    exited.then(({ code, signal }) =>
      reject(new Error(`relay exited before it ran (${code ?? signal}): ${logs.map((l) => l.msg).join(' | ')}`)),
    );
  });
}

/**
 * What arrived against what was expected: `expected` lists `{ video_id, type }`. Counts events
 * expected, delivered (at least once), duplicated (deliveries beyond the first of an id: the same id
 * again), lost (expected, never delivered), and the breaches no duplicate explains: `conflicting`
 * (one video's event of one type under two ids) and `outOfOrder` (a video's later event first delivered
 * before its earlier one). Deliveries whose signature does not verify count in `unverified`.
 */
export function tally(deliveries, expected, verify) {
  const byId = new Map();
  const idsOf = new Map();
  let unverified = 0;
  for (const d of deliveries) {
    let event;
    try {
      event = verify ? verify(d) : JSON.parse(d.body);
    } catch {
      unverified++;
      continue;
    }
    const id = d.headers['webhook-id'];
    const key = `${event.data.video_id} ${event.type}`;
    if (!byId.has(id)) byId.set(id, { key, first: d.at, count: 0, bodies: new Set() });
    const entry = byId.get(id);
    entry.count++;
    entry.bodies.add(d.body);
    if (!idsOf.has(key)) idsOf.set(key, new Set());
    idsOf.get(key).add(id);
  }
  const firstOf = (key) => {
    const ids = idsOf.get(key);
    if (!ids) return undefined;
    return Math.min(...[...ids].map((id) => byId.get(id).first));
  };
  let delivered = 0;
  let lost = 0;
  for (const e of expected) {
    if (idsOf.has(`${e.video_id} ${e.type}`)) delivered++;
    else lost++;
  }
  const order = ['video.completed', 'video.expired'];
  let outOfOrder = 0;
  for (const e of expected)
    if (e.type === order[1]) {
      const a = firstOf(`${e.video_id} ${order[0]}`);
      const b = firstOf(`${e.video_id} ${order[1]}`);
      if (a !== undefined && b !== undefined && b < a) outOfOrder++;
    }
  return {
    expected: expected.length,
    delivered,
    duplicated: [...byId.values()].reduce((s, e) => s + e.count - 1, 0),
    lost,
    conflicting: [...idsOf.values()].filter((ids) => ids.size > 1).length,
    changedBodies: [...byId.values()].filter((e) => e.bodies.size > 1).length,
    outOfOrder,
    unverified,
  };
}

/**
 * A relay's options against a sandbox at 100× (a generation: 0.3 s): the account's acme key, deliveries
 * to `receiverUrl`/`name`, signed with SECRET, an announce endpoint on a free port, reads every 100 ms,
 * listings every 300 ms, leases of 1 s, and only the videos made after it starts.
 */
export function fastRelayOptions({ receiverUrl, name, baseUrl }) {
  return {
    forwardTo: `${receiverUrl}/${name}`,
    secret: SECRET,
    apiKey: 'sandbox-key-acme',
    baseUrl,
    listen: 0,
    pollIntervalMs: 100,
    listIntervalMs: 300,
    leaseMs: 1_000,
    backfillMs: 0,
  };
}

/** Polls `check` until truthy; a hang guard (`ms` generous), never a measure. */
export async function until(check, what, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`still waiting for ${what} after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
