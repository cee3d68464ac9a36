// @module-tag full/browser
// The reports of a run as CI publishes them, against a sandbox behind a proxy that breaks it twice: a
// 500 only generated requests meet (a failure) and a page past the end answered 404 as Django REST
// Framework does (a difference from decision #30). The HTML report is opened in real Chromium (Debian's,
// through playwright-core): the coverage matrix, the failure and the drift each linked to a replay
// bundle that exists, nothing fetched from anywhere, no key. JUnit: the skip's reason in <skipped message>.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, requireChromium } from '../../../chromium.shared.js';
import { startSandboxTarget } from '../src/cli/launch.ts';
import { settingsFrom } from '../src/cli/target.ts';
import { runContract, type ContractRun } from '../src/commands/run.ts';
import { pathOf, queryOf, startBreakingProxy } from './breaking-proxy.ts';

const json = (status: number, body: unknown) => ({
  status,
  headers: { 'content-type': 'application/json' },
  text: JSON.stringify(body),
});

let dir: string;
let run: ContractRun;
let out = '';
let keys: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'contract-report-'));
  const sandbox = await startSandboxTarget(100);
  keys = [sandbox.config.apiKey!, sandbox.config.otherAccountKey!];
  const proxy = await startBreakingProxy(sandbox.handle.origin, {
    request: (req) => {
      const page = queryOf(req).get('page') ?? '';
      if (req.method === 'GET' && pathOf(req) === '/v1/videos/' && /^\d+$/.test(page) && Number(page) >= 10)
        return json(500, { error_code: 'UNKNOWN_ERROR', error: 'page out of range' });
      return undefined;
    },
    response: (res, req) => {
      if (req.method !== 'GET' || pathOf(req) !== '/v1/video-settings/' || res.status !== 200) return undefined;
      const b = JSON.parse(res.text);
      return b.page > 1 && b.results.length === 0
        ? json(404, { error_code: 'NOT_FOUND', error: 'Invalid page.' })
        : undefined;
    },
  });
  try {
    const s = settingsFrom(
      {
        profile: 'read-only',
        seed: '3',
        junit: join(dir, 'junit.xml'),
        summary: join(dir, 'summary.txt'),
        drift: join(dir, 'drift.md'),
        failures: join(dir, 'failures'),
        html: join(dir, 'report.html'),
      },
      {},
    );
    const config = {
      ...sandbox.config,
      baseUrl: proxy.baseUrl,
      kind: 'external' as const,
      strict: false,
      profile: 'read-only' as const,
      generation: s.generation,
    };
    run = await runContract(config, s, { out: (t) => (out += t), err: () => undefined });
  } finally {
    await proxy.close();
    await sandbox.close();
  }
});

describe('the reports of a run', () => {
  it('fails on the generated 500, reports the page past the end as drift', () => {
    expect(run.exitCode).toBe(1);
    const byId = new Map(run.results.map((r) => [`${r.operation} › ${r.name}`, r.state]));
    expect(byId.get('listVideos › generated_positive_data_conformance')).toBe('failed');
    expect(byId.get('listVideoSettings › paging_past_the_end')).toBe('drift');
    expect(out).toMatch(/^Coverage: \d+ seen, \d+ not seen, \d+ not reachable/m);
    expect(out).toMatch(/^Generated requests: \d+ \(.*listVideos \d+/m);
    // The boundary phase met it first, and names the class: page 2^31 (and the other large pages).
    expect(byId.get('listVideos › boundary_values')).toBe('failed');
    expect(out).toMatch(
      /^Boundary phase: \d+ classes of input over 4 operations \(\d+ class-requests.*\), \d+ failing:$/m,
    );
    expect(out).toMatch(/^ {2}listVideos: page: 2\^31 \(\d+ requests?\)$/m);
  });

  it('JUnit: names without the class, times to the millisecond, the skip reason in <skipped message>', () => {
    const xml = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(xml).toMatch(/<testcase classname="listVideos" name="paging_first_page" time="\d+(\.\d{1,3})?"/);
    expect(xml).not.toMatch(/name="listVideos (&gt;|>)/);
    expect(xml).toMatch(/<skipped message="profile read-only: [^"]+ \(--profile no-credit\)"\/>/);
  });

  it('the HTML report in Chromium: the matrix, the failure and the drift linked to bundles that exist, nothing fetched, no key', async () => {
    const file = join(dir, 'report.html');
    const html = readFileSync(file, 'utf8');
    for (const k of keys) expect(html).not.toContain(k);
    const userDataDir = mkdtempSync(join(tmpdir(), 'contract-report-chromium-'));
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: requireChromium("the suite's report test"),
      args: CHROMIUM_ARGS,
      headless: true,
      viewport: { width: 1280, height: 900 },
    });
    context.setDefaultTimeout(120_000);
    const requests: string[] = [];
    context.on('request', (r) => requests.push(r.url()));
    try {
      const page = await context.newPage();
      await page.goto(pathToFileURL(file).href);
      // Operations across: every operation of the document.
      const operations = await page.locator('table.matrix thead th').allTextContents();
      expect(operations.slice(1).sort()).toEqual(
        [
          'createConversion',
          'generateVideo',
          'getConversionOptions',
          'getVideo',
          'listVideoSettings',
          'listVideos',
        ].sort(),
      );
      // A seen cell, and a cell not reachable in read-only that says why on hover.
      expect(await page.locator('td.seen').count()).toBeGreaterThan(5);
      const unreachable = page.locator('td.unreachable').first();
      expect(await unreachable.getAttribute('title')).toMatch(/^not reachable: .*--profile/);
      // Beside the matrix, the classes of input the boundary phase sent, with the requests of each; the failing ones marked.
      const failing = await page.locator('table.classes tr.failed td:first-child').allTextContents();
      expect(failing).toContain('✗ page: 2^31');
      expect(await page.locator('table.classes tr.passed').count()).toBeGreaterThan(20);
      // Each link to a bundle resolves to a file the run wrote.
      const hrefs = await page.locator('a[href$=".json"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
      expect(hrefs.some((h) => h.includes('generated_positive_data_conformance'))).toBe(true);
      expect(hrefs.some((h) => h.endsWith('.drift.json'))).toBe(true);
      for (const h of hrefs) expect(existsSync(resolve(dirname(file), h)), h).toBe(true);
      await page.screenshot({
        // Kept as a test artifact (test-results/ is the package's turbo output), beside the docs' screenshots.
        path:
          process.env.CONTRACT_REPORT_SCREENSHOT ??
          fileURLToPath(new URL('../test-results/report.png', import.meta.url)),
        fullPage: true,
      });
      expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

afterAll(() => undefined);
