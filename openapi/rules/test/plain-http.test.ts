import { describe, expect, it } from 'vitest';
import { ALLOW_HTTP_VARIABLE, allowedHttpHosts, isLoopbackHost, plainHttpProblem } from '../src/index.js';

describe('plain HTTP: the key goes over https, or http to loopback or to a host named explicitly (5.2)', () => {
  it('https anywhere, http on loopback', () => {
    for (const url of [
      'https://api.example/v1',
      'http://127.0.0.1:4010/v1',
      'http://localhost/v1',
      'http://[::1]:4010/v1',
      'http://127.9.8.7/v1',
    ])
      expect(plainHttpProblem(url), url).toBeUndefined();
    for (const host of ['localhost', '127.0.0.1', '[::1]', '::1']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['192.0.2.2', 'localhost.example', '127.0.0.1.example', '::2'])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  it('http to any other host is refused, naming the scheme and host only and the way to allow it', () => {
    const problem = plainHttpProblem('http://user:pw@lab-api.example:8080/v1?token=t');
    expect(problem).toMatch(/^http:\/\/lab-api\.example would carry the API key in the clear: use https/);
    expect(problem).toContain(ALLOW_HTTP_VARIABLE);
    expect(problem).not.toMatch(/pw|token|8080|\/v1/);
    expect(plainHttpProblem('ftp://h/v1')).toMatch(/^ftp:\/\/h: use https/);
    expect(plainHttpProblem('not a url')).toBe('is not a URL');
  });

  it(`${ALLOW_HTTP_VARIABLE} names hosts, domains (.lab or *.lab) or every host (*), and nothing else`, () => {
    const hosts = allowedHttpHosts(' lab-api , 10.0.0.5,[FD00::2], .lab.example,*.test.example ');
    expect(hosts).toEqual(['lab-api', '10.0.0.5', 'fd00::2', '.lab.example', '*.test.example']);
    for (const url of [
      'http://lab-api/v1',
      'http://10.0.0.5:80/v1',
      'http://[fd00::2]:4010/v1',
      'http://a.lab.example/v1',
      'http://b.c.test.example/v1',
    ])
      expect(plainHttpProblem(url, hosts), url).toBeUndefined();
    for (const url of [
      'http://lab-api.evil/v1',
      'http://10.0.0.50/v1',
      'http://evil-lab.example/v1',
      'http://lab.example/v1',
    ])
      expect(plainHttpProblem(url, hosts), url).toBeDefined();
    expect(plainHttpProblem('http://anything.example/v1', allowedHttpHosts('*'))).toBeUndefined();
    expect(allowedHttpHosts(undefined)).toEqual([]);
    expect(allowedHttpHosts('')).toEqual([]);
  });
});
