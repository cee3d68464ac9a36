// @module-tag full/browser
// The "Try it" console and the flow page in a real browser (Debian's Chromium), against a sandbox this test
// starts: every operation is tried from the page (a multipart generation with a real file among them), the
// answers are read as a reader reads them (status, headers, body, words, curl), the flow page plays the
// generated and the converted video to their `ended` event, and the console also works hosted elsewhere,
// against a base URL and key typed in, without keeping the key. Nothing leaves the machine; no console error.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FIXTURES, SANDBOX_KEYS, startSandbox, type RunningSandbox } from '@videogen/sandbox';
import { packageDir } from '../scripts/docs-spec.mjs';
import { startStaticServer } from '../scripts/static-server.mjs';
import {
  artifact,
  isLocal,
  launchBrowser,
  openOperation,
  openPage,
  waitForRedoc,
  type Browser,
  type Watch,
} from './browser.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const acme = FIXTURES.acme;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

let browser: Browser;
let sb: RunningSandbox;

beforeAll(async () => {
  if (!existsSync(join(packageDir, 'dist', 'flow.html')))
    throw new Error('dist/ is missing: run "npm run build -w @videogen/docs" first');
  browser = await launchBrowser();
  // Fast (a generation takes 0.3 s), and the burst-tolerant reading of 8.1: a test clicks faster than a reader.
  sb = await startSandbox({ port: 0, timeScale: 100, rateLimiter: 'sliding', validateResponses: true });
});

afterAll(async () => {
  await browser?.close();
  const violations = sb ? [...sb.violations] : [];
  await sb?.close();
  // Every answer the console and the flow page were given matched the OpenAPI document.
  expect(violations).toEqual([]);
});

const outside = () => browser.requests.filter((url) => !isLocal(url));

/**
 * A page that starts from the console's default target (this sandbox, its first key): the target a test
 * chose is kept in localStorage, which every page of the sandbox's origin shares.
 */
async function openFresh(colorScheme: 'light' | 'dark') {
  const opened = await openPage(browser, colorScheme);
  await opened.page.addInitScript(() => localStorage.removeItem('videogen.docs.target'));
  return opened;
}

/** The reference served by the sandbox, rendered, in a fresh page. */
async function openReference(colorScheme: 'light' | 'dark') {
  const opened = await openFresh(colorScheme);
  await opened.page.goto(`${sb.origin}/docs/`);
  await waitForRedoc(opened.page);
  return opened;
}

