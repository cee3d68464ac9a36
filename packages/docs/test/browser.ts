// Headless Chromium (Debian's `chromium` package) driven by playwright-core, for the browser test.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { expect, inject, onTestFailed } from 'vitest';

/** Screenshots kept for people to look at (light and dark, the console, the flow page). */
export const ARTIFACTS = fileURLToPath(new URL('../test-results/', import.meta.url));

export interface Browser {
  context: BrowserContext;
  /** Every URL the browser asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * A browser context of the package's one Chromium (shared-browser.ts, vitest's globalSetup), per test
 * file: a fresh profile, so no cache, cookie or stored colour mode leaks between files. Every request is
 * recorded; one that would leave the machine is aborted as well as recorded, so a regression fails the
 * test instead of hanging on the network.
 */
export async function launchBrowser(): Promise<Browser> {
  const answer = await fetch(inject('browserEndpoint'));
  if (!answer.ok) throw new Error(await answer.text());
  const browser = await chromium.connect(await answer.text());
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, deviceScaleFactor: 1 });
  // Playwright's own waits (30 s by default) bound patience, not speed: a loaded machine may render a
  // page or take a screenshot slowly. The tests' assertions decide; these only end a real hang.
  context.setDefaultTimeout(120_000);
  context.setDefaultNavigationTimeout(120_000);
  const requests: string[] = [];
  context.on('request', (request) => requests.push(request.url()));
  await context.route('**/*', (route) => {
    if (isLocal(route.request().url())) return route.continue();
    return route.abort('blockedbyclient');
  });
  return {
    context,
    requests,
    close: async () => {
      await context.close();
      await browser.close(); // disconnects; the globalSetup closes Chromium after the last file
    },
  };
}

/** Loopback over HTTP(S), or a URL that never touches the network. */
export function isLocal(url: string): boolean {
  if (/^(file|data|blob|about):/.test(url)) return true;
  try {
    const { protocol, hostname } = new URL(url);
    return (protocol === 'http:' || protocol === 'https:') && ['127.0.0.1', 'localhost', '[::1]'].includes(hostname);
  } catch {
    return false;
  }
}

export interface Watch {
  errors: string[];
}

/**
 * A screenshot kept as an artifact in test-results/ for people to look at. Never a step that can fail a
 * test: on a busy machine a screenshot may time out (it waits for fonts and a stable frame), which says
 * nothing about the site; the failure is only noted.
 */
export async function artifact(page: Page, name: string) {
  try {
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), timeout: 60_000 });
  } catch (error) {
    console.warn(`docs: screenshot ${name}.png not taken (${(error as Error).message.split('\n')[0]})`);
  }
}

/**
 * A new page that records console errors and uncaught exceptions, and leaves a screenshot when its test
 * fails. Chromium logs "Failed to load resource" for every fetch answered 4xx/5xx: the console sends such
 * requests on purpose (a refused conversion, a 429), so that line is not an error of the page when it is
 * about an API request (a URL with /v1/); any other is.
 */
export async function openPage(browser: Browser, colorScheme: 'light' | 'dark'): Promise<{ page: Page; watch: Watch }> {
  const page = await browser.context.newPage();
  onTestFailed(async ({ task }) => {
    if (!page.isClosed()) await artifact(page, `failed-${task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}`);
  });
  const watch: Watch = { errors: [] };
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const deliberate =
      /^Failed to load resource: the server responded with a status of [45]\d\d/.test(msg.text()) &&
      /\/v1\//.test(msg.location().url);
    if (!deliberate) watch.errors.push(`console.error: ${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (error) => watch.errors.push(`uncaught: ${error.message}`));
  await page.emulateMedia({ colorScheme });
  return { page, watch };
}

/** Waits until Redoc has rendered its menu (the first thing it draws, whatever section is open). */
export async function waitForRedoc(page: Page) {
  await page.getByRole('link', { name: 'Quickstart', exact: true }).first().waitFor();
  // The search box reads "Loading..." until Redoc has indexed the page: settled after that.
  await expect.poll(() => page.getByTestId('search-trigger').first().textContent()).not.toContain('Loading');
}

/** Opens an operation from the menu: its tag first (unless already expanded), then the operation. */
export async function openOperation(page: Page, tag: string, summary: string) {
  const link = page.getByRole('link', { name: new RegExp(`^${escapeRegExp(summary)}`) }).first();
  if (!(await link.isVisible())) await page.getByRole('link', { name: tag, exact: true }).first().click();
  await link.click();
  await h2(page, summary).waitFor();
}

/** The h2 whose text is exactly `text` (Redoc adds link icons to headings' accessible names). */
export function h2(page: Page, text: string) {
  return page
    .locator('h2')
    .filter({ hasText: new RegExp(`^\\s*${escapeRegExp(text)}\\s*$`) })
    .first();
}

export function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
