// Leveled logging: debug = the traffic log, info = retries and pacing waits, warn =
// 429/503 waits, error = a call that failed for good; a pino logger plugs in; VIDEO_API_LOG or
// logLevel choose the level. The key never appears at any level, even when the server echoes it.
import { afterEach, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import pino from 'pino';
import { createClient, type Logger } from '../src/index.js';
import { err, fakeClock, faultServer, json, video, VIDEO_ID } from './helpers.js';

// A key with the characters JSON escapes: it must not leak escaped either.
const KEY = 'sk-live-"LOG\\SECRET"-0123456789';
// Whatever the escaping, neither distinctive part of the key may appear.
const LEAKS = ['SECRET', '0123456789'];
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
  delete process.env.VIDEO_API_LOG;
});

/** A session that meets every level: a 500 retried (info), a 429 and a 503 waited (warn), a pacing wait (info), a call failing for good (error). */
async function session(opts: Parameters<typeof createClient>[0]) {
  const echo = (status: number, code: string, headers?: Record<string, string>) =>
    json(status, { error_code: code, error: `key ${KEY} echoed` }, headers);
  const srv = await faultServer([
    echo(500, 'UNKNOWN_ERROR'),
    json(200, video('running')),
    echo(429, 'RATE_LIMIT_EXCEEDED', { 'retry-after': '1' }),
    json(200, video('running')),
    echo(503, 'SERVICE_UNAVAILABLE', { 'retry-after': '1' }),
    json(200, video('running')),
    echo(502, 'BAD_GATEWAY'),
  ]);
  close = srv.close;
  const client = createClient({
    apiKey: KEY,
    baseUrl: srv.baseUrl,
    clock: fakeClock(),
    account: `log-${Math.random()}`,
    ...opts,
  });
  await client.videos.get(VIDEO_ID);
  await client.videos.get(VIDEO_ID);
  await client.videos.get(VIDEO_ID);
  await client.videos.get(VIDEO_ID).catch(() => {});
}

describe('levels and sinks', () => {
  it('a pino logger gets every level, fields first; nothing holds the key', async () => {
    const out: string[] = [];
    const logger = pino({ level: 'debug' }, new Writable({ write: (c, _e, cb) => (out.push(String(c)), cb()) }));
    await session({ logger, logLevel: 'debug' });
    const records = out.map((l) => JSON.parse(l));
    const levels = new Set(records.map((r) => pino.levels.labels[r.level]));
    expect(levels).toEqual(new Set(['debug', 'info', 'warn', 'error']));
    // debug: the exchanges, in the traffic log's shape.
    const exchanges = records.filter((r) => r.request);
    expect(exchanges.length).toBeGreaterThanOrEqual(9);
    expect(exchanges[0]).toMatchObject({
      request: { method: 'GET', url: expect.stringContaining(`/v1/videos/${VIDEO_ID}/`) },
      response: { status: 500 },
    });
    expect(exchanges[0].request.headers.authorization).toBeUndefined();
    // info: the 500 retried, the pacer's waits; warn: the 429 and 503 waits; error: the last call.
    expect(records.find((r) => r.msg.includes('→ 500: retry 1 of 3'))).toMatchObject({
      level: 30,
      status: 500,
      waitMs: expect.any(Number),
    });
    expect(records.find((r) => r.msg.startsWith('paced: waited'))).toMatchObject({ level: 30, rateClass: 'B' });
    expect(records.find((r) => r.msg.includes('→ 429: retry'))).toMatchObject({ level: 40, status: 429 });
    expect(records.find((r) => r.msg.includes('→ 503: retry'))).toMatchObject({ level: 40, status: 503, waitMs: 1000 });
    expect(records.find((r) => r.msg.includes('→ 502 after 4 attempts'))).toMatchObject({ level: 50 });
    const all = out.join('\n');
    for (const leak of LEAKS) expect(all).not.toContain(leak);
    expect(all).toContain('[redacted]'); // the echoed key, replaced
  });

  for (const level of ['debug', 'info', 'warn', 'error'] as const) {
    it(`VIDEO_API_LOG=${level}: stderr JSON lines from ${level} up, never the key`, async () => {
      process.env.VIDEO_API_LOG = level;
      const lines: string[] = [];
      const original = console.error;
      console.error = (...a: unknown[]) => void lines.push(a.join(' '));
      try {
        await session({});
      } finally {
        console.error = original;
      }
      const seen = new Set(lines.map((l) => JSON.parse(l).level));
      const order = ['debug', 'info', 'warn', 'error'];
      expect([...seen].sort()).toEqual(order.slice(order.indexOf(level)).sort());
      for (const leak of LEAKS) expect(lines.join('\n')).not.toContain(leak);
    });
  }

  it('logLevel beats VIDEO_API_LOG; off logs nothing; a function logger gets JSON lines from debug', async () => {
    process.env.VIDEO_API_LOG = 'debug';
    const calls: string[] = [];
    const spy = Object.fromEntries(
      ['debug', 'info', 'warn', 'error'].map((l) => [l, (_o: object, msg: string) => calls.push(`${l} ${msg}`)]),
    ) as unknown as Logger;
    await session({ logger: spy, logLevel: 'warn' });
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((c) => /^(warn|error) /.test(c))).toBe(true);
    calls.length = 0;
    await session({ logger: spy, logLevel: 'off' });
    expect(calls).toEqual([]);
    delete process.env.VIDEO_API_LOG;
    const lines: string[] = [];
    await session({ logger: (l) => lines.push(l) });
    expect(JSON.parse(lines[0])).toMatchObject({
      level: 'debug',
      request: { method: 'GET' },
      response: { status: 500 },
    });
    for (const leak of LEAKS) expect(lines.join('\n')).not.toContain(leak);
  });
});

