// Debian's Chromium as every package's browser tests launch it through playwright-core: where it is, the
// flags of a headless run on a machine without a display, a GPU or a sandboxing kernel, and the error (never
// a skip) when it is missing. A test adds only what it is about (a resolver rule, a proxy setting).
import { existsSync } from 'node:fs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless, and nothing fetched in the background that a test did not ask for. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The Chromium binary, or an error saying how to install it (`what` names the test that needs it). */
export function requireChromium(what: string): string {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}; ${what} needs it. ` +
        'Install it with: apt-get update && apt-get install -y chromium ' +
        '(or set CHROMIUM_PATH to another Chromium binary).',
    );
  }
  return CHROMIUM_PATH;
}
