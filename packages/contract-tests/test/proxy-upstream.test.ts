// @module-tag node-versions
// The proxy's re-send rules against a scripted target (a real node:http server answering what each
// test says): a transient 5xx is sent again for a GET, never for a POST; a 503 and a 429 refuse before
// any work, so even a POST goes again, with its body (a spooled upload) byte for byte; a wait beyond
// the ceiling passes the target's answer through unchanged; a caller that leaves is never sent; an
// unreachable target answers the proxy's envelope.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { NOT_RESENT_HEADER, PROXY_HEADER, startPacingProxy } from '../src/proxy/index.ts';

type Script = (
  req: http.IncomingMessage,
  body: Buffer,
  n: number,
) => { status: number; headers?: Record<string, string>; body?: unknown };

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

/** A target that answers by script and records every request it received (method, path, body hash). */
async function scriptedTarget(script: Script) {
  const received: Array<{ method: string; path: string; size: number; sha: string; authorization?: string }> = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    received.push({
      method: req.method!,
      path: req.url!,
      size: body.length,
      sha: createHash('sha256').update(body).digest('hex'),
      authorization: req.headers.authorization,
    });
    const a = script(req, body, received.length);
    const text = JSON.stringify(a.body ?? {});
    res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
    res.end(text);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => server.close(() => r())));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, received };
}

async function proxyTo(base: string, options: Partial<Parameters<typeof startPacingProxy>[0]> = {}) {
  // A fast clock for the proxy's own waits (backoff, 503 without Retry-After) and the pacing intervals.
  const p = await startPacingProxy({ target: base, timeScale: 100, ...options });
  closers.unshift(() => p.close());
  return p;
}

const KEY = { authorization: 'Bearer scripted-target-key' };
const VIDEO = '7f1e0000-0000-4000-8000-000000000001';
const error = (error_code: string) => ({ error_code, error: error_code.toLowerCase() });

describe('the exchange as steps, told to observers', () => {
  it('an observer sees each step of a GET that meets two 502s: sent, answered, recorded as sent again, re-sent, delivered', async () => {
    const t = await scriptedTarget((_req, _b, n) =>
      n <= 2
        ? { status: 502, body: error('BAD_GATEWAY') }
        : { status: 200, body: { video_id: VIDEO, status: 'running', download_url: '', copyright: [] } },
    );
    const events: string[] = [];
    const p = await proxyTo(t.base, {
      observers: [
        {
          request: () => events.push('request'),
          sent: () => events.push('sent'),
          answered: (_t, status) => events.push(`answered ${status}`),
          exchange: (_t, x) => events.push(`exchange ${x.status} ${x.proxy.next}`),
          resend: (_t, reason) => events.push(`resend ${reason}`),
          delivered: (_t, status) => events.push(`delivered ${status}`),
        },
      ],
    });
    const res = await fetch(`${p.url}/videos/${VIDEO}/`, { headers: KEY });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    await p.close();
    const attempt502 = ['sent', 'answered 502', 'exchange 502 sent again', 'resend serverError'];
    expect(events).toEqual([
      'request',
      ...attempt502,
      ...attempt502,
      'sent',
      'answered 200',
      'exchange 200 passed to the caller',
      'delivered 200',
    ]);
  });
});

