// @module-tag full/browser
// The console against answers no honest service gives (issue 35, item 6), in a real browser: a server the
// test starts answers the console's request with a body of 307 MB (chunked, then with its length
// declared), a body that stalls, one that drips past its deadline, `{"results":[null]}`, JSON nested 100,000
// deep, a page that is not JSON, and a redirect to another origin. The console reads each within the
// rules' BODY_LIMITS and shows it as what it is, with its status and headers; the tab stays small.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BODY_LIMITS } from '@videogen/openapi/rules';
import { packageDir } from '../scripts/docs-spec.mjs';
import { startStaticServer } from '../scripts/static-server.mjs';
import { isLocal, launchBrowser, openOperation, openPage, waitForRedoc, type Browser, type Watch } from './browser.ts';

const KEY = 'a-key-typed-in-the-console';
/** The size of the answer that froze the tab for 164 s at 2.5 GB. */
const HUGE = 307_000_000;

type Scenario = 'huge' | 'declared' | 'stall' | 'drip' | 'null-item' | 'deep' | 'html' | 'redirect';

/** What the hostile server saw: bytes it wrote per scenario, and whether each request carried the key. */
const seen = { written: new Map<string, number>(), authorization: new Map<string, boolean>(), stalled: 0 };
let scenario: Scenario = 'null-item';

const cors = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, content-type',
  'access-control-allow-methods': 'GET, POST',
  'access-control-expose-headers': '*',
};

/** Writes `total` bytes of a JSON list (never finished) as fast as the reader takes them, counting them. */
async function stream(req: IncomingMessage, res: ServerResponse, total: number, name: string) {
  const item = Buffer.from(`{"video_setting_id":"${'0'.repeat(36)}","title":"padding","request_fields":["text"]},`);
  const chunk = Buffer.concat([Buffer.from('{"results":['), ...Array(800).fill(item)]);
  let written = 0;
  let closed = false;
  res.on('close', () => (closed = true));
  req.socket.on('close', () => (closed = true));
  while (!closed && written < total) {
    written += chunk.length;
    seen.written.set(name, written);
    if (!res.write(chunk))
      await new Promise<void>((resolve) => {
        const go = () => {
          res.off('drain', go).off('close', go);
          resolve();
        };
        res.on('drain', go).on('close', go);
      });
  }
  if (!closed) res.end(']}');
}

