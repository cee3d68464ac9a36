// The opt-in traffic log: one JSON line per exchange, key nowhere, in the shape `contract --har` reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, SANDBOX_KEYS, FIXTURES, type RunningSandbox } from '@videogen/sandbox';
import { createClient } from '../src/index.js';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, timeScale: 100 });
});
afterAll(() => sb?.close());

describe('logger / VIDEO_API_LOG=debug', () => {
  it('writes every exchange as a JSON line with its request and response, and never the key', async () => {
    const lines: string[] = [];
    const client = createClient({ apiKey: SANDBOX_KEYS.acme, baseUrl: sb.baseUrl, logger: (l) => lines.push(l) });
    for await (const _ of client.settings.list()) break;
    await client.videos.get(FIXTURES.acme.videos.convertible);
    await expect(client.videos.get('3f6c2a4e-8b1d-4c7a-9e2f-5d8b7a6c4e10')).rejects.toMatchObject({ status: 404 });
    // The exchanges are the debug lines (the pacer's waits between them are info lines).
    const records = lines.map((l) => JSON.parse(l)).filter((r) => r.level === 'debug');
    expect(records).toHaveLength(3);
    expect(records.map((r) => [r.request.method, new URL(r.request.url).pathname, r.response.status])).toEqual([
      ['GET', '/v1/video-settings/', 200],
      ['GET', `/v1/videos/${FIXTURES.acme.videos.convertible}/`, 200],
      ['GET', '/v1/videos/3f6c2a4e-8b1d-4c7a-9e2f-5d8b7a6c4e10/', 404],
    ]);
    expect(JSON.parse(records[2].response.body)).toMatchObject({ error_code: 'NOT_FOUND' });
    expect(records[0].response.headers['content-type']).toMatch(/json/);
    expect(lines.join('\n')).not.toContain(SANDBOX_KEYS.acme);
    expect(records[0].request.headers.authorization).toBeUndefined();
  });

  it('logs nothing unless asked', async () => {
    const lines: string[] = [];
    const original = console.error;
    console.error = (...a: unknown[]) => void lines.push(a.join(' '));
    try {
      const client = createClient({ apiKey: SANDBOX_KEYS.acme, baseUrl: sb.baseUrl });
      await client.videos.get(FIXTURES.acme.videos.convertible);
    } finally {
      console.error = original;
    }
    expect(lines).toEqual([]);
  });
});
