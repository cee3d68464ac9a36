// No request holds a connection forever: idle and trickled bodies are cut (408 with the envelope while
// nothing was answered), requests answered before their body (no key, unknown path, 405, downloads,
// docs) do not wait for it, slow headers and idle keep-alive connections are closed. Raw sockets, real
// servers with short limits so the test is quick; the defaults are checked to be finite.
// Each sandbox makes short only the limit a test waits for, and every limit that could fire instead
// long (30 s and more): which limit closed a connection is told by a margin no load on the machine
// bridges, and each wait is a deadline for the event itself, not a measure of speed.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { FIXTURES, SANDBOX_KEYS } from '../src/index.js';
import { defaultHttpLimits } from '../src/http-server.js';
import { sandbox } from './helpers.js';
import { complete, converse, lastAnswer, WAIT_MS } from './raw-socket.js';

const key = SANDBOX_KEYS.acme;
const conv = `/v1/videos/${FIXTURES.acme.videos.convertible}/conversions/`;
const chunkedHead = (method: string, path: string, auth?: string, type = 'application/json') =>
  `${method} ${path} HTTP/1.1\r\nHost: x\r\n${auth ? `Authorization: Bearer ${auth}\r\n` : ''}Content-Type: ${type}\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{"\r\n`;
/** A limit that must not be the one that fires in a test. */
const LONG = 30_000;