/** GET on the sandbox with a key, to check what the page did. */
async function api(path: string, key: string = SANDBOX_KEYS.acme) {
  const res = await fetch(`${sb.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: (await res.json()) as any };
}

/** The console panel, opened from an operation's Try it button. */
async function tryIt(page: Page, tag: string, summary: string) {
  await openOperation(page, tag, summary);
  await page
    .getByRole('button', { name: `Try it: ${summary}` })
    .first()
    .click();
  const panel = page.locator('#vg-console');
  await expect.poll(() => panel.isVisible()).toBe(true);
  await expect.poll(() => panel.getByRole('heading', { level: 2 }).textContent()).toBe(`Try it: ${summary}`);
  return panel;
}

/** Presses Send and waits for the answer's status; returns it with the body and the headers as shown. */
async function send(panel: ReturnType<Page['locator']>, expected: number) {
  await panel.getByRole('button', { name: 'Send', exact: true }).click();
  const status = panel.locator('.vg-status');
  await expect.poll(() => status.getAttribute('data-status')).toBe(String(expected));
  const body = (await panel.locator('.vg-body').textContent()) ?? '';
  const headers = Object.fromEntries(
    await panel
      .locator('.vg-headers tr')
      .evaluateAll((rows) => rows.map((r) => [r.querySelector('th')?.textContent, r.querySelector('td')?.textContent])),
  ) as Record<string, string>;
  const words = (await panel.locator('.vg-explain').textContent()) ?? '';
  let json: any;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { json, body, headers, words };
}

function expectClean(watch: Watch) {
  expect(watch.errors).toEqual([]);
  expect(outside()).toEqual([]);
}

describe('the console, served by the sandbox', () => {
  test('GET / leads to the docs, whose servers panel names this sandbox', async () => {
    const { page, watch } = await openFresh('light');
    await page.goto(`${sb.origin}/`);
    await expect.poll(() => page.url()).toBe(`${sb.origin}/docs/`);
    await waitForRedoc(page);
    await openOperation(page, 'Video settings', 'List video settings');
    const html = await page.content();
    // The servers panel of the operation: this sandbox's origin, not the document's 4010.
    expect(html).toContain(`${sb.origin}/v1/video-settings/`);
    expect(html).not.toContain('http://127.0.0.1:4010/v1/video-settings/');
    expectClean(watch);
    await page.close();
  });

  test('every operation is tried from the page: parameters, a JSON body, a multipart form with a file', async () => {
    await sb.reset();
    const { page, watch } = await openReference('light');

    // listVideoSettings: query parameter, the rate-limit headers, a curl that runs.
    let panel = await tryIt(page, 'Video settings', 'List video settings');
    expect(await panel.getByRole('combobox', { name: 'Sandbox key' }).inputValue()).toBe(SANDBOX_KEYS.acme);
    expect(await panel.getByLabel('page (query)').inputValue()).toBe('1');
    let answer = await send(panel, 200);
    expect(answer.json.results.map((s: any) => s.video_setting_id)).toContain(acme.settings.text);
    expect(Object.keys(answer.headers)).toEqual(
      expect.arrayContaining(['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy']),
    );
    expect(answer.words).toContain('RateLimit-*: this rate-limit class allows 5 request(s)');
    const curl = (await panel.getByLabel('Request as curl').textContent()) ?? '';
    expect(curl).toContain(`${sb.origin}/v1/video-settings/?page=1`);
    // Run as a reader pastes it (asynchronously: the sandbox answers from this process).
    const { stdout } = await promisify(execFile)('bash', ['-c', `${curl} --silent`], { encoding: 'utf8' });
    const viaCurl = JSON.parse(stdout);
    expect(viaCurl.results).toHaveLength(7);
    await artifact(page, 'console-light');

    // listVideos: the seeded videos.
    panel = await tryIt(page, 'Videos', 'List videos');
    answer = await send(panel, 200);
    expect(answer.json.results.map((v: any) => v.video_id)).toContain(acme.videos.convertible);

    // generateVideo: the PDF combination, a real file from the file picker, the fitting setting chosen.
    panel = await tryIt(page, 'Videos', 'Generate a video');
    await panel.getByLabel('pdf_file (from-documents)', { exact: true }).check();
    expect(await panel.getByLabel('video_setting_id (required)').inputValue()).toBe(acme.settings.pdf);
    await panel.getByLabel('pdf_file', { exact: true }).setInputFiles({
      name: 'report.pdf',
      mimeType: 'application/pdf',
      buffer: PDF,
    });
    expect(await panel.getByLabel('Request as curl').textContent()).toContain("--form 'pdf_file=@report.pdf'");
    answer = await send(panel, 200);
    expect(answer.json.video_id).toMatch(UUID);
    expect(answer.words).toContain('Accepted: the new video');
    const created = answer.json.video_id as string;
    expect((await api(`/videos/${created}/`)).status).toBe(200);
    await artifact(page, 'console-generate-light');

    // "Poll this video" opens getVideo with the new id.
    await panel.getByRole('button', { name: 'Poll this video' }).click();
    await expect.poll(() => panel.getByRole('heading', { level: 2 }).textContent()).toContain("Get a video's status");
    expect(await panel.getByLabel('video_id (path, required)').inputValue()).toBe(created);
    answer = await send(panel, 200);
    expect(['running', 'completed']).toContain(answer.json.status);

    // getVideo on a seeded video: completed, with its download address.
    panel = await tryIt(page, 'Videos', "Get a video's status and download address");
    await panel.getByLabel('video_id (path, required)').fill(acme.videos.convertible);
    answer = await send(panel, 200);
    expect(answer.json.status).toBe('completed');
    expect(answer.json.download_url).toMatch(new RegExp(`^${sb.origin}/downloads/`));

    // getConversionOptions.
    panel = await tryIt(page, 'Conversions', "Get a video's conversion options");
    await panel.getByLabel('video_id (path, required)').fill(acme.videos.limitedVoices);
    answer = await send(panel, 200);
    expect(answer.json.available_languages).toEqual(['en', 'ko']);

    // createConversion: a refusal of 7.2 explained in words, then a conversion accepted.
    panel = await tryIt(page, 'Conversions', 'Convert a video');
    await panel.getByLabel('video_id (path, required)').fill(acme.videos.limitedVoices);
    await panel.getByLabel('language', { exact: true }).selectOption('fr');
    expect(JSON.parse((await panel.locator('textarea.vg-json').inputValue()) || '{}')).toEqual({ language: 'fr' });
    answer = await send(panel, 400);
    expect(answer.json.error_code).toBe('LANGUAGE_NOT_SUPPORTED_BY_VOICES');
    expect(answer.words).toContain("the language is not in the source video's available_languages");
    await panel.getByLabel('video_id (path, required)').fill(acme.videos.convertible);
    await panel.getByLabel('language', { exact: true }).selectOption('en');
    await panel.getByLabel('aspect_ratio', { exact: true }).selectOption('9:16');
    answer = await send(panel, 200);
    expect(answer.json.video_id).toMatch(UUID);
    expect((await api(`/videos/${answer.json.video_id}/`)).status).toBe(200);

    expectClean(watch);
    await page.close();
  });

  test('a 429 shows Retry-After and the RateLimit-* headers, explained; keys of other plans; the reset', async () => {
    await sb.reset();
    const { page, watch } = await openReference('dark');

    let panel = await tryIt(page, 'Video settings', 'List video settings');
    sb.faults.add('acme', { kind: '429', retry_after_seconds: 700 });
    let answer = await send(panel, 429);
    expect(answer.headers['retry-after']).toBe('7');
    expect(answer.words).toContain('Retry-After: wait 7 s before sending again.');
    expect(answer.words).toContain('RATE_LIMIT_EXCEEDED');

    // The Free plan's key: conversions refused with 403, the plan visible with its differences.
    await panel.getByRole('combobox', { name: 'Sandbox key' }).selectOption(SANDBOX_KEYS.initech);
    await panel.getByText('Plans and their differences').click();
    const plans = panel.locator('table.vg-plans');
    expect(await plans.locator('td.vg-current').first().textContent()).toContain('not available (403');
    panel = await tryIt(page, 'Conversions', 'Convert a video');
    await panel.getByLabel('video_id (path, required)').fill(FIXTURES.initech.videos.convertible);
    answer = await send(panel, 403);
    expect(answer.json.error_code).toBe('INSUFFICIENT_CREDIT');
    expect(answer.words).toContain('the Free plan cannot convert');
    await artifact(page, 'console-dark');

    // Reset, same-origin: acme's generated videos go.
    await panel.getByRole('combobox', { name: 'Sandbox key' }).selectOption(SANDBOX_KEYS.acme);
    const before = (await api('/videos/')).body.total_count as number;
    await api('/videos/'); // (a class-B request: the sliding limiter allows it)
    const gen = await fetch(`${sb.baseUrl}/videos/generate/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SANDBOX_KEYS.acme}` },
      body: (() => {
        const f = new FormData();
        f.append('video_setting_id', acme.settings.text);
        f.append('text', 'to be reset');
        return f;
      })(),
    });
    expect(gen.status).toBe(200);
    expect((await api('/videos/')).body.total_count).toBe(before + 1);
    await panel.getByRole('button', { name: 'Reset account' }).click();
    await expect.poll(() => panel.getByText('Account acme is back to its seed').isVisible()).toBe(true);
    expect((await api('/videos/')).body.total_count).toBe(7);

    expectClean(watch);
    await page.close();
  });
});

describe('the console, keyboard and accounts', () => {
  /** What has the focus, as a reader hears it: its label, else its name, else its text. */
  const focused = (page: Page) =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLInputElement | null;
      if (!el || el === document.body) return 'body';
      const label = el.labels?.[0]?.textContent ?? el.getAttribute('aria-label') ?? el.textContent ?? '';
      return `${el.tagName.toLowerCase()} ${label.trim()}`;
    });

  test('"Another server" keeps the key typed and the focus: a click into the key field, then Tab from field to field, then Send', async () => {
    await sb.reset();
    const { page, watch } = await openReference('light');
    const panel = await tryIt(page, 'Video settings', 'List video settings');

    // With the mouse, as the issue met it: the base URL typed, then a click into the key field.
    await panel.getByLabel('Another server').check();
    await panel.getByLabel('Base URL').pressSequentially(sb.baseUrl);
    const keyId = await panel.getByLabel('API key').getAttribute('id');
    await panel.getByLabel('API key').click();
    expect(await focused(page)).toBe('input API key');
    await page.keyboard.type(SANDBOX_KEYS.globex);
    // The same field (same id) holds the key, the base URL is kept, and Send is enabled at once.
    expect(await panel.getByLabel('API key').getAttribute('id')).toBe(keyId);
    expect(await panel.getByLabel('API key').inputValue()).toBe(SANDBOX_KEYS.globex);
    expect(await panel.getByLabel('Base URL').inputValue()).toBe(sb.baseUrl);
    const sendButton = panel.getByRole('button', { name: 'Send', exact: true });
    expect(await sendButton.isEnabled()).toBe(true);

    // With the keyboard only, from the console's title (it takes the focus when the console opens).
    await panel.getByLabel('This sandbox').check();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Try it: List video settings' }).first().focus();
    await page.keyboard.press('Enter');
    expect(await focused(page)).toBe('h2 Try it: List video settings');
    // Each key, and where the focus is after it. The arrow key chooses "Another server": the focus stays
    // on the radio, and Tab goes on into the fields of that panel.
    const steps: [key: string, focus: string][] = [
      ['Tab', 'button Close the console'],
      ['Tab', 'input This sandbox'],
      ['ArrowRight', 'input Another server'],
      ['Tab', 'input Base URL'],
      ['Tab', 'input API key'],
      ['Tab', 'input Keep the key in this browser (localStorage)'],
    ];
    for (const [key, focus] of steps) {
      await page.keyboard.press(key);
      expect(await focused(page), `after ${key}`).toBe(focus);
    }
    // Tab on to Send (the page parameter on the way), and Enter.
    for (let i = 0; i < 10 && (await focused(page)) !== 'button Send'; i++) await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('button Send');
    await page.keyboard.press('Enter');
    await expect.poll(() => panel.locator('.vg-status').getAttribute('data-status')).toBe('200');
    const body = JSON.parse((await panel.locator('.vg-body').textContent()) ?? '{}');
    expect(body.results[0].video_setting_id).toBe(FIXTURES.globex.settings.text);

    // Escape closes the console and gives the focus back to the Try it button that opened it.
    await page.keyboard.press('Escape');
    expect(await panel.isVisible()).toBe(false);
    expect(await focused(page)).toBe('button Try it: List video settings');
    expectClean(watch);
    await page.close();
  });

  test("another account: the console offers and sends that account's own setting and videos", async () => {
    await sb.reset();
    const { page, watch } = await openReference('light');
    const panel = await tryIt(page, 'Videos', 'Generate a video');
    const setting = panel.getByLabel('video_setting_id (required)');
    expect(await setting.inputValue()).toBe(acme.settings.text);

    // globex (Personal plan): its own text setting, and only its settings offered.
    await panel.getByRole('combobox', { name: 'Sandbox key' }).selectOption(SANDBOX_KEYS.globex);
    await expect.poll(() => setting.inputValue()).toBe(FIXTURES.globex.settings.text);
    const offered = await panel
      .locator('datalist option')
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(offered).toEqual(expect.arrayContaining(Object.values(FIXTURES.globex.settings)));
    expect(offered.filter((id) => Object.values(acme.settings).includes(id))).toEqual([]);
    const answer = await send(panel, 200);
    expect(answer.json.video_id).toMatch(UUID);
    expect((await api(`/videos/${answer.json.video_id}/`, SANDBOX_KEYS.globex)).status).toBe(200);

    // Another account's id typed by hand: said before sending.
    await setting.fill(acme.settings.text);
    expect(await panel.getByRole('note', { name: 'Before sending' }).textContent()).toContain(
      `video_setting_id ${acme.settings.text} is not one of this account's settings`,
    );
    // Back to acme: its own choice again; the video made by globex is not offered to acme.
    await panel.getByRole('combobox', { name: 'Sandbox key' }).selectOption(SANDBOX_KEYS.acme);
    await expect.poll(() => setting.inputValue()).toBe(acme.settings.text);
    const poll = await tryIt(page, 'Videos', "Get a video's status and download address");
    const videos = await poll
      .locator('datalist option')
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(videos).toContain(acme.videos.convertible);
    expect(videos).not.toContain(answer.json.video_id);
    expect(videos.filter((id) => Object.values(FIXTURES.globex.videos).includes(id))).toEqual([]);
    expectClean(watch);
    await page.close();
  });

  test("the flow page: another account loads that account's settings, and generates with one", async () => {
    await sb.reset();
    const { page, watch } = await openFresh('light');
    await page.goto(`${sb.origin}/docs/flow.html`);
    const setting = page.getByRole('combobox', { name: 'Video setting' });
    const ids = () => setting.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    await expect.poll(ids).toEqual(Object.values(acme.settings));
    await page.getByRole('combobox', { name: 'Sandbox key' }).selectOption(SANDBOX_KEYS.globex);
    await expect.poll(ids).toEqual(Object.values(FIXTURES.globex.settings));
    await setting.selectOption(FIXTURES.globex.settings.text);
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await expect
      .poll(() => page.getByRole('list', { name: 'Status', exact: true }).textContent())
      .toMatch(/generation accepted: video [0-9a-f-]{36}/);
    expect(await page.locator('.vg-errors').isVisible()).toBe(false);
    expectClean(watch);
    await page.close();
  });
});

