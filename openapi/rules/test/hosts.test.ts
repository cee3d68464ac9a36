import { describe, expect, it } from 'vitest';
import {
  ALLOW_HTTP_VARIABLE,
  allowedHttpHosts,
  browserRequestProblem,
  insecureUrlProblem,
  isLoopbackHostname,
  timeScaleOf,
} from '../src/index.js';

describe('isLoopbackHostname / insecureUrlProblem', () => {
  it('takes localhost, 127/8 and [::1] as this machine, whatever form URL parsing started from', () => {
    for (const u of [
      'http://localhost:4010/v1',
      'http://127.0.0.1/',
      'http://127.1/',
      'http://[::1]:9/',
      'http://LOCALHOST/',
    ])
      expect(isLoopbackHostname(new URL(u).hostname), u).toBe(true);
    for (const u of [
      'http://localhost.evil.example/',
      'http://10.0.0.1/',
      'http://[::2]/',
      'http://0x7f000001.example/',
    ])
      expect(isLoopbackHostname(new URL(u).hostname), u).toBe(false);
  });

  it('allows https anywhere and http on loopback only, naming the opt-in, the scheme and the host only', () => {
    expect(insecureUrlProblem(new URL('https://files.example/a.pdf'))).toBeUndefined();
    expect(insecureUrlProblem(new URL('http://127.0.0.1:8080/a.pdf'))).toBeUndefined();
    expect(insecureUrlProblem(new URL('http://169.254.169.254/latest'))).toBe(
      `use https (http only on loopback, or to a host named in ${ALLOW_HTTP_VARIABLE}), not http://169.254.169.254`,
    );
    expect(insecureUrlProblem(new URL('http://user:pw@lab.example:8080/v1?token=t'))).not.toMatch(/pw|token|8080|v1/);
    expect(insecureUrlProblem(new URL('file:///etc/passwd'))).toMatch(/not file:/);
  });

  it(`${ALLOW_HTTP_VARIABLE} names hosts, domains (.lab or *.lab) or every host (*), and nothing else`, () => {
    const hosts = allowedHttpHosts(' lab-api , 10.0.0.5,[FD00::2], .lab.example,*.test.example ');
    expect(hosts).toEqual(['lab-api', '10.0.0.5', 'fd00::2', '.lab.example', '*.test.example']);
    for (const u of [
      'http://lab-api/v1',
      'http://10.0.0.5:80/v1',
      'http://[fd00::2]:4010/v1',
      'http://a.lab.example/v1',
      'http://b.c.test.example/v1',
    ])
      expect(insecureUrlProblem(new URL(u), hosts), u).toBeUndefined();
    for (const u of [
      'http://lab-api.evil/v1',
      'http://10.0.0.50/v1',
      'http://evil-lab.example/v1',
      'http://lab.example/v1',
    ])
      expect(insecureUrlProblem(new URL(u), hosts), u).toBeDefined();
    expect(insecureUrlProblem(new URL('http://anything.example/v1'), allowedHttpHosts('*'))).toBeUndefined();
    expect(insecureUrlProblem(new URL('ftp://lab-api/v1'), hosts)).toMatch(/not ftp:\/\/lab-api$/);
    expect(allowedHttpHosts(undefined)).toEqual([]);
    expect(allowedHttpHosts('')).toEqual([]);
  });
});

describe('browserRequestProblem', () => {
  const own = ['devbox.internal'];
  it('lets tools that are not browsers through, whatever Host they name', () => {
    expect(browserRequestProblem({ host: 'anything.example' }, own)).toBeUndefined();
  });

  it("accepts a browser only from the server's own origin under a name no other site can own", () => {
    expect(browserRequestProblem({ host: '127.0.0.1:7000', origin: 'http://127.0.0.1:7000' }, own)).toBeUndefined();
    expect(browserRequestProblem({ host: 'localhost:7000', 'sec-fetch-site': 'same-origin' }, own)).toBeUndefined();
    expect(
      browserRequestProblem({ host: 'devbox.internal:7000', origin: 'http://devbox.internal:7000' }, own),
    ).toBeUndefined();
  });

  it('refuses pages of other sites, and DNS rebinding (a foreign name resolving here)', () => {
    expect(browserRequestProblem({ host: '127.0.0.1:7000', origin: 'https://evil.example' }, own)).toEqual({
      kind: 'cross-site',
      named: 'https://evil.example',
    });
    expect(browserRequestProblem({ host: '127.0.0.1:7000', 'sec-fetch-site': 'cross-site' }, own)?.kind).toBe(
      'cross-site',
    );
    expect(browserRequestProblem({ host: 'evil.example:7000', origin: 'http://evil.example:7000' }, own)).toEqual({
      kind: 'foreign-host',
      named: '"evil.example:7000"',
    });
  });
});

describe('timeScaleOf', () => {
  it('reads a faster clock from the class-B quota over a shorter window, or its even spacing', () => {
    expect(timeScaleOf({ limit: 5, windowMs: 100 })).toBe(100);
    expect(timeScaleOf({ limit: 1, windowMs: 20 })).toBe(100);
    expect(timeScaleOf({ limit: 5, windowMs: 10_000 })).toBeUndefined();
    expect(timeScaleOf({ limit: 7, windowMs: 100 })).toBeUndefined();
    expect(timeScaleOf(undefined)).toBeUndefined();
  });
});
