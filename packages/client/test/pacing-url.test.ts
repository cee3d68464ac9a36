// The shared schedule's configuration (issue 25): checked when the client is created, before anything loads.
import { createServer, type AddressInfo } from 'node:net';
import { SANDBOX_KEYS, startSandbox, type RunningSandbox } from '@videogen/sandbox';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, type ClientOptions } from '../src/index.js';
import { pacingUrlProblem } from '../src/pacing-store.js';

describe('pacingUrl / VIDEO_API_PACING_URL', () => {
  it('refuses a URL that is not redis://, rediss:// or redis-sentinel://, naming the variable', () => {
    expect(() =>
      createClient({ apiKey: 'k', baseUrl: 'http://127.0.0.1:1/v1', pacingUrl: 'http://cache:6379' }),
    ).toThrow(/VIDEO_API_PACING_URL \(pacingUrl\) must be a redis:\/\/, rediss:\/\/ or redis-sentinel:\/\/ URL/);
    expect(pacingUrlProblem('redis-sentinel://s1:26379#mymaster')).toBeUndefined();
  });

  it('refuses pacingUrl with a clock of its own (the shared schedule runs on real time)', () => {
    const clock = { now: () => 0, sleep: async () => {} };
    expect(() =>
      createClient({ apiKey: 'k', baseUrl: 'http://127.0.0.1:1/v1', pacingUrl: 'redis://localhost:6379/0', clock }),
    ).toThrow(/pacingStore/);
  });

  it('a client on its own clock ignores the variable: it paces alone', () => {
    const before = process.env.VIDEO_API_PACING_URL;
    process.env.VIDEO_API_PACING_URL = 'not a url';
    try {
      const clock = { now: () => 0, sleep: async () => {} };
      expect(() => createClient({ apiKey: 'k', baseUrl: 'http://127.0.0.1:1/v1', clock })).not.toThrow();
      expect(() => createClient({ apiKey: 'k', baseUrl: 'http://127.0.0.1:1/v1' })).toThrow(TypeError);
    } finally {
      if (before === undefined) delete process.env.VIDEO_API_PACING_URL;
      else process.env.VIDEO_API_PACING_URL = before;
    }
  });
});

describe('shared pacing lost and back: the operator hears it', () => {
  let sb: RunningSandbox;
  let port: number;
  // The client keeps one store per URL in a process: each case its own database, its own store.
  let db = 0;
  beforeAll(async () => {
    sb = await startSandbox({ port: 0, rateLimits: false });
    // A port that was free a moment ago: Redis is not there, the connection is refused at once.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
  });
  afterAll(() => sb.close());

  const linesWhile = async (options: Partial<ClientOptions>, env: string | undefined) => {
    const before = process.env.VIDEO_API_LOG;
    if (env === undefined) delete process.env.VIDEO_API_LOG;
    else process.env.VIDEO_API_LOG = env;
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((line: unknown) => void lines.push(String(line)));
    try {
      const client = createClient({
        apiKey: SANDBOX_KEYS.acme,
        baseUrl: sb.baseUrl,
        pacingUrl: `redis://127.0.0.1:${port}/${db++}`,
        ...options,
      });
      // The call does not wait on the missing Redis: it is paced in this process and answered.
      expect((await client.settings.list()).results.length).toBeGreaterThan(0);
      return lines.filter((l) => l.includes('shared pacing'));
    } finally {
      spy.mockRestore();
      if (before === undefined) delete process.env.VIDEO_API_LOG;
      else process.env.VIDEO_API_LOG = before;
    }
  };

  it('with no log asked for, the one warn line still reaches stderr, without the key', async () => {
    const lines = await linesWhile({}, undefined);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ level: 'warn', pacing: 'redis' });
    expect(lines[0]).toMatch(/did not answer .*pacing in this process alone/);
    expect(lines[0]).not.toContain(SANDBOX_KEYS.acme);
  });

  it('a level chosen decides for it as for every line: off is silent', async () => {
    expect(await linesWhile({ logLevel: 'off' }, undefined)).toEqual([]);
    expect(await linesWhile({}, 'error')).toEqual([]);
  });
});