function hostile(origin: () => string) {
  return createServer((req, res) => {
    if (req.method === 'OPTIONS') return res.writeHead(204, cors).end();
    const url = new URL(req.url ?? '/', 'http://x');
    const name = url.searchParams.get('after') === 'redirect' ? 'redirected' : scenario;
    seen.authorization.set(name, req.headers.authorization === `Bearer ${KEY}`);
    const json = { ...cors, 'content-type': 'application/json' };
    switch (name) {
      case 'huge':
        res.writeHead(200, json);
        return void stream(req, res, HUGE, name);
      case 'declared':
        res.writeHead(200, { ...json, 'content-length': String(HUGE) });
        return void stream(req, res, HUGE, name);
      case 'stall':
        // The headers and a first chunk, then nothing: the connection stays open.
        res.writeHead(200, json);
        res.write('{"results":[');
        seen.stalled++;
        return;
      case 'drip': {
        // 2 KiB every 50 ms: never stalled (over 1 KiB per 30 s), but never done either.
        res.writeHead(200, json);
        res.write('{"results":[');
        const timer = setInterval(() => res.write(' '.repeat(2048)), 50);
        res.on('close', () => clearInterval(timer));
        seen.stalled++;
        return;
      }
      case 'null-item':
      case 'redirected':
        return res
          .writeHead(200, json)
          .end('{"results":[null],"has_next":false,"total_count":1,"page":1,"items_per_page":50}');
      case 'deep':
        return res.writeHead(200, json).end(`{"results":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
      case 'html':
        return res
          .writeHead(502, { ...cors, 'content-type': 'text/html' })
          .end('<html><body>Bad gateway</body></html>');
      case 'redirect':
        // To the same server by another name: another origin for the browser.
        return res.writeHead(307, { ...cors, location: `${origin()}/v1/video-settings/?after=redirect` }).end();
    }
  });
}

let browser: Browser;
let site: Awaited<ReturnType<typeof startStaticServer>>;
let server: ReturnType<typeof hostile>;
let port = 0;
let page: Page;
let watch: Watch;
let panel: Locator;

beforeAll(async () => {
  browser = await launchBrowser();
  site = await startStaticServer({ root: join(packageDir, 'dist'), prefix: '/docs' });
  server = hostile(() => `http://localhost:${port}`);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
  server?.closeAllConnections();
  await new Promise((ok) => server?.close(ok));
});

/** Sends the request of the scenario; returns the status, the notes and the body shown. */
async function send(which: Scenario, expected: number, beforeAnswer?: () => Promise<void>) {
  scenario = which;
  await panel.getByRole('button', { name: 'Send', exact: true }).click();
  await beforeAnswer?.();
  const status = panel.locator('.vg-status');
  await expect.poll(() => status.getAttribute('data-status'), { timeout: 120_000 }).toBe(String(expected));
  const notes = (await panel.locator('.vg-answer-notes').allTextContents()).join(' ');
  const body = (await panel.locator('.vg-body').textContent()) ?? '';
  const explained = (await panel.locator('.vg-explain').textContent()) ?? '';
  return { notes, body, explained, heap: await usedHeap() };
}

/** The page's JavaScript heap in use, in MB (Chromium's own count, through the DevTools protocol). */
async function usedHeap() {
  const cdp = await page.context().newCDPSession(page);
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return usedSize / 1_000_000;
}

describe('the console reads every answer within the limits, and shows it as what it is', () => {
  // One page for the file's tests, in order: the console hosted on a static server, its base URL the
  // hostile server's.
  test('the console targets the base URL typed in', async () => {
    ({ page, watch } = await openPage(browser, 'light'));
    // Timers the test moves on (a stall is 30 s of the page's clock, not the test's); time flows meanwhile.
    await page.clock.install();
    await page.goto(`http://127.0.0.1:${site.port}/docs/`);
    await waitForRedoc(page);
    await openOperation(page, 'Video settings', 'List video settings');
    await page.getByRole('button', { name: 'Try it: List video settings' }).first().click();
    panel = page.locator('#vg-console');
    await panel.getByLabel('Base URL').fill(`http://127.0.0.1:${port}/v1`);
    await panel.getByLabel('Base URL').press('Tab');
    await panel.getByLabel('API key').fill(KEY);
    await panel.getByLabel('API key').press('Tab');
    expect(await panel.getByRole('button', { name: 'Send', exact: true }).isEnabled()).toBe(true);
  });

  test('a 307 MB answer is cut at 16 MiB: its status and headers shown, the tab small and responsive', async () => {
    const answer = await send('huge', 200);
    expect(answer.notes).toContain(`exceeds the limit of ${BODY_LIMITS.maxBytes} bytes`);
    expect(answer.notes).toContain('the status and headers above are the server');
    // The reader stopped: the server wrote a fraction of the 307 MB (what the sockets buffered past 16 MiB).
    await expect.poll(() => seen.written.get('huge')).toBeLessThan(HUGE / 3);
    console.log(
      `docs: a ${HUGE / 1e6} MB answer: ${Math.round((seen.written.get('huge') ?? 0) / 1e6)} MB written before the console stopped reading; the page's heap ${Math.round(answer.heap)} MB`,
    );
    expect(answer.heap).toBeLessThan(300);
    // What arrived is shown in part and can be saved whole.
    expect(await panel.getByText(/^Shown: the first 200,000 characters/).count()).toBe(1);
    expect(await panel.getByRole('link', { name: /^Save the body read \(\d+ bytes\)$/ }).count()).toBe(1);
    expect(answer.body.length).toBeLessThanOrEqual(200_000);
  });

  test('a declared length over the limit is refused before the body is read', async () => {
    const answer = await send('declared', 200);
    expect(answer.notes).toContain(
      `declares ${HUGE} bytes (Content-Length), over the limit of ${BODY_LIMITS.maxBytes}`,
    );
    await expect.poll(() => seen.written.get('declared')).toBeLessThan(HUGE / 3);
  });

  test('a body that stalls, and one that drips past its deadline, end with their status said', async () => {
    const before = seen.stalled;
    let answer = await send('stall', 200, async () => {
      await expect.poll(() => seen.stalled).toBe(before + 1);
      await page.clock.fastForward(BODY_LIMITS.idleMs + 1_000);
    });
    expect(answer.notes).toContain("the answer's body stalled: less than 1024 bytes in 30 s");

    answer = await send('drip', 200, async () => {
      await expect.poll(() => seen.stalled).toBe(before + 2);
      await page.clock.fastForward(BODY_LIMITS.totalMs + 1_000);
    });
    expect(answer.notes).toContain("the answer's body was not complete within 60 s of its headers");
  });

  test('{"results":[null]} is a 200 shown with its body, the item it could not read said', async () => {
    const answer = await send('null-item', 200);
    expect(answer.notes).toContain('results[0] is null: not an object, so the console took no id from it');
    expect(JSON.parse(answer.body)).toEqual(expect.objectContaining({ results: [null] }));
    expect(await panel.getByText('No answer').count()).toBe(0);
  });

  test('JSON nested 100,000 deep is shown as it came; a page that is not JSON is shown with its status', async () => {
    let answer = await send('deep', 200);
    expect(answer.notes).toContain('nested too deeply to indent');
    expect(answer.body.startsWith('{"results":[[[[')).toBe(true);

    answer = await send('html', 502);
    expect(answer.notes).toContain('The body is not JSON');
    expect(answer.body).toBe('<html><body>Bad gateway</body></html>');
    expect(answer.explained).toContain('HTTP 502 without the error envelope');
  });

  test('a redirect the browser followed is said, and so is the key it did not carry to another origin', async () => {
    const answer = await send('redirect', 200);
    expect(answer.notes).toContain(
      `The browser followed a redirect: this is the answer of http://localhost:${port}/v1/video-settings/?after=redirect, another origin`,
    );
    expect(seen.authorization.get('redirect')).toBe(true);
    expect(seen.authorization.get('redirected')).toBe(false);
  });

  test('nothing left the machine, the key was in no URL, and the page logged no error', async () => {
    expect(browser.requests.filter((url) => !isLocal(url))).toEqual([]);
    expect(browser.requests.filter((url) => url.includes(KEY))).toEqual([]);
    // (Chromium logs the deliberate 502 of an API URL: openPage does not count that line.)
    expect(watch.errors).toEqual([]);
  });
});
