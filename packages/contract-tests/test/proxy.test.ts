// The pacing proxy against the real sandbox, over real sockets: several "tools" (plain fetch bursts,
// several keys) through the proxy meet no 429 and no 503 under every limiter style of the sandbox;
// starts beyond the concurrency limit wait; the credit budget refuses with the proxy's own envelope;
// the HAR it writes is read and passed by `contract --har` and holds no key.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, RATE_LIMITER_STYLES, SANDBOX_KEYS, startSandbox, type RunningSandbox } from '@videogen/sandbox';
import { MAX_RUNNING } from '@videogen/openapi/rules';
import { fingerprint, PROXY_HEADER, startPacingProxy, type PacingProxy } from '../src/proxy/index.ts';
import { checkTraffic, readTraffic } from '../src/commands/har.ts';
import { COLLIDING_KEYS } from '../../../openapi/rules/test/fixtures/colliding-keys.ts';

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function sandbox(options: Parameters<typeof startSandbox>[0] = {}) {
  const requests: string[] = [];
  const sb = await startSandbox({ port: 0, timeScale: 20, logger: (line) => requests.push(line), ...options });
  running.push(sb);
  return Object.assign(sb, { requests });
}

async function proxy(target: RunningSandbox, options: Partial<Parameters<typeof startPacingProxy>[0]> = {}) {
  const p = await startPacingProxy({ target: target.baseUrl, ...options });
  running.unshift(p);
  return p;
}

/** A tool: plain fetch with its key, pointed at the proxy. */
const tool =
  (p: PacingProxy, key: string) =>
  (path: string, init: RequestInit = {}) =>
    fetch(p.url + path, {
      ...init,
      headers: { authorization: `Bearer ${key}`, ...(init.headers as Record<string, string>) },
    });

function textForm(setting: string, text = 'Pacing proxy test: the water cycle.') {
  const form = new FormData();
  form.set('video_setting_id', setting);
  form.set('text', text);
  return form;
}

describe.each(RATE_LIMITER_STYLES)('through the proxy, against the %s limiter', (style) => {
  it('bursts from several tools and keys meet no 429 and no 503; a third start waits for a running slot', async () => {
    // Generations run 1 s (20 service s at 20×): the third start arrives while two run.
    const sb = await sandbox({ rateLimiter: style, generationSeconds: 20 });
    const p = await proxy(sb);
    const acme = tool(p, SANDBOX_KEYS.acme);
    const globex = tool(p, SANDBOX_KEYS.globex);
    const calls = [
      ...Array.from({ length: 7 }, (_, i) => acme(i % 2 ? '/videos/' : '/video-settings/')),
      ...Array.from({ length: 7 }, () => globex('/videos/?page=1')),
      ...Array.from({ length: MAX_RUNNING + 1 }, () =>
        acme('/videos/generate/', { method: 'POST', body: textForm(FIXTURES.acme.settings.text) }),
      ),
      globex(`/videos/${FIXTURES.globex.videos.convertible}/conversions/`),
    ];
    const answers = await Promise.all(calls);
    expect(answers.map((a) => a.status)).toEqual(calls.map(() => 200));
    const ids = await Promise.all(
      answers.slice(14, 14 + MAX_RUNNING + 1).map(async (a) => ((await a.json()) as any).video_id),
    );
    expect(new Set(ids).size).toBe(MAX_RUNNING + 1);
    // The sandbox answered nothing but 200: no 429 from its limiter, no 503 from the concurrency limit.
    expect(sb.stats()).toEqual({ '200': sb.requests.length });
    const s = p.stats();
    expect(s.heldForConcurrency).toBeGreaterThanOrEqual(1);
    // Nobody polled: the proxy's own status reads freed the slot.
    expect(s.statusReads).toBeGreaterThanOrEqual(1);
    expect(s.resent).toEqual({ rateLimit: 0, unavailable: 0, serverError: 0, network: 0 });
    expect(s.waitedMs).toBeGreaterThan(0);
  });
});

describe('two keys whose fingerprints collide (48 bits: a birthday search finds a pair in a minute)', () => {
  it('are two accounts, each paced on its own and each redacted, though they print alike', async () => {
    // One account per key; generations outlast the test, so that a's two videos hold a's slots.
    const sb = await sandbox({
      generationSeconds: 3600,
      accounts: COLLIDING_KEYS.map((key, i) => ({ name: `collide${i}`, plan: 'business' as const, keys: [key] })),
    });
    const harFile = join(mkdtempSync(join(tmpdir(), 'proxy-collide-')), 'traffic.har');
    const logs: string[] = [];
    const p = await proxy(sb, { harFile, log: (l) => logs.push(l) });
    const [a, b] = COLLIDING_KEYS.map((key) => tool(p, key));
    const textSetting = async (t: typeof a) =>
      ((await (await t('/video-settings/')).json()) as any).results.find((s: any) => s.request_fields.join() === 'text')
        .video_setting_id as string;
    const [settingA, settingB] = [await textSetting(a), await textSetting(b)];
    for (let i = 0; i < MAX_RUNNING; i++)
      expect((await a('/videos/generate/', { method: 'POST', body: textForm(settingA) })).status).toBe(200);
    // A key in a query string, as some tools send it: the HAR must not hold it.
    expect((await b(`/videos/?page=1&api_key=${COLLIDING_KEYS[1]}`)).status).toBe(200);
    // Before: b was paced on a's schedule, held for a's two videos, whose status it read with its own key (404).
    expect((await b('/videos/generate/', { method: 'POST', body: textForm(settingB) })).status).toBe(200);
    expect(p.stats()).toMatchObject({ heldForConcurrency: 0, statusReads: 0 });
    expect(sb.stats()['404']).toBeUndefined();
    expect(p.fingerprints()).toEqual([fingerprint(COLLIDING_KEYS[0]), fingerprint(COLLIDING_KEYS[1])]);
    expect(logs.filter((l) => l.includes('new key'))).toHaveLength(2);
    await p.close();
    const text = readFileSync(harFile, 'utf8');
    for (const key of COLLIDING_KEYS) expect(text + logs.join('\n')).not.toContain(key);
  });
});

