// Headless Chromium (Debian's `chromium` package) driven by playwright-core, for the browser test.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Fails (never skips) with the way to install Chromium when it is missing. */
export function requireChromium(): string {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}; the docs' browser test needs it. ` +
        'Install it with: apt-get update && apt-get install -y chromium ' +
        '(or set CHROMIUM_PATH to another Chromium binary).',
    );
  }
  return CHROMIUM_PATH;
}

export interface Browser {
  context: BrowserContext;
  /** Every URL the browser asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * A fresh profile (new user-data-dir) per launch, so no cache, cookie or stored colour mode leaks
 * between runs. Every request is recorded; one that would leave the machine is aborted as well as
 * recorded, so a regression fails the test instead of hanging on the network.
 */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = requireChromium();
  const userDataDir = mkdtempSync(join(tmpdir(), 'videogen-docs-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1400, height: 900 },
    deviceScaleFactor: 1,
  });
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
      rmSync(userDataDir, { recursive: true, force: true });
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
