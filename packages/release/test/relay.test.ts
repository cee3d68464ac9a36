// @module-tag full/packed
// @videogen/relay installed from its tarball in a fresh project (nested: it sees only what it declares):
// its README's quick start runs as written against a sandbox started from the sandbox's tarball, finds a
// video made with curl-like requests by listing, and delivers its event to a receiver here, signed as
// Standard Webhooks says; SIGTERM stops it. The video is made just before the relay starts: its first listing
// finds it (the default backfill), where one made after would wait for the next listing (20 s, 40 s when the
// first found nothing: the default interval, which the quick start keeps).
import { spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startSandboxBin, type SandboxProcess } from './helpers.ts';

const { projects } = inject('release');
const dir = projects['@videogen/relay'] ?? '';
const installed = join(dir, 'node_modules/@videogen/relay');
const readme = readFileSync(join(installed, 'README.md'), 'utf8');
const secret = `whsec_${Buffer.from('release-relay-secret-0123456789abcd').toString('base64')}`;

let sandbox: SandboxProcess;
beforeAll(async () => {
  sandbox = await startSandboxBin(projects['@videogen/sandbox'] ?? '', ['--time-scale', '100', '--quiet']);
});
afterAll(async () => {
  await sandbox?.stop();
});

describe('@videogen/relay in a fresh project', () => {
  it("runs the README's quick start: a listed video's event delivered, signed", async () => {
    const section = readme.slice(readme.indexOf('## Quick start'));
    const sample = /```js\n([\s\S]*?)```/.exec(section)?.[1];
    if (!sample) throw new Error('README.md has no js sample under "## Quick start"');
    writeFileSync(join(dir, 'quickstart.mjs'), sample);

    // A video made as curl makes it: nobody announces it; the relay lists it.
    const form = new FormData();
    form.set('video_setting_id', '5e77a000-0000-4000-8000-000000000001');
    form.set('text', 'Made with curl');
    const made = await fetch(`${sandbox.baseUrl}/videos/generate/`, {
      method: 'POST',
      headers: { authorization: 'Bearer sandbox-key-acme' },
      body: form,
    });
    const { video_id } = (await made.json()) as { video_id: string };

    const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
    const receiver = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
    const address = receiver.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const child = spawn(process.execPath, ['quickstart.mjs'], {
      cwd: dir,
      env: {
        ...process.env,
        VIDEO_API_BASE_URL: sandbox.baseUrl,
        VIDEO_API_KEY: 'sandbox-key-acme',
        VIDEO_WEBHOOK_SECRET: secret,
        WEBHOOK_URL: `http://127.0.0.1:${port}/hook`,
        PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      // Ready: it prints where it takes announces.
      for (let i = 0; i < 600 && !/announces at http:\/\/127\.0\.0\.1:\d+/.test(out); i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(out).toMatch(/announces at http:\/\/127\.0\.0\.1:\d+/);
      const ours = () =>
        received.find((r) => (JSON.parse(r.body) as { data?: { video_id?: string } }).data?.video_id === video_id);
      for (let i = 0; i < 1200 && !ours(); i++) await new Promise((r) => setTimeout(r, 50));
      const delivery = ours();
      expect(delivery, out).toBeDefined();
      expect(delivery?.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(delivery?.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(JSON.parse(delivery?.body ?? '{}')).toMatchObject({
        type: 'video.completed',
        data: { video_id, status: 'completed' },
      });
      // The signature is the relay's own, recomputed with the installed package's signer.
      const { signatures } = (await import(join(installed, 'dist/index.js'))) as {
        signatures: (s: string[], id: string, at: Date, body: string) => string;
      };
      const at = new Date(Number(delivery?.headers['webhook-timestamp']) * 1000);
      expect(signatures([secret], String(delivery?.headers['webhook-id']), at, delivery?.body ?? '')).toBe(
        delivery?.headers['webhook-signature'],
      );
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      receiver.close();
    }
  });
});
