// vitest's globalSetup: one Chromium for the package's browser test files, launched when the first of them
// asks for it, closed after the last. Each file opens its own browser context on it (launchBrowser in
// browser.ts): a fresh profile with no cache, cookie or storage of another file's. A launch costs Chromium
// 2-3 s of CPU (the browser process, its zygotes, GPU, network and storage services); four files launched four.
// Lazily, so that a run without a browser file (the fast lane, samples.test.ts alone) starts no Chromium.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, requireChromium } from '../../../chromium.shared.js';

export default async function setup(project: TestProject) {
  let launched: Promise<BrowserServer> | undefined;
  const launch = async () => {
    const { chromium } = await import('playwright-core');
    return chromium.launchServer({
      executablePath: requireChromium("the docs' browser tests"),
      args: [...CHROMIUM_ARGS, '--disable-quic'],
      headless: true,
    });
  };
  // The test files run in worker processes: they ask this loopback endpoint for the browser's address.
  const endpoint = createServer((_req, res) => {
    launched ??= launch();
    launched.then(
      (server) => res.writeHead(200, { 'content-type': 'text/plain' }).end(server.wsEndpoint()),
      (error: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(error.message),
    );
  });
  await new Promise<void>((ok) => endpoint.listen(0, '127.0.0.1', ok));
  project.provide('browserEndpoint', `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/`);

  return async () => {
    await new Promise((ok) => endpoint.close(ok));
    if (launched) await (await launched.catch(() => undefined))?.close();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Answers GET with the shared Chromium's WebSocket address, launching it on the first request. */
    browserEndpoint: string;
  }
}