describe('the console, hosted elsewhere', () => {
  test('targets the base URL and key typed in; the key stays in memory unless kept, and never in a URL', async () => {
    const server = await startStaticServer({ root: join(packageDir, 'dist'), prefix: '/docs' });
    const origin = `http://127.0.0.1:${server.port}`;
    try {
      const { page, watch } = await openPage(browser, 'light');
      await page.goto(`${origin}/docs/`);
      await waitForRedoc(page);
      const panel = await tryIt(page, 'Video settings', 'List video settings');
      // No sandbox served this page: no account list, a base URL and a key to type.
      expect(await panel.getByRole('combobox', { name: 'Sandbox key' }).count()).toBe(0);
      expect(await panel.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(true);
      await panel.getByLabel('Base URL').fill(sb.baseUrl);
      await panel.getByLabel('Base URL').press('Tab');
      await panel.getByLabel('API key').fill(SANDBOX_KEYS.globex);
      await panel.getByLabel('API key').press('Tab');
      const answer = await send(panel, 200);
      expect(answer.json.results[0].video_setting_id).toBe(FIXTURES.globex.settings.text);
      // The curl reads the key from the environment: a typed key is never shown.
      const curl = (await panel.getByLabel('Request as curl').textContent()) ?? '';
      expect(curl).toContain('"Authorization: Bearer $VIDEO_API_KEY"');
      expect(curl).not.toContain(SANDBOX_KEYS.globex);

      const stored = () => page.evaluate(() => JSON.stringify(localStorage));
      expect(await stored()).toContain(sb.baseUrl);
      expect(await stored()).not.toContain(SANDBOX_KEYS.globex);
      await page.reload();
      await waitForRedoc(page);
      const again = await tryIt(page, 'Video settings', 'List video settings');
      expect(await again.getByLabel('API key').inputValue()).toBe('');
      // Kept only when asked.
      await again.getByLabel('API key').fill(SANDBOX_KEYS.globex);
      await again.getByLabel('API key').press('Tab');
      await again.getByLabel('Keep the key in this browser (localStorage)').check();
      expect(await stored()).toContain(SANDBOX_KEYS.globex);
      await again.getByLabel('Keep the key in this browser (localStorage)').uncheck();
      expect(await stored()).not.toContain(SANDBOX_KEYS.globex);

      // A generation, hosted: the account's settings are unknown until listed with the typed key; then its
      // own setting for the chosen combination is picked, and the video is made.
      const gen = await tryIt(page, 'Videos', 'Generate a video');
      const setting = gen.getByLabel('video_setting_id (required)');
      expect(await setting.inputValue()).toBe('');
      await gen.getByRole('button', { name: "List this account's settings" }).click();
      await expect.poll(() => setting.inputValue()).toBe(FIXTURES.globex.settings.text);
      const made = await send(gen, 200);
      expect((await api(`/videos/${made.json.video_id}/`, SANDBOX_KEYS.globex)).status).toBe(200);

      expect(browser.requests.filter((url) => url.includes(SANDBOX_KEYS.globex))).toEqual([]);
      expect(page.url()).not.toContain(SANDBOX_KEYS.globex);
      expectClean(watch);
      await page.close();
    } finally {
      await server.close();
    }
  });
});

describe('Try the flow', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`${colorScheme}: generate, poll, play the video to its end, convert, play the conversion; errors in words`, async () => {
      await sb.reset();
      const { page, watch } = await openReference(colorScheme);
      await page.getByRole('banner').getByRole('link', { name: 'Try the flow' }).click();
      await expect.poll(() => page.url()).toBe(`${sb.origin}/docs/flow.html`);
      await page.getByRole('heading', { name: 'Try the flow' }).waitFor();

      // Served by the sandbox: its settings load at once; the time scale is shown.
      const setting = page.getByRole('combobox', { name: 'Video setting' });
      await expect.poll(() => setting.locator('option').count()).toBe(7);
      expect(await page.getByText('this sandbox runs 100× faster').isVisible()).toBe(true);
      await setting.selectOption(acme.settings.text);
      await page.getByLabel('Prompt (text)').fill(`A flow page test in ${colorScheme} mode`);
      await page.getByRole('button', { name: 'Generate', exact: true }).click();

      const video = page.getByLabel('The generated video');
      await expect.poll(() => video.getAttribute('data-ended'), { timeout: 120_000 }).toBe('true');
      const statuses = await page
        .getByRole('list', { name: 'Status', exact: true })
        .locator('li[data-status]')
        .allTextContents();
      expect(statuses.at(-1)).toMatch(/^completed after/);
      expect(await video.evaluate((v: HTMLVideoElement) => v.duration)).toBeGreaterThan(0);

      // The conversion: a language of the video's available ones, played to its end too.
      const language = page.getByRole('combobox', { name: 'Target language' });
      await expect.poll(() => language.inputValue()).not.toBe('');
      await page.getByRole('button', { name: 'Convert', exact: true }).click();
      const converted = page.getByLabel('The converted video');
      await expect.poll(() => converted.getAttribute('data-ended'), { timeout: 120_000 }).toBe('true');
      await artifact(page, `flow-${colorScheme}`);

      // A conversion that cannot succeed (its own language): refused, and said in words.
      const own = await page.evaluate(() => {
        const select = document.querySelector<HTMLSelectElement>('select[aria-label="Target language"]')!;
        return select.options[0]!.textContent!.replace(/^keep (\S+).*$/, '$1');
      });
      await language.selectOption(own);
      await page.getByRole('button', { name: 'Convert', exact: true }).click();
      const refused = page.locator('.vg-errors li[data-code="CONVERT_NO_CHANGE"]');
      await expect.poll(() => refused.count()).toBe(1);
      expect(await refused.textContent()).toContain('The video already has that language and aspect ratio');

      expectClean(watch);
      await page.close();
    });
  }
});
