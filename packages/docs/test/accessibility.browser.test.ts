// @module-tag full/browser
// Accessibility of the docs as a reader meets them, in a real browser: axe-core (4.14, the engine of
// Deque's checkers) run in Chromium on the landing page, an operation with its Try it console open (a
// form with hints, an answer, an error), and the flow page, in light and dark mode, served by a sandbox.
// The test fails on any serious or critical violation, and on any violation at all of the rules this
// site once broke (contrast, a name that hides the visible text, the console's dialog role, two banners).
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SANDBOX_KEYS, startSandbox, type RunningSandbox } from '@videogen/sandbox';
import { isLocal, launchBrowser, openOperation, openPage, waitForRedoc, type Browser } from './browser.ts';

/** Rules the site broke before (issue 36, item 11): none may fail, whatever impact axe gives them. */
const ONCE_BROKEN = [
  'color-contrast',
  'label-content-name-mismatch',
  'aria-allowed-role',
  'landmark-no-duplicate-banner',
  'landmark-unique',
  'scrollable-region-focusable',
  'region',
];

let browser: Browser;
let sb: RunningSandbox;

beforeAll(async () => {
  browser = await launchBrowser();
  sb = await startSandbox({ port: 0, timeScale: 100, rateLimiter: 'sliding' });
});

afterAll(async () => {
  await browser?.close();
  await sb?.close();
});

/**
 * Runs axe on the page as it stands (or on `within`, a part of it that changed); fails with each serious
 * or critical violation and where it is.
 */
async function checkPage(page: Page, where: string, within?: string) {
  const started = Date.now();
  // Only violations in detail (a node list for every pass costs time on a page of Redoc's size), and
  // axe run in the page itself: the default opens a second page per run to merge the results of frames,
  // which these pages have none of (it took twice as long).
  const builder = new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ['violations'] });
  if (within) builder.include(within);
  const results = await builder.analyze();
  const failing = results.violations.filter(
    (v) => v.impact === 'serious' || v.impact === 'critical' || ONCE_BROKEN.includes(v.id),
  );
  const report = failing.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n${v.nodes
        .slice(0, 5)
        .map((n) => `    ${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ')}`)
        .join('\n')}`,
  );
  expect(report, `axe on ${where}`).toEqual([]);
  // The rules ran (a page that axe could not read would pass nothing).
  expect(results.passes.map((p) => p.id)).toEqual(expect.arrayContaining(['color-contrast', 'button-name']));
  const left = results.violations.map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`);
  console.log(
    `docs: axe ${where}: ${results.passes.length} rules pass${left.length ? `; left: ${left.join(', ')}` : ''} (${Date.now() - started} ms)`,
  );
}

describe('axe-core finds no serious or critical violation', () => {
  // Each mode walks the same pages; the console targets this sandbox (a key chosen) in light mode and
  // "Another server" (a base URL and key typed) in dark mode, so that both panels are checked once.
  for (const colorScheme of ['light', 'dark'] as const) {
    const hosted = colorScheme === 'dark';
    test(`${colorScheme}: the landing page, an operation with its console (a form, hints, an answer), the flow page`, async () => {
      await sb.reset();
      const { page, watch } = await openPage(browser, colorScheme);
      await page.addInitScript(() => localStorage.removeItem('videogen.docs.target'));
      await page.goto(`${sb.origin}/docs/`);
      await waitForRedoc(page);
      await checkPage(page, `the landing page (${colorScheme})`);

      // The generation form (combinations, file pickers) with hints of what the service would refuse:
      // the PDF combination without a file. Sent: the error answer (status, words, headers, body).
      await openOperation(page, 'Videos', 'Generate a video');
      await page.getByRole('button', { name: 'Try it: Generate a video' }).first().click();
      const panel = page.locator('#vg-console');
      if (hosted) {
        await panel.getByLabel('Another server').check();
        await panel.getByLabel('Base URL').fill(sb.baseUrl);
        await panel.getByLabel('API key').fill(SANDBOX_KEYS.acme);
      }
      await panel.getByLabel('pdf_file (from-documents)', { exact: true }).check();
      await panel.getByRole('note', { name: 'Before sending' }).waitFor();
      await panel.getByRole('button', { name: 'Send', exact: true }).click();
      await expect.poll(() => panel.locator('.vg-status').getAttribute('data-status')).toBe('400');
      await checkPage(page, `Generate a video with its console open, a 400 shown (${colorScheme})`);

      if (!hosted) {
        // A success with its rate-limit rows, then the other panel (the console alone: the page is as above).
        await openOperation(page, 'Video settings', 'List video settings');
        await page.getByRole('button', { name: 'Try it: List video settings' }).first().click();
        await panel.getByRole('button', { name: 'Send', exact: true }).click();
        await expect.poll(() => panel.locator('.vg-status').getAttribute('data-status')).toBe('200');
        await panel.getByLabel('Another server').check();
        await panel.getByLabel('API key').waitFor();
        await checkPage(page, `the console showing a 200, "Another server" (${colorScheme})`, '#vg-console');
      }

      // The flow page, its settings loaded.
      await page.goto(`${sb.origin}/docs/flow.html`);
      const setting = page.getByRole('combobox', { name: 'Video setting' });
      await expect.poll(() => setting.locator('option').count()).toBe(7);
      await checkPage(page, `the flow page (${colorScheme})`);

      expect(watch.errors).toEqual([]);
      expect(browser.requests.filter((url) => !isLocal(url))).toEqual([]);
      await page.close();
    });
  }
});
