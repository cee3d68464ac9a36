// --har: recorded traffic checked offline with the live run's response checks. The recording is a
// real client session against a real sandbox; nothing is sent while checking it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '@videogen/client';
import { startSandboxTarget } from '../src/cli/launch.ts';
import { main } from '../src/cli/main.ts';
import { checkTraffic, readTraffic } from '../src/commands/har.ts';
import { harRecorder } from './har-recorder.ts';

const dir = mkdtempSync(join(tmpdir(), 'contract-har-'));
let harFile = '';
let key = '';
let recorded: ReturnType<ReturnType<typeof harRecorder>['har']>;
let logFile = '';

beforeAll(async () => {
  const target = await startSandboxTarget(100);
  key = target.config.apiKey!;
  const rec = harRecorder();
  const logLines: string[] = [];
  try {
    // The same session also written by the client's own traffic log (the `logger` option).
    logFile = join(dir, 'session.jsonl');
    const client = createClient({
      apiKey: key,
      baseUrl: target.config.baseUrl,
      fetch: rec.fetch,
      pacing: false,
      logger: (l) => logLines.push(l),
    });
    let setting: any;
    for await (const s of client.settings.list()) if (s.request_fields.join() === 'text') setting ??= s;
    const video = await client.generateAndWait(
      { video_setting_id: setting.video_setting_id, text: 'HAR test: the water cycle.' },
      { intervalMs: 50 },
    );
    await client.videos.get(video.video_id);
    // An error answer belongs to a session too: an unknown id.
    await client.videos.get('00000000-0000-4000-8000-000000000000').catch(() => undefined);
  } finally {
    await target.close();
  }
  recorded = rec.har();
  writeFileSync(logFile, logLines.join('\n') + '\n');
  harFile = join(dir, 'session.har');
  writeFileSync(harFile, JSON.stringify(recorded));
}, 60_000);