describe('the headers limit', async () => {
  // Headers short; the idle and whole-request limits, which would close the connection instead, 30 s and more.
  const limits = { headersMs: 600, idleMs: LONG, requestMs: 2 * LONG, keepAliveMs: LONG, lingerMs: LONG };
  const sb = await sandbox({ rateLimits: false, httpLimits: limits });

  it('defaults are finite and documented', () => {
    const d = defaultHttpLimits();
    for (const v of Object.values(d)) expect(Number.isFinite(v) && v > 0).toBe(true);
    expect(d.requestMs).toBeLessThanOrEqual(300_000);
  });

  it('headers that never end → 408 with the envelope', async () => {
    const r = await converse(sb.port, 'GET /v1/videos/ HTTP/1.1\r\nHost: x\r\nX-Slow: ', { boundMs: WAIT_MS });
    expect(r.closed).toBe(true);
    const a = lastAnswer(r.text);
    expect(a.status).toBe(408);
    expect(a.body.error_code).toBe('REQUEST_TIMEOUT');
    // by the headers limit: the idle limit would have taken 30 s
    expect(r.ms).toBeLessThan(limits.idleMs);
  });

  it('a connection that sends nothing is closed', async () => {
    const r = await converse(sb.port, '', { boundMs: WAIT_MS });
    expect(r.closed).toBe(true);
    expect(r.ms).toBeLessThan(limits.idleMs);
  });

  it('still answers', async () => {
    const res = await fetch(`${sb.baseUrl}/videos/`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
  });
});

describe('the idle limit', async () => {
  // Idle short; the whole-request limit, which would also answer 408, a minute. (The headers arrive at once.)
  const limits = { headersMs: LONG, idleMs: 1200, requestMs: 2 * LONG, keepAliveMs: LONG, lingerMs: LONG };
  const sb = await sandbox({ rateLimits: false, httpLimits: limits });

  it('a body that stops (authenticated conversion) → 408 REQUEST_TIMEOUT with the envelope, then closed', async () => {
    const r = await converse(sb.port, chunkedHead('POST', conv, key), { boundMs: WAIT_MS });
    expect(r.closed).toBe(true);
    const a = lastAnswer(r.text);
    expect(a.status).toBe(408);
    expect(a.body.error_code).toBe('REQUEST_TIMEOUT');
    expect(a.head.toLowerCase()).toContain('connection: close');
    // cut by the idle limit: not before it, and long before the whole-request limit
    expect(r.ms).toBeGreaterThanOrEqual(limits.idleMs - 100);
    expect(r.ms).toBeLessThan(limits.requestMs);
  });

  it('a generation whose multipart body stops → 408 and closed', async () => {
    const boundary = 'b0undary';
    const head = `POST /v1/videos/generate/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 100000\r\n\r\n--${boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\nhel`;
    const r = await converse(sb.port, head, { boundMs: WAIT_MS });
    expect(r.closed).toBe(true);
    expect(lastAnswer(r.text).status).toBe(408);
    expect(r.ms).toBeLessThan(limits.requestMs);
  });
});

describe('the whole-request limit', async () => {
  // Never idle (a byte every 100 ms against 30 s of idle limit): only the whole-request limit can cut it.
  // (The headers arrive at once; their limit cannot exceed the whole request's.)
  const limits = { headersMs: 2000, idleMs: LONG, requestMs: 2500, keepAliveMs: LONG, lingerMs: LONG };
  const sb = await sandbox({ rateLimits: false, httpLimits: limits });

  it('a body trickled a byte at a time, never idle, is cut by the whole-request limit', async () => {
    // A trickle longer than the bound: the request ends only if the limit cuts it.
    const more = Array.from({ length: WAIT_MS / 100 + 100 }, () => '1\r\n \r\n');
    const r = await converse(sb.port, chunkedHead('POST', conv, key), { boundMs: WAIT_MS, more, everyMs: 100 });
    expect(r.closed).toBe(true);
    expect(r.ms).toBeGreaterThanOrEqual(limits.requestMs - 100);
    expect(lastAnswer(r.text).status).toBe(408);
  });
});

describe('early answers and idle keep-alive connections', async () => {
  // Linger and keep-alive short; every limit that could close the connection instead is 30 s or more.
  const limits = { headersMs: LONG, idleMs: LONG, requestMs: 2 * LONG, keepAliveMs: 500, lingerMs: 400 };
  const sb = await sandbox({ rateLimits: false, httpLimits: limits });

  it('no key, unknown path, 405, downloads, docs: answered at once without waiting for the body, then closed', async () => {
    const cases: Array<[string, number]> = [
      [chunkedHead('POST', '/v1/videos/generate/'), 401],
      [chunkedHead('POST', conv, 'wrong-key'), 401],
      [chunkedHead('POST', '/nope'), 404],
      [chunkedHead('POST', '/v1/nope/', key), 404],
      [chunkedHead('PUT', conv, key), 405],
      [chunkedHead('POST', '/docs'), 404],
      [chunkedHead('POST', `/downloads/${FIXTURES.acme.videos.convertible}.mp4?expires=1&signature=00`), 404],
    ];
    const results = await Promise.all(cases.map(([bytes]) => converse(sb.port, bytes, { boundMs: WAIT_MS })));
    results.forEach((r, i) => {
      expect({ i, status: lastAnswer(r.text).status, closed: r.closed }).toEqual({
        i,
        status: cases[i][1],
        closed: true,
      });
      expect(lastAnswer(r.text).body.error_code).toEqual(expect.any(String));
      // closed by the linger bound: the idle and request limits would have taken 30 s and more
      expect(r.ms).toBeLessThan(limits.idleMs);
    });
  });

  it('an idle keep-alive connection is closed after its answer', async () => {
    const r = await converse(sb.port, `GET /v1/videos/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`, {
      boundMs: WAIT_MS,
    });
    expect(lastAnswer(r.text).status).toBe(200);
    expect(r.closed).toBe(true);
    // by the keep-alive limit: the headers limit for a next request would have taken 30 s
    expect(r.ms).toBeLessThan(limits.headersMs);
  });
});

describe('many early answers on one keep-alive connection', async () => {
  // Nothing closes the connection during the test (a proxy's keep-alive connection to the sandbox).
  const sb = await sandbox({
    rateLimits: false,
    httpLimits: { headersMs: WAIT_MS, idleMs: WAIT_MS, requestMs: WAIT_MS, keepAliveMs: WAIT_MS, lingerMs: WAIT_MS },
  });

  it('each request answered before its body: the connection stays usable and gathers no listeners (no MaxListenersExceededWarning)', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    const socket = net.connect(sb.port, '127.0.0.1');
    try {
      await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
      let text = '';
      let closed = false;
      socket.on('data', (d) => (text += d.toString('latin1')));
      socket.on('close', () => (closed = true));
      // (An answer's head follows the previous body directly, not at the start of a line.)
      const answers = () => text.match(/HTTP\/1\.1 \d{3} /g)?.length ?? 0;
      const deadline = Date.now() + WAIT_MS;
      const REQUESTS = 25; // more than Node's 10 listeners per event
      for (let i = 1; i <= REQUESTS; i++) {
        // No key: 401 before the body is read; the body follows the answer, on the same connection.
        socket.write(
          'POST /v1/videos/generate/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n',
        );
        while (answers() < i && !closed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
        expect({ i, answers: answers(), closed }).toEqual({ i, answers: i, closed: false });
        socket.write('{}');
      }
      // One more request proves the connection still serves after them all.
      socket.write(`GET /v1/videos/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`);
      while (
        !(answers() > REQUESTS && complete(text.slice(text.lastIndexOf('HTTP/1.1 ')))) &&
        !closed &&
        Date.now() < deadline
      )
        await new Promise((r) => setTimeout(r, 5));
      expect(lastAnswer(text).status).toBe(200);
      expect(text.match(/HTTP\/1\.1 401 /g)).toHaveLength(REQUESTS);
      await new Promise((r) => setImmediate(r)); // warnings are emitted on a later tick
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      socket.destroy();
    }
  });
});

describe('connection cap', async () => {
  // Keep-alive long: the three connections inside the cap stay open, counted, until the test closes them.
  const sb = await sandbox({
    rateLimits: false,
    httpLimits: { maxConnections: 3, headersMs: WAIT_MS, idleMs: WAIT_MS, keepAliveMs: WAIT_MS },
  });
  const get = `GET /v1/videos/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`;

  /** A connection that got its answer and stays open (the server has accepted it and counts it). */
  const served = () =>
    new Promise<{ socket: net.Socket; text: string; closed: () => boolean }>((resolve, reject) => {
      const socket = net.connect(sb.port, '127.0.0.1');
      let text = '';
      let closed = false;
      const timer = setTimeout(() => reject(new Error(`no answer within ${WAIT_MS} ms: ${text}`)), WAIT_MS);
      socket.on('connect', () => socket.write(get));
      socket.on('data', (d) => {
        text += d.toString('latin1');
        if (complete(text)) {
          clearTimeout(timer);
          resolve({ socket, text, closed: () => closed });
        }
      });
      socket.on('error', () => undefined);
      socket.on('close', () => {
        closed = true;
        clearTimeout(timer);
        reject(new Error(`closed before its answer: ${text}`));
      });
    });

  it('connections past the cap are closed at once; the ones inside it are served', async () => {
    const inside = await Promise.all([served(), served(), served()]);
    try {
      expect(inside.map((c) => lastAnswer(c.text).status)).toEqual([200, 200, 200]);
      // The fourth: closed without a byte (an answer would end the wait instead).
      const over = await converse(sb.port, get, { boundMs: WAIT_MS, untilAnswer: true });
      expect({ closed: over.closed, text: over.text }).toEqual({ closed: true, text: '' });
      expect(inside.map((c) => c.closed())).toEqual([false, false, false]);
    } finally {
      for (const c of inside) c.socket.destroy();
    }
    // Their places free once the server has seen them close.
    const deadline = Date.now() + WAIT_MS;
    let status = 0;
    while (status !== 200 && Date.now() < deadline) {
      status = await fetch(`${sb.baseUrl}/videos/`, { headers: { authorization: `Bearer ${key}` } }).then(
        (r) => r.status,
        () => 0,
      );
      if (status !== 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(200);
  });
});