describe('every wait of a second or more says what it waits for', () => {
  const captureStderr = async (run: () => Promise<void>) => {
    const lines: string[] = [];
    const original = console.error;
    console.error = (...a: unknown[]) => void lines.push(a.join(' '));
    try {
      await run();
    } finally {
      console.error = original;
    }
    return lines.map((l) => JSON.parse(l));
  };

  it('by default (no level, no logger, no VIDEO_API_LOG): one warn line on stderr before each, and nothing else', async () => {
    const records = await captureStderr(() => session({}));
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((r) => r.level === 'warn' && r.msg.startsWith('waiting '))).toBe(true);
    // The 429's wait is the pacer's: the server's word, and the spacing it grew (the limiter is stricter
    // than stated); the 503's a retry on its Retry-After.
    expect(records).toContainEqual(
      expect.objectContaining({
        kind: 'pacing',
        waitMs: expect.any(Number),
        msg: expect.stringMatching(
          /^waiting 3(\.0)? s before GET \/v1\/videos\/[0-9a-f-]+\/: the account's rate limit: at most 5 class B requests per 10 s per account, and after a 429 one every 3(\.0)? s$/,
        ),
      }),
    );
    expect(records).toContainEqual(
      expect.objectContaining({
        kind: 'retry',
        msg: expect.stringMatching(
          /^waiting 1(\.0)? s before GET \/v1\/videos\/[0-9a-f-]+\/: retry 1 of 3 after 503 \(its Retry-After\)$/,
        ),
      }),
    );
    for (const leak of LEAKS) expect(JSON.stringify(records)).not.toContain(leak);
  });

  it('onWait replaces the line (the CLI prints its own); the 429 line no longer says "in 0 ms" before a wait of seconds', async () => {
    const notices: unknown[] = [];
    const calls: string[] = [];
    const spy = Object.fromEntries(
      ['debug', 'info', 'warn', 'error'].map((l) => [l, (_o: object, msg: string) => calls.push(`${l} ${msg}`)]),
    ) as unknown as Logger;
    const records = await captureStderr(() =>
      session({ onWait: (n) => notices.push(n), logger: spy, logLevel: 'info' }),
    );
    expect(records).toEqual([]);
    expect(notices).toContainEqual(
      expect.objectContaining({ kind: 'pacing', reason: expect.stringMatching(/after a 429/) }),
    );
    expect(calls.filter((c) => c.startsWith('warn waiting'))).toEqual([]);
    const retry429 = calls.find((c) => c.includes('→ 429: retry'));
    expect(retry429).toMatch(/→ 429: retry 1 of 3 once the pacer allows \(the server asked for 1000 ms\)$/);
    expect(calls.join('\n')).not.toMatch(/retry \d of \d in 0 ms/);
  });
});