describe('--har: recorded traffic checked offline', () => {
  it("the client's own traffic log (logger / VIDEO_API_LOG=debug) is read and passes too", () => {
    const { source, exchanges } = readTraffic(logFile);
    expect(source).toBe('jsonl');
    const report = checkTraffic(source, exchanges);
    expect(report.checked.length).toBeGreaterThanOrEqual(4);
    expect(report.checked.map((c) => c.problems)).toEqual(report.checked.map(() => []));
    expect(new Set(report.checked.map((c) => c.operationId))).toEqual(
      new Set(['listVideoSettings', 'generateVideo', 'getVideo']),
    );
  });

  it('a real client session against the sandbox passes, with every exchange checked and the key nowhere', async () => {
    expect(recorded.log.entries.length).toBeGreaterThanOrEqual(4);
    const { source, exchanges } = readTraffic(harFile);
    expect(source).toBe('har');
    const report = checkTraffic(source, exchanges);
    expect(report.checked.map((c) => c.problems)).toEqual(report.checked.map(() => []));
    expect(new Set(report.checked.map((c) => c.operationId))).toEqual(
      new Set(['listVideoSettings', 'generateVideo', 'getVideo']),
    );
    expect(report.checked.some((c) => c.status === 404)).toBe(true);
    let out = '';
    // The sandbox is closed: a request sent now would fail, so a pass shows nothing was sent.
    expect(await main(['--har', harFile], { out: (s) => (out += s), err: (s) => (out += s) }, {})).toBe(0);
    expect(out).toContain('Interface failures: 0');
    expect(out).not.toContain(key);
  });

  it('a tampered HAR (a status body breaking the schema) fails with the schema finding on that exchange', async () => {
    const tampered = structuredClone(recorded);
    const i = tampered.log.entries.findIndex(
      (e) => /\/videos\/[0-9a-f-]{36}\/$/.test(new URL(e.request.url).pathname) && e.response.status === 200,
    );
    expect(i).toBeGreaterThanOrEqual(0);
    const body = JSON.parse(tampered.log.entries[i].response.content.text!);
    body.status = 'done';
    tampered.log.entries[i].response.content.text = JSON.stringify(body);
    const file = join(dir, 'tampered.har');
    writeFileSync(file, JSON.stringify(tampered));
    const report = checkTraffic('har', readTraffic(file).exchanges);
    const bad = report.checked.filter((c) => c.problems.length);
    expect(bad.map((c) => c.index)).toEqual([i]);
    expect(bad[0].operationId).toBe('getVideo');
    expect(bad[0].problems.map((p) => p.kind)).toEqual(['schema']);
    expect(bad[0].problems[0].message).toMatch(/status/);
    expect(report.interfaceProblems).toBe(1);
    let out = '';
    expect(await main(['--har', file], { out: (s) => (out += s), err: (s) => (out += s) }, {})).toBe(1);
    expect(out).toMatch(/FAIL  #\d+ GET .* → 200 \(getVideo\)/);
    expect(out).not.toContain(key);
  });

  it('videogen-contract --har FILE (the built bin): checks the file and exits 1 on the tampered one', {
    tags: ['full/processes'],
  }, () => {
    const tampered = structuredClone(recorded);
    const e = tampered.log.entries.find((x) => x.request.method === 'GET' && /\/video-settings\//.test(x.request.url))!;
    e.response.content.text = JSON.stringify({ ...JSON.parse(e.response.content.text!), items_per_page: 'fifty' });
    const file = join(dir, 'tampered-settings.har');
    writeFileSync(file, JSON.stringify(tampered));
    const root = fileURLToPath(new URL('..', import.meta.url));
    const r = spawnSync(process.execPath, ['dist/cli.js', '--har', file], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(r.stdout).toMatch(/FAIL .*listVideoSettings/);
    expect(r.stdout).toMatch(/interface schema: .*items_per_page/);
    expect(r.status).toBe(1);
    const sound = spawnSync(process.execPath, ['dist/cli.js', '--har', harFile], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(sound.status).toBe(0);
  });

  it('a decision-only difference (201 for a generation) is a decision mismatch, not an interface failure', async () => {
    const tampered = structuredClone(recorded);
    const e = tampered.log.entries.find((x) => x.request.method === 'POST' && x.response.status === 200)!;
    e.response.status = 201;
    const file = join(dir, 'decision.har');
    writeFileSync(file, JSON.stringify(tampered));
    const report = checkTraffic('har', readTraffic(file).exchanges);
    expect(report.interfaceProblems).toBe(0);
    expect(report.decisionProblems).toBeGreaterThan(0);
    let out = '';
    expect(await main(['--har', file], { out: (s) => (out += s), err: (s) => (out += s) }, {})).toBe(0);
    expect(out).toMatch(/decision #\d+ status/);
  });

  it('a file that is not a valid HAR is refused by the HAR schema, not half-read', () => {
    const file = join(dir, 'broken.har');
    writeFileSync(file, JSON.stringify({ log: { version: '1.2', entries: [{ request: {} }] } }));
    expect(() => readTraffic(file)).toThrow(/not a valid HAR 1.2 file/);
  });

  it("a JSON-lines log: its request headers' key and every query value are redacted from what is printed", async () => {
    // Keys of this test only (nothing else registered them): one sent as the Authorization of a nested
    // record and echoed in the query and in a path, one only in a query (a tool that puts keys there).
    const sent = 'jsonl-key-in-header-0123456789';
    const queryOnly = 'jsonl-key-only-in-query-9876543210';
    const base = new URL(recorded.log.entries[0].request.url).origin + '/v1';
    const record = (url: string, status: number, body: unknown) =>
      JSON.stringify({
        request: { method: 'GET', url, headers: { Authorization: `Bearer ${sent}` } },
        response: { status, headers: { 'content-type': 'application/json' }, body },
      });
    const notFound = { error_code: 'NOT_FOUND', error: 'no such video' };
    const file = join(dir, 'keys.jsonl');
    writeFileSync(
      file,
      [
        record(`${base}/videos/?page=1&api_key=${sent}`, 200, {
          results: [],
          has_next: false,
          total_count: 0,
          page: 1,
          items_per_page: 50,
        }),
        record(`${base}/videos/${sent}/`, 404, notFound),
        record(`${base}/videos/?api_key=${queryOnly}`, 200, {
          results: [],
          has_next: false,
          total_count: 0,
          page: 1,
          items_per_page: 50,
        }),
      ].join('\n') + '\n',
    );
    let out = '';
    await main(['--har', file], { out: (t) => (out += t), err: (t) => (out += t) }, {});
    expect(out).toMatch(/#1 GET .*\/videos\/\?page=\[redacted\]&api_key=\[redacted\]/);
    expect(out).toMatch(/#2 GET .*\/videos\/\[redacted\]\//);
    for (const k of [sent, queryOnly]) expect(out).not.toContain(k);
  });

  it('reads a JSON-lines log (one exchange per line) with the same checks', () => {
    const lines = recorded.log.entries.map((e) =>
      JSON.stringify({
        request: { method: e.request.method, url: e.request.url },
        response: {
          status: e.response.status,
          headers: Object.fromEntries(e.response.headers.map((h) => [h.name, h.value])),
          body: e.response.content.text,
        },
      }),
    );
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, lines.join('\n') + '\n');
    const { source, exchanges } = readTraffic(file);
    expect(source).toBe('jsonl');
    const report = checkTraffic(source, exchanges);
    expect(report.checked.length).toBe(recorded.log.entries.length);
    expect(report.interfaceProblems + report.decisionProblems).toBe(0);
  });
});
