// The shared schedule's configuration (issue 25): checked when the client is created, before anything loads.
import { describe, expect, it } from 'vitest';
import { createClient } from '../src/index.js';

describe('pacingUrl / VIDEO_API_PACING_URL', () => {
  it('refuses a URL that is not redis:// or rediss://, naming the variable', () => {
    expect(() =>
      createClient({ apiKey: 'k', baseUrl: 'http://127.0.0.1:1/v1', pacingUrl: 'http://cache:6379' }),
    ).toThrow(/VIDEO_API_PACING_URL \(pacingUrl\) must be a redis:\/\/ or rediss:\/\/ URL/);
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
