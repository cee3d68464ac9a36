// @module-tag full/browser
// In a real browser (Debian's chromium through playwright-core): a page of another
// origin cannot use the /_sandbox/ controls with the public keys, nor can a page that reached the sandbox
// under its own name (DNS rebinding, simulated by Chromium's resolver rules: evil.test → 127.0.0.1); the
// sandbox's own pages (/docs) can. Before, the controls answered CORS `*` and every one of these reset
// the account.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, requireChromium } from '../../../chromium.shared.js';
import { FIXTURES, SANDBOX_KEYS, startSandbox, type RunningSandbox } from '../src/index.js';
import { call, form, WAIT_MS } from './helpers.js';

const key = SANDBOX_KEYS.acme;

let sb: RunningSandbox;
let hostile: Server;
let hostileOrigin: string;
let browser: BrowserContext;
let profile: string;
const log: string[] = [];

beforeAll(async () => {
  // Fails (never skips) with the way to install it.
  const executablePath = requireChromium("the sandbox's controls test");
  sb = await startSandbox({ port: 0, rateLimits: false, logger: (line) => log.push(line) });
  // The attacker's site: any page of another origin.
  hostile = createServer((_req, res) => res.end('<!doctype html><title>a page of another site</title>'));
  await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
  hostileOrigin = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
  profile = mkdtempSync(join(tmpdir(), 'sandbox-chromium-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: [
      ...CHROMIUM_ARGS,
      '--no-proxy-server',
      // What a rebinding attacker's DNS does: its own name now answers this machine's address.
      '--host-resolver-rules=MAP evil.test 127.0.0.1',
      '--disable-features=HttpsUpgrades,HttpsFirstBalancedModeAutoEnable',
    ],
  });
  browser.setDefaultTimeout(WAIT_MS);
  browser.setDefaultNavigationTimeout(WAIT_MS);
});
afterAll(async () => {
  await browser?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await new Promise((resolve) => hostile?.close(resolve));
  await sb?.close();
});

/** One generated video on acme: a reset takes it away, so its presence says whether a reset happened. */
async function generatedVideos(): Promise<number> {
  return (await call(sb, 'GET', '/videos/', { key })).body.total_count - 7;
}
async function makeOne() {
  await sb.reset(key);
  await call(sb, 'POST', '/videos/generate/', {
    key,
    form: form({ video_setting_id: FIXTURES.acme.settings.text, text: 'x' }),
  });
  expect(await generatedVideos()).toBe(1);
}

/** In the page: a reset with the public key, as a script of that page would send it. */
const resetFrom = (page: Page, url: string) =>
  page.evaluate(
    async ({ url, key }) => {
      try {
        const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
        return res.status;
      } catch (e) {
        return `refused by the browser: ${(e as Error).message}`;
      }
    },
    { url, key },
  );

describe('the /_sandbox/ controls in a browser', () => {
  it('a page of another origin cannot reset the sandbox, with CORS or with a "simple" request', async () => {
    await makeOne();
    const page = await browser.newPage();
    await page.goto(`${hostileOrigin}/`);
    // With the key (a preflighted request): the preflight gets no CORS, the browser never sends the POST.
    expect(await resetFrom(page, `${sb.origin}/_sandbox/reset`)).toMatch(/^refused by the browser/);
    // A "simple" request needs no preflight and is sent: the sandbox refuses it for its origin.
    const before = log.length;
    await page.evaluate(async (url) => {
      await fetch(url, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{}' });
    }, `${sb.origin}/_sandbox/reset`);
    await expect.poll(() => log.slice(before).find((l) => l.startsWith('POST /_sandbox/reset'))).toMatch(/ 403 /);
    await page.close();
    expect(await generatedVideos()).toBe(1);
  });

  it('a page that reached the sandbox under its own name (DNS rebinding) cannot reset it', async () => {
    await makeOne();
    const page = await browser.newPage();
    // Same origin for the browser: http://evil.test:PORT is the sandbox's address under the attacker's name.
    await page.goto(`http://evil.test:${sb.port}/docs`);
    expect(await resetFrom(page, '/_sandbox/reset')).toBe(403);
    await page.close();
    expect(await generatedVideos()).toBe(1);
  });

  it("the sandbox's own page (/docs, at 127.0.0.1 or localhost) can", async () => {
    for (const origin of [sb.origin, `http://localhost:${sb.port}`]) {
      await makeOne();
      const page = await browser.newPage();
      await page.goto(`${origin}/docs`);
      expect(await resetFrom(page, '/_sandbox/reset')).toBe(200);
      await page.close();
      expect(await generatedVideos()).toBe(0);
    }
  });

  it('a page of another origin still calls the API (CORS for every origin)', async () => {
    const page = await browser.newPage();
    await page.goto(`${hostileOrigin}/`);
    const status = await page.evaluate(
      async ({ url, key }) => (await fetch(url, { headers: { authorization: `Bearer ${key}` } })).status,
      { url: `${sb.baseUrl}/videos/`, key },
    );
    expect(status).toBe(200);
    await page.close();
  });
});
