// @module-tag full/browser
// The built site in a real browser (headless Chromium), served over loopback under /docs like the
// sandbox serves it: every guide and operation renders, samples are there, dark mode works, nothing
// is fetched from outside the machine and nothing is logged as an error.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, type RunningSandbox } from '@videogen/sandbox';
import { loadBundledSpec, loadGuides, operations, packageDir } from '../scripts/docs-spec.mjs';
import { startStaticServer } from '../scripts/static-server.mjs';
import {
  ARTIFACTS,
  artifact as keep,
  escapeRegExp,
  h2,
  isLocal,
  launchBrowser,
  openOperation,
  openPage as open,
  waitForRedoc,
  type Browser,
} from './browser.ts';

const distIndex = join(packageDir, 'dist', 'index.html');
const spec = loadBundledSpec();
const { guides } = loadGuides();
const ops = operations(spec).map((o) => ({
  operationId: o.operationId as string,
  summary: o.operation.summary as string,
  tag: (o.operation.tags as string[])[0]!,
  // The first line of the TypeScript sample: seeing it proves x-codeSamples reached the page.
  sampleLine: readFileSync(join(packageDir, 'samples', `${o.operationId}.ts`), 'utf8').split('\n')[0]!,
}));

let browser: Browser;
let server: Awaited<ReturnType<typeof startStaticServer>>;
let origin: string;

const openPage = (colorScheme: 'light' | 'dark') => open(browser, colorScheme);
const artifact = keep;

/**
 * Scrolls down step by step (sections render lazily), collecting the headings seen, until every expected
 * heading was seen or the page has stayed at its bottom for about 5 s (a busy machine renders late: the
 * bound is on patience at the bottom, not on the time the page takes).
 */
async function scrollThrough(page: Page, expected: string[]) {
  const headings = new Set<string>();
  let idleAtBottom = 0;
  for (let step = 0; step < 2000 && idleAtBottom < 20; step++) {
    const seen = await page.evaluate(() => {
      const before = window.scrollY;
      window.scrollBy(0, Math.round(window.innerHeight * 0.8));
      return {
        headings: [...document.querySelectorAll('h1, h2')].map((e) => (e.textContent ?? '').trim()),
        atBottom: window.scrollY === before,
      };
    });
    for (const h of seen.headings) headings.add(h);
    if (expected.every((h) => headings.has(h))) break;
    idleAtBottom = seen.atBottom ? idleAtBottom + 1 : 0;
    await page.waitForTimeout(seen.atBottom ? 250 : 60);
  }
  return headings;
}

/** Relative luminance (0 black … 1 white) of the first opaque background under the page's centre. */
async function backgroundLuminance(page: Page): Promise<number> {
  return page.evaluate(() => {
    let el: Element | null = document.elementFromPoint(window.innerWidth / 2, window.innerHeight / 2);
    for (; el; el = el.parentElement) {
      const m = /rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)/.exec(getComputedStyle(el).backgroundColor);
      if (m && (m[4] === undefined || Number(m[4]) > 0.5)) {
        const [r, g, b] = [m[1], m[2], m[3]].map((v) => Number(v) / 255);
        return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
      }
    }
    return 1; // nothing painted: the canvas is white
  });
}

/**
 * The reference at /docs/ in light mode, rendered once for the tests that only open parts of it (an
 * operation, the search): a render of the 3 MB page costs Chromium about 2 s of CPU. Opened by the first
 * test that asks, so each still passes alone. No such test depends on what another left: each opens what it
 * reads from the menu whatever is expanded (openOperation), the sample language it reads is the one it
 * picked, and the search closes its dialog when done; none stores a setting (localStorage, cookie) or
 * navigates away.
 */
let reference: Promise<Awaited<ReturnType<typeof openPage>>> | undefined;
function sharedReference() {
  reference ??= (async () => {
    const opened = await openPage('light');
    await opened.page.goto(`${origin}/docs/`);
    await waitForRedoc(opened.page);
    return opened;
  })();
  return reference;
}

/** Picks a sample language from the one shown, in Redoc's language switcher (a menu or a list box). */
async function pickLanguage(page: Page, shown: string, wanted: string) {
  await page.getByRole('button', { name: shown }).first().click();
  await page
    .getByRole('menuitem', { name: wanted })
    .or(page.getByRole('option', { name: wanted }))
    .first()
    .click();
}

function outsideRequests() {
  return browser.requests.filter((url) => !isLocal(url));
}

