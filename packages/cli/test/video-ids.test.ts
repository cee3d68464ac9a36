// @module-tag full/processes
// A video id on the command line is checked as the document types it (a UUID) before
// anything is sent. Before, `videogen status .` asked GET /videos/ (the URL parser resolves the dot) and
// printed the video list as the status of a video, exit 0.
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, SANDBOX_KEYS, startSandbox } from '@videogen/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorLine, run, type RunOptions } from './helpers.js';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let dir: string;
const acme = (): RunOptions => ({ key: SANDBOX_KEYS.acme, baseUrl: sandbox.baseUrl });

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, timeScale: 100, rateLimits: false, validateResponses: true });
  dir = mkdtempSync(join(tmpdir(), 'videogen-cli-ids-'));
});
afterAll(async () => {
  await sandbox?.close();
});

describe('a video id that is not a UUID', () => {
  const commands = (id: string) => [
    ['status', id],
    ['wait', id, '--interval', '0.05', '--timeout', '5'],
    ['download', id, join(dir, 'out.mp4')],
    ['convert', id, '--language', 'en'],
  ];

  it('is invalid input (exit 2) with one line naming it, and nothing is sent', async () => {
    const before = sandbox.stats();
    for (const id of ['.', '..', './', 'not-a-uuid', `${FIXTURES.acme.videos.convertible}/..`, '%2e'])
      for (const args of commands(id)) {
        const r = await run(args, acme());
        expect({ args, code: r.code, stdout: r.stdout }).toEqual({ args, code: 2, stdout: '' });
        expect(errorLine(r.stderr)).toBe(
          `videogen: video_id must be a UUID (8-4-4-4-12 hexadecimal digits), not ${JSON.stringify(id)}: pass a video id as "videogen list" or "videogen generate" prints it.`,
        );
      }
    expect(sandbox.stats()).toEqual(before);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('--json gets the error as JSON on stdout', async () => {
    const r = await run(['status', '.', '--json'], acme());
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: 'INVALID_INPUT', exit_code: 2 } });
  });

  it('is refused without a key too: the id is wrong whatever the account', async () => {
    const r = await run(['status', '.'], { baseUrl: sandbox.baseUrl });
    expect(r.code).toBe(2);
  });

  it('a real id, in any case, still reads its status', async () => {
    const id = FIXTURES.acme.videos.convertible;
    for (const given of [id, id.toUpperCase()]) {
      const r = await run(['status', given, '--json'], acme());
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ video_id: id, status: 'completed' });
    }
  });
});
