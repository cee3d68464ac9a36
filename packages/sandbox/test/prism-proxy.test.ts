// @module-tag full/processes
// `npm run proxy -- UPSTREAM` forwards every tool's key to UPSTREAM: held to the toolkit's rule for plain
// HTTP (5.2; issue 35, hole 5), refused before Prism starts. Our script as a child process.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../scripts/prism-proxy.mjs', import.meta.url));
const run = (upstream: string, env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [script, upstream], { encoding: 'utf8', env: { PATH: '/nonexistent', ...env } });

describe('npm run proxy -- UPSTREAM', () => {
  it('refuses http:// beyond loopback before Prism starts, naming the opt-in', () => {
    const r = run('http://staging.lab.invalid/v1');
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      "prism proxy: refusing to forward the tools' API keys in the clear: use https (http only on loopback, or to a host named in VIDEO_API_ALLOW_HTTP), not http://staging.lab.invalid\n",
    );
  });
  it('lets https, loopback and a host named in VIDEO_API_ALLOW_HTTP through to Prism', () => {
    // No prism on this PATH: getting as far as starting it is what is checked.
    for (const [upstream, env] of [
      ['https://staging.example/v1', {}],
      ['http://127.0.0.1:4010/v1', {}],
      ['http://staging.lab.invalid/v1', { VIDEO_API_ALLOW_HTTP: 'staging.lab.invalid' }],
    ] as const) {
      const r = run(upstream, env);
      expect(r.stderr, upstream).not.toMatch(/refusing/);
      expect(r.status, upstream).not.toBe(0);
    }
  });
});