beforeAll(async () => {
  if (!existsSync(distIndex)) throw new Error(`${distIndex} is missing: run "npm run build -w @videogen/docs" first`);
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launchBrowser();
  // Mounted at /docs, not /: the sandbox serves the page there, so nothing may assume the root.
  server = await startStaticServer({ root: join(packageDir, 'dist'), prefix: '/docs' });
  origin = `http://127.0.0.1:${server.port}`;
});

afterAll(async () => {
  await (await reference?.catch(() => undefined))?.page.close();
  await browser?.close();
  await server?.close();
});

describe('the built site in Chromium', () => {
  test('renders every guide and all operations with their code samples, offline and without errors', async () => {
    const { page, watch } = await sharedReference();
    // The landing as a reader meets it: at the top (the page is shared, and another test may have scrolled).
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('heading', { level: 1, name: new RegExp(escapeRegExp(spec.info.title)) }).waitFor();
    // The landing text says where the docs are served from (a static server here, not a sandbox).
    expect(await page.locator('#redoc p', { hasText: /^Served / }).textContent()).toBe(
      `Served from ${origin}, not by a sandbox (npm start runs one that serves them at http://127.0.0.1:4010/docs/): Try it sends to the base URL and key you type.`,
    );
    await artifact(page, 'landing-light');

    // Guides render as the reader scrolls.
    const headings = await scrollThrough(
      page,
      guides.map((g) => g.title),
    );
    for (const guide of guides) expect(headings, `guide "${guide.title}"`).toContain(guide.title);
    // The spaces kept at the end of list items and table cells (spaceBlockEnds) never show as text.
    expect(await page.evaluate(() => document.body.innerText)).not.toContain('&#32;');

    // A tag's operations render when it is opened: open each from the menu, as a reader would.
    expect(ops).toHaveLength(6);
    for (const op of ops) {
      await openOperation(page, op.tag, op.summary);
      await expect
        .poll(() => page.getByText(op.sampleLine, { exact: false }).first().isVisible(), {
          message: `TypeScript sample of ${op.operationId}`,
        })
        .toBe(true);
    }
    expect(watch.errors).toEqual([]);
    expect(outsideRequests()).toEqual([]);
  });

  test('an operation shows its TypeScript and curl samples', async () => {
    const { page, watch } = await sharedReference();
    await openOperation(page, 'Videos', 'Generate a video');
    await expect.poll(() => page.getByText('client.videos.generate(').first().isVisible()).toBe(true);
    await artifact(page, 'operation-light');

    // Switch the sample language: the curl sample replaces the TypeScript one.
    await pickLanguage(page, 'TypeScript', 'curl');
    await expect.poll(() => page.getByText('"$VIDEO_API_BASE_URL/videos/generate/"').first().isVisible()).toBe(true);
    // Redoc keeps the language chosen for every page of the site: back to TypeScript, which the other
    // tests read (before this, the first test failed whenever it ran after this one).
    await pickLanguage(page, 'curl', 'TypeScript');
    await expect.poll(() => page.getByText('client.videos.generate(').first().isVisible()).toBe(true);
    expect(watch.errors).toEqual([]);
    expect(outsideRequests()).toEqual([]);
  });

  test('search snippets keep the spaces between words, list items and table cells', async () => {
    const { page, watch } = await sharedReference();
    await page.getByTestId('search-trigger').first().click();
    /** The results shown for a query, each as its text (title, path, snippets). */
    const snippets = async (query: string) => {
      await page.getByPlaceholder('Search docs...').fill(query);
      const results = page.locator('[data-component-name="Search/SearchItem"]');
      await expect
        .poll(() => results.allTextContents().then((t) => t.join('\n')), { timeout: 20_000 })
        .toContain(query);
      return (await results.allTextContents()).map((t) => t.replace(/\s+/g, ' '));
    };
    // A soft break (a wrapped source line), list items, table cells: each ran words together before.
    const presigned = (await snippets('presigned')).join('\n');
    expect(presigned).toContain('presigned download_url');
    expect(presigned).toContain('(stop). Download from download_url');
    const plans = (await snippets('business')).join('\n');
    expect(plans).toContain('Field Personal plan Business plan');
    expect(`${presigned}\n${plans}`).not.toMatch(/&#32;|&amp;/);
    expect(watch.errors).toEqual([]);
    // The page is shared (sharedReference): the dialog closes, as a reader closes it.
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByPlaceholder('Search docs...').isVisible()).toBe(false);
  });

  test('dark mode follows the system, and the toggle switches it and is remembered', async () => {
    const { page, watch } = await openPage('dark');
    // A first visit: no stored colour mode (localStorage), no Redoc preferences (a cookie). Both are
    // cleared for the origin before the page loads, through the DevTools protocol: loading the 3 MB page
    // only to clear them and then reloading it rendered Redoc twice.
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'local_storage' });
    await cdp.detach();
    await browser.context.clearCookies();
    await page.goto(`${origin}/docs/`);
    await waitForRedoc(page);
    expect(await page.evaluate(() => localStorage.getItem('redoc.colorMode'))).toBeNull();
    const mode = () => page.evaluate(() => document.documentElement.className);
    expect(await mode()).toContain('dark');
    // Colours are read by polling: a transition may still be running on a busy machine.
    await expect.poll(() => backgroundLuminance(page)).toBeLessThan(0.25);
    await expect.poll(() => page.locator('#vg-theme-toggle').getAttribute('aria-label')).toBe('Switch to light mode');
    await artifact(page, 'landing-dark');

    await openOperation(page, 'Conversions', 'Convert a video');
    await expect.poll(() => page.getByText('client.convert(').first().isVisible()).toBe(true);
    await artifact(page, 'operation-dark');

    // The reader's choice wins over the system's, and survives a reload.
    await page.locator('#vg-theme-toggle').click();
    await expect.poll(mode).toContain('light');
    expect(await mode()).not.toContain('dark');
    await expect.poll(() => backgroundLuminance(page)).toBeGreaterThan(0.8);
    expect(await page.evaluate(() => localStorage.getItem('redoc.colorMode'))).toBe('light');
    await page.reload();
    await waitForRedoc(page);
    expect(await mode()).toContain('light');
    await expect.poll(() => backgroundLuminance(page)).toBeGreaterThan(0.8);

    await page.locator('#vg-theme-toggle').click();
    await expect.poll(mode).toContain('dark');
    expect(watch.errors).toEqual([]);
    expect(outsideRequests()).toEqual([]);
    await page.close();
  });

  test('works at /docs without a trailing slash: guide links, links to the other pages, deep links and the spec download', async () => {
    const { page, watch } = await openPage('light');
    await page.goto(`${origin}/docs`);
    await waitForRedoc(page);

    // Every in-page link of the guides points at a section that the menu has.
    const menu = new Set(
      // Redoc renders menu links as "/slug" or, once its hash router is active, "#/slug".
      await page.$$eval('a[href]', (as) =>
        as.map((a) => (a.getAttribute('href') ?? '').replace(/^#/, '')).filter((h) => h.startsWith('/')),
      ),
    );
    const guideSources = [loadGuides().intro, ...guides.map((g) => g.body)].join('\n');
    const targets = [...guideSources.matchAll(/\]\(#(\/[^)]*)\)/g)].map((m) => m[1]!);
    expect(targets.length).toBeGreaterThan(5);
    for (const target of targets) expect(menu, `guide link #${target}`).toContain(target);

    // Following one keeps the page at /docs and brings the section into view.
    await page.locator('a[href="#/quickstart"]').first().click();
    await expect.poll(() => page.url()).toBe(`${origin}/docs#/quickstart`);
    await expect.poll(() => headingTop(page, 'Quickstart')).toBeLessThan(300);

    // Links to the site's other pages resolve beside this one, though /docs has no slash: the site bar's,
    // and the landing text's (Markdown rendered by Redoc).
    expect(await page.locator('#vg-flow-link').getAttribute('href')).toBe('/docs/flow.html');
    await page.locator('#redoc a[href="flow.html"]').first().click();
    await expect.poll(() => page.url()).toBe(`${origin}/docs/flow.html`);
    await page.getByRole('heading', { name: 'Try the flow' }).waitFor();
    await page.goBack();
    await waitForRedoc(page);

    // A deep link opens at its section.
    await page.goto(`${origin}/docs#/limits`);
    await waitForRedoc(page);
    await expect.poll(() => headingTop(page, 'Limits')).toBeLessThan(300);

    // "Download OpenAPI" hands over the bundled document itself (not the docs copy).
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#vg-download-spec').click()]);
    // Read over the browser's connection (the browser is shared: its files are not this process's).
    const downloaded = JSON.parse(await text(await download.createReadStream()));
    expect(downloaded).toEqual(spec);

    expect(watch.errors).toEqual([]);
    expect(outsideRequests()).toEqual([]);
    await page.close();
  });
});

describe('on a 390 px phone', () => {
  /** Words split over two lines (a break after a hyphen is a break between words). */
  const brokenWords = (page: Page, selector: string) =>
    page.evaluate((sel) => {
      const out: string[] = [];
      for (const el of document.querySelectorAll(sel)) {
        if (!el.getClientRects().length) continue;
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (const m of (node.textContent ?? '').matchAll(/[^\s-]+/g)) {
            const range = document.createRange();
            range.setStart(node, m.index);
            range.setEnd(node, m.index + m[0].length);
            const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
            if (lines.size > 1) out.push(m[0]);
          }
        }
      }
      return out;
    }, selector);
  /** Controls of the site bar that do not fit the screen. */
  const clipped = (page: Page) =>
    page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.vg-bar a, .vg-bar button')]
        .filter((el) => el.getClientRects().length)
        .filter((el) => {
          const r = el.getBoundingClientRect();
          return r.left < 0 || r.right > document.documentElement.clientWidth;
        })
        .map((el) => el.textContent?.trim() || el.getAttribute('aria-label')),
    );
  const TITLES = '#redoc h1, #redoc h2, #redoc h3, #redoc td code, #redoc th code';

  test('titles and names wrap between words, the site bar and the console fit the screen', async () => {
    const { page, watch } = await openPage('light');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${origin}/docs/`);
    await waitForRedoc(page);
    await expect.poll(() => page.locator('#redoc h1').first().isVisible()).toBe(true);
    expect(await brokenWords(page, TITLES)).toEqual([]);
    expect(await clipped(page)).toEqual([]);
    // The colour button keeps its name with its label hidden.
    expect(await page.getByRole('button', { name: /^Switch to (dark|light) mode$/ }).isVisible()).toBe(true);
    await artifact(page, 'landing-390px');

    // An operation with the upload table (its field names: pdf_file, pptx_file …).
    await page.goto(`${origin}/docs/#/videos/generatevideo`);
    await h2(page, 'Generate a video').waitFor();
    await page.locator('#redoc td code', { hasText: 'pdf_file' }).first().scrollIntoViewIfNeeded();
    expect(await brokenWords(page, TITLES)).toEqual([]);
    expect(await page.locator('#redoc td code', { hasText: /^pdf_file$/ }).count()).toBeGreaterThan(0);
    await artifact(page, 'operation-390px');
    await page.getByRole('button', { name: 'Try it: Generate a video' }).first().click();
    const consoleBox = await page.locator('#vg-console').boundingBox();
    expect(consoleBox && consoleBox.x >= 0 && consoleBox.x + consoleBox.width <= 390).toBe(true);
    expect(await page.getByRole('button', { name: 'Close the console' }).isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    // The upload table on a wide screen too (there Redoc's own rule broke pdf_file at 768 to 1600 px).
    await page.setViewportSize({ width: 1280, height: 844 });
    expect(await brokenWords(page, TITLES)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });

    await page.goto(`${origin}/docs/flow.html`);
    await page.getByRole('heading', { name: 'Try the flow' }).waitFor();
    expect(await clipped(page)).toEqual([]);
    expect(await brokenWords(page, 'h1, h2')).toEqual([]);
    expect(watch.errors).toEqual([]);
    expect(outsideRequests()).toEqual([]);
    await page.close();
  });
});

describe('the sandbox serves the site at /docs', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, timeScale: 100, rateLimiter: 'sliding' }); // the page's requests are not paced
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  test('the page renders from the sandbox, offline', async () => {
    const { page, watch } = await openPage('light');
    await page.goto(`${sandbox.origin}/docs`);
    await waitForRedoc(page);
    // The landing text names this sandbox's origin (a free port here), not the default 4010.
    expect(await page.locator('#redoc p', { hasText: /^Served / }).textContent()).toBe(
      `Served by the sandbox at ${sandbox.origin}: its base URL is ${sandbox.origin}/v1, and Try it sends there with a key you pick from its accounts.`,
    );
    await page.getByRole('link', { name: 'Video settings', exact: true }).first().click();
    await h2(page, 'Video settings').waitFor();
    expect(watch.errors).toEqual([]);
    expect(outsideRequests()).toEqual([]);
    await page.close();
  });
});

async function headingTop(page: Page, name: string): Promise<number> {
  const box = await h2(page, name).boundingBox();
  return box ? Math.abs(box.y) : Number.POSITIVE_INFINITY;
}