describe('re-sending after an error answer (7.1)', () => {
  it('a GET that meets transient 502s is sent again with backoff and answers 200', async () => {
    const t = await scriptedTarget((_req, _b, n) =>
      n <= 2
        ? { status: 502, body: error('BAD_GATEWAY') }
        : { status: 200, body: { video_id: VIDEO, status: 'running', download_url: '', copyright: [] } },
    );
    const p = await proxyTo(t.base);
    const res = await fetch(`${p.url}/videos/${VIDEO}/`, { headers: KEY });
    expect(res.status).toBe(200);
    expect(t.received.map((r) => r.method)).toEqual(['GET', 'GET', 'GET']);
    expect(p.stats().resent.serverError).toBe(2);
  });

  it('a GET that keeps failing is sent at most 1 + maxRetries times, then the last 500 is passed through', async () => {
    const t = await scriptedTarget(() => ({ status: 500, body: error('UNKNOWN_ERROR') }));
    const p = await proxyTo(t.base);
    const res = await fetch(`${p.url}/videos/`, { headers: KEY });
    expect(res.status).toBe(500);
    expect((await res.json()) as any).toEqual(error('UNKNOWN_ERROR'));
    expect(res.headers.get(PROXY_HEADER)).toBeNull();
    expect(t.received).toHaveLength(4);
  });

  it('a POST that meets a 502 is not sent again (it may have created a video): the 502 is passed through, marked', async () => {
    const t = await scriptedTarget(() => ({ status: 502, body: error('BAD_GATEWAY') }));
    const p = await proxyTo(t.base, { creditBudget: 5 });
    const form = new FormData();
    form.set('video_setting_id', '5e77a000-0000-4000-8000-000000000001');
    form.set('text', 'x');
    const res = await fetch(`${p.url}/videos/generate/`, { method: 'POST', headers: KEY, body: form });
    expect(res.status).toBe(502);
    expect(res.headers.get(NOT_RESENT_HEADER)).toMatch(/may have created/);
    expect(t.received).toHaveLength(1);
    // Counted as spent: the target may have accepted it.
    expect(p.stats().credits.spent).toBe(1);
    expect(p.stats().notResent).toBe(1);
  });

  it('a POST refused with 503 is sent again after its Retry-After, with the same body', async () => {
    const t = await scriptedTarget((_r, _b, n) =>
      n === 1
        ? { status: 503, headers: { 'retry-after': '0.05' }, body: error('SIMULTANEOUS_GENERATE_LIMIT') }
        : { status: 200, body: { video_id: VIDEO } },
    );
    const p = await proxyTo(t.base);
    const res = await fetch(`${p.url}/videos/${VIDEO}/conversions/`, {
      method: 'POST',
      headers: { ...KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ language: 'en' }),
    });
    expect(res.status).toBe(200);
    expect(t.received.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /v1/videos/${VIDEO}/conversions/`,
      `POST /v1/videos/${VIDEO}/conversions/`,
    ]);
    expect(t.received[0].sha).toBe(t.received[1].sha);
    expect(p.stats().resent.unavailable).toBe(1);
  });

  it('a 3 MB upload refused with 429 goes again from its spool file, byte for byte', async () => {
    const t = await scriptedTarget((_r, _b, n) =>
      n === 1
        ? { status: 429, headers: { 'retry-after': '0.05' }, body: error('RATE_LIMIT_EXCEEDED') }
        : { status: 200, body: { video_id: VIDEO } },
    );
    const p = await proxyTo(t.base);
    const pdf = new Uint8Array(3_000_000).map((_, i) => (i * 7) % 251);
    const form = new FormData();
    form.set('video_setting_id', '5e77a000-0000-4000-8000-000000000002');
    form.set('pdf_file', new Blob([pdf], { type: 'application/pdf' }), 'deck.pdf');
    const res = await fetch(`${p.url}/videos/generate/`, { method: 'POST', headers: KEY, body: form });
    expect(res.status).toBe(200);
    expect(t.received).toHaveLength(2);
    expect(t.received[0].size).toBeGreaterThan(3_000_000);
    expect(t.received[1]).toMatchObject({ size: t.received[0].size, sha: t.received[0].sha });
    expect(p.stats()).toMatchObject({ spooledToDisk: 1, resent: { rateLimit: 1 } });
    expect(t.received[1].authorization).toBe(KEY.authorization);
  });

  it('an INSUFFICIENT_CREDIT 429 is not the rate limit: passed through at once, not sent again', async () => {
    const t = await scriptedTarget(() => ({ status: 429, body: error('INSUFFICIENT_CREDIT') }));
    const p = await proxyTo(t.base);
    const res = await fetch(`${p.url}/videos/${VIDEO}/conversions/`, {
      method: 'POST',
      headers: { ...KEY, 'content-type': 'application/json' },
      body: '{"language":"en"}',
    });
    expect(res.status).toBe(429);
    expect(((await res.json()) as any).error_code).toBe('INSUFFICIENT_CREDIT');
    expect(t.received).toHaveLength(1);
  });
});

describe('the ceiling, callers that leave, unreachable targets', () => {
  it('a Retry-After beyond --max-wait: the 429 is passed through unchanged at once', async () => {
    const t = await scriptedTarget(() => ({
      status: 429,
      headers: { 'retry-after': '3600', 'x-from': 'target' },
      body: error('RATE_LIMIT_EXCEEDED'),
    }));
    const p = await proxyTo(t.base, { maxWaitMs: 5_000 });
    const res = await fetch(`${p.url}/videos/`, { headers: KEY });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3600');
    expect(res.headers.get('x-from')).toBe('target');
    expect(res.headers.get(PROXY_HEADER)).toBeNull();
    expect((await res.json()) as any).toEqual(error('RATE_LIMIT_EXCEEDED'));
    expect(t.received).toHaveLength(1);
  });

  it('a request held by the pacer whose caller leaves is never sent, and gives its budget place back', async () => {
    const t = await scriptedTarget(() => ({ status: 200, body: { video_id: VIDEO } }));
    // Real time: class A is one request per 5 s, so the second start is held.
    const p = await proxyTo(t.base, { timeScale: 1, creditBudget: 2 });
    const start = (signal?: AbortSignal) =>
      fetch(`${p.url}/videos/${VIDEO}/conversions/`, {
        method: 'POST',
        headers: { ...KEY, 'content-type': 'application/json' },
        body: '{"language":"en"}',
        signal,
      });
    expect((await start()).status).toBe(200);
    const leaving = new AbortController();
    const held = start(leaving.signal).catch((e) => e);
    // The caller leaves once the proxy has its request (held: the next class A place is 5 s away).
    await expect.poll(() => p.stats().requests, { timeout: 30_000 }).toBe(2);
    leaving.abort();
    expect(await held).toBeInstanceOf(Error);
    await expect.poll(() => p.stats().abandoned, { timeout: 30_000 }).toBe(1);
    expect(t.received).toHaveLength(1);
    expect(p.stats().credits).toMatchObject({ spent: 1, inFlight: 0 });
  });

  it('close() answers the requests still held with 503 PROXY_CLOSING and sends none of them', async () => {
    const t = await scriptedTarget(() => ({ status: 200, body: { video_id: VIDEO } }));
    const p = await proxyTo(t.base, { timeScale: 1 });
    const start = () =>
      fetch(`${p.url}/videos/${VIDEO}/conversions/`, {
        method: 'POST',
        headers: { ...KEY, 'content-type': 'application/json' },
        body: '{"language":"en"}',
      });
    expect((await start()).status).toBe(200);
    const held = start();
    // Closed once the proxy has the request (held: the next class A place is 5 s away).
    await expect.poll(() => p.stats().requests, { timeout: 30_000 }).toBe(2);
    await p.close();
    const res = await held;
    expect(res.status).toBe(503);
    expect(res.headers.get(PROXY_HEADER)).toBe('PROXY_CLOSING');
    expect(t.received).toHaveLength(1);
  });

  it('an unreachable target answers 502 PROXY_TARGET_UNREACHABLE after the retries, for a GET and a POST (a refused connection sent nothing)', async () => {
    const server = http.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    await new Promise((r) => server.close(r));
    const p = await proxyTo(`http://127.0.0.1:${port}/v1`);
    const get = await fetch(`${p.url}/videos/`, { headers: KEY });
    expect(get.status).toBe(502);
    expect(get.headers.get(PROXY_HEADER)).toBe('PROXY_TARGET_UNREACHABLE');
    expect((await get.json()) as any).toEqual({
      error_code: 'PROXY_TARGET_UNREACHABLE',
      error: expect.stringContaining('ECONNREFUSED'),
    });
    const post = await fetch(`${p.url}/videos/${VIDEO}/conversions/`, {
      method: 'POST',
      headers: { ...KEY, 'content-type': 'application/json' },
      body: '{"language":"en"}',
    });
    expect(post.status).toBe(502);
    expect(post.headers.get(NOT_RESENT_HEADER)).toBeNull();
    expect(p.stats().resent.network).toBe(6);
    expect(p.stats().upstream.failed).toBe(8);
  });
});