describe('keys of one account', () => {
  it('ungrouped, they share limits the proxy cannot see: the sandbox answers 429s, the callers see none, and the HAR records and passes them', async () => {
    const sb = await sandbox({ rateLimiter: 'even', timeScale: 10 });
    const dir = mkdtempSync(join(tmpdir(), 'proxy-har-'));
    const harFile = join(dir, 'traffic.har');
    const logs: string[] = [];
    const p = await proxy(sb, { harFile, log: (l) => logs.push(l) });
    const a = tool(p, SANDBOX_KEYS.acme);
    const b = tool(p, SANDBOX_KEYS.acme2);
    const calls = [
      ...Array.from({ length: 5 }, () => a('/videos/')),
      ...Array.from({ length: 5 }, () => b('/video-settings/')),
    ];
    calls.push(a(`/videos/${FIXTURES.acme.videos.convertible}/`), b('/videos/00000000-0000-4000-8000-000000000000/'));
    const answers = await Promise.all(calls);
    expect(answers.map((r) => r.status)).toEqual([...Array(11).fill(200), 404]);
    const sandbox429 = sb.stats()['429'] ?? 0;
    expect(sandbox429).toBeGreaterThan(0);
    expect(p.stats().resent.rateLimit).toBe(sandbox429);
    expect(p.stats().answered['429']).toBeUndefined();
    await p.close();

    const text = readFileSync(harFile, 'utf8');
    for (const key of [SANDBOX_KEYS.acme, SANDBOX_KEYS.acme2]) {
      expect(text).not.toContain(key);
      expect(logs.join('\n')).not.toContain(key);
    }
    expect(text).toContain(`[redacted ${fingerprint(SANDBOX_KEYS.acme)}]`);
    const { source, exchanges } = readTraffic(harFile);
    expect(source).toBe('har');
    // Every attempt is there, the 429s the proxy waited out included.
    expect(exchanges).toHaveLength(p.stats().upstream.sent);
    expect(exchanges.filter((e) => e.status === 429)).toHaveLength(sandbox429);
    const report = checkTraffic(source, exchanges);
    expect(report.ignored).toEqual([]);
    expect(report.checked.flatMap((c) => c.problems)).toEqual([]);
    const har = JSON.parse(text);
    expect(har.log.entries.filter((e: any) => e._videogenProxy.next === 'sent again')).toHaveLength(sandbox429);
  });

  it('grouped with --same-account, they are paced as one account and meet no 429', async () => {
    const sb = await sandbox({ rateLimiter: 'even', timeScale: 10 });
    const p = await proxy(sb, { sameAccount: [[fingerprint(SANDBOX_KEYS.acme), fingerprint(SANDBOX_KEYS.acme2)]] });
    const a = tool(p, SANDBOX_KEYS.acme);
    const b = tool(p, SANDBOX_KEYS.acme2);
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, () => a('/videos/')),
      ...Array.from({ length: 5 }, () => b('/video-settings/')),
    ]);
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(sb.stats()).toEqual({ '200': 10 });
  });
});

describe('the credit budget', () => {
  it('refuses generations and conversions beyond N accepted ones with its own envelope, and sends nothing for them', async () => {
    const sb = await sandbox({ timeScale: 100, generationSeconds: 1 });
    const p = await proxy(sb, { creditBudget: 2 });
    const acme = tool(p, SANDBOX_KEYS.acme);
    // Refused by the target: no credit spent.
    const invalid = await acme('/videos/generate/', {
      method: 'POST',
      body: textForm('00000000-0000-4000-8000-000000000000'),
    });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get(PROXY_HEADER)).toBeNull();
    // Three at once: two places, the third refused at once (it is not sent).
    const three = await Promise.all(
      [1, 2, 3].map(() => acme('/videos/generate/', { method: 'POST', body: textForm(FIXTURES.acme.settings.text) })),
    );
    expect(three.map((r) => r.status).sort()).toEqual([200, 200, 403]);
    const refused = three.find((r) => r.status === 403)!;
    expect(refused.headers.get(PROXY_HEADER)).toBe('PROXY_CREDIT_BUDGET_EXCEEDED');
    const body = (await refused.json()) as any;
    expect(body).toEqual({
      error_code: 'PROXY_CREDIT_BUDGET_EXCEEDED',
      error: expect.stringMatching(/credit budget is used up: \d of 2/),
    });
    const conversion = await acme(`/videos/${FIXTURES.acme.videos.convertible}/conversions/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ aspect_ratio: '1:1' }),
    });
    expect(conversion.status).toBe(403);
    expect(((await conversion.json()) as any).error_code).toBe('PROXY_CREDIT_BUDGET_EXCEEDED');
    // Reads are never refused.
    expect((await acme('/videos/')).status).toBe(200);
    expect(sb.requests.filter((l) => l.startsWith('POST ')).map((l) => l.split(' ')[2])).toEqual(['400', '200', '200']);
    expect(p.stats().credits).toEqual({ budget: 2, spent: 2, inFlight: 0, refused: 2 });
  });
});
