// The fidelity of a twin, measured (issue 33's closing numbers): against each server of the interface the
// tests use (two independent servers, and the sandbox's `alternative` personality), one calibration,
// then `compare` with the sandbox out of the box (`--twin default`) and with the calibrated twin; per
// behaviour, what the target does and whether each answers alike. Also what a calibration costs: from
// `calibrate --plan` at time scale 1 (real-time limits) and as measured at the server's time scale, and
// the tolerances compare used. Printed as Markdown. Run: npm run fidelity -w @videogen/contract-tests.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'vitest';
import { readTwin } from '@videogen/openapi/twin';
import { calibrate, compare, startTarget, workDir } from '../test/calibrate/targets.ts';

interface Behaviour {
  key: string;
  verdict: 'differs' | 'same' | 'not compared';
  tolerance?: string;
  target: { words: string };
}
interface Report {
  differences: number;
  behaviours: Behaviour[];
  costs: { target: { credits: number; requests: number } };
  wallSeconds: number;
}

/** The rows of the table: the behaviours the issue names, each the twin keys it rests on. */
const ROWS: Array<[string, RegExp]> = [
  ['success status of a creation', /^success\.status\.(generateVideo|createConversion)$/],
  ['success status of a read', /^success\.status\.(listVideos|getVideo|getConversionOptions|listVideoSettings)$/],
  ['content encoding', /^encoding\.api$/],
  ['rate-limit headers', /^rate_limit\.headers$/],
  ['Retry-After of a 429', /^retry_after\.rate_limited$/],
  ['the limiter’s answer to a burst (style, limit, window)', /^rate_limit\.[AB]\.(style|limit|window_seconds)$/],
  ['the limiter’s answer to retries (refused requests counted)', /^rate_limit\.[AB]\.refused_count$/],
  [
    'the concurrency limit’s 503 and its Retry-After',
    /^(concurrency\.limit|refusal\.generation_concurrency|retry_after\.concurrency)$/,
  ],
  ['paging order', /^paging\.videos_order$/],
  ['a page past the end', /^paging\.past_end$/],
  ['7.3: no key, a malformed Authorization', /^refusal\.(missing|malformed)_credentials$/],
  ['7.3: an unknown key', /^refusal\.unknown_key$/],
  ['7.3: the rate limit’s code', /^refusal\.rate_limited$/],
  ['7.3: a malformed video_id', /^refusal\.malformed_id$/],
  ['7.3: an unknown video_id', /^refusal\.unknown_id$/],
  ['7.3: a bad page', /^refusal\.bad_page$/],
  ['7.3: a form refused (unreadable, combination, empty text)', /^refusal\.(invalid_form|bad_combination|empty_text)$/],
  ['7.3: a setting refused (unknown, mismatch)', /^refusal\.(unknown_setting|setting_mismatch)$/],
  ['7.3: an upload refused (extension, images)', /^refusal\.(wrong_extension|too_many_images)$/],
  ['7.3: a conversion body that is no JSON object', /^refusal\.conversion_body_invalid$/],
  ['what request_fields requires', /^rules\.request_fields$/],
  ['copyright items', /^copyright\.items$/],
  ['timestamps', /^body\.timestamps$/],
  ['extra fields', /^body\.extra_fields\./],
  ['the download URL (host, query, lifetime)', /^download\.(origin|query|ttl_seconds)$/],
  ['a download with an Authorization header', /^download\.authorization_header$/],
  ['a download expired or tampered', /^download\.refusal$/],
  ['generation time (per input mode)', /^duration\.generation\./],
  ['conversion time', /^duration\.conversion$/],
  ['latency (per operation)', /^latency\./],
  ['transient 5xx', /^transient\.errors$/],
];

/** Each server at the time scale its measurement needs: the gateway's latency (60 ms) is read at 4×. */
const CASES = [
  { name: 'gateway' as const, timeScale: 4, budget: 14 },
  { name: 'storage' as const, timeScale: 20, budget: 10 },
  { name: 'alternative' as const, timeScale: 20, budget: 10 },
];

const cell = (behaviours: Behaviour[]) => {
  const compared = behaviours.filter((b) => b.verdict !== 'not compared');
  if (!compared.length) return '–';
  const same = compared.filter((b) => b.verdict === 'same').length;
  return same === compared.length ? '✓' : compared.length === 1 ? '✗' : `✗ ${same}/${compared.length}`;
};

const words = (behaviours: Behaviour[]) => {
  const seen = [...new Set(behaviours.filter((b) => b.verdict !== 'not compared').map((b) => b.target.words))];
  const text = seen.slice(0, 2).join('; ') + (seen.length > 2 ? '; …' : '');
  return (text || 'not observed').replace(/\|/g, '\\|').slice(0, 60);
};

test('fidelity', async () => {
  const dir = workDir();
  const results: Array<{
    name: string;
    timeScale: number;
    plan: string;
    calibration: Record<string, unknown>;
    byDefault: Report;
    byTwin: Report;
  }> = [];
  for (const c of CASES) {
    const target = await startTarget(c.name, c.timeScale);
    try {
      const file = join(dir, `${c.name}.twin.json`);
      const plan = await calibrate(['--plan', '--time-scale', '1', '--budget', String(c.budget)], target.env);
      const cal = await calibrate(
        ['--out', file, '--time-scale', String(c.timeScale), '--budget', String(c.budget)],
        target.env,
      );
      if (cal.code !== 0) throw new Error(`calibrate ${c.name}: ${cal.err.slice(-1500)}`);
      const reports: Report[] = [];
      for (const twin of ['default', file]) {
        const json = join(dir, `${c.name}.${twin === 'default' ? 'default' : 'twin'}.compare.json`);
        const r = await compare(
          [
            '--twin',
            twin,
            '--time-scale',
            String(c.timeScale),
            '--budget',
            String(c.budget),
            '--json',
            json,
            '--html',
            `${json}.html`,
          ],
          target.env,
        );
        if (r.code === 2) throw new Error(`compare ${c.name} --twin ${twin}: ${r.err.slice(-1500)}`);
        reports.push(JSON.parse(readFileSync(json, 'utf8')) as Report);
      }
      results.push({
        name: c.name,
        timeScale: c.timeScale,
        plan: plan.out,
        calibration: readTwin(file).calibration as Record<string, unknown>,
        byDefault: reports[0],
        byTwin: reports[1],
      });
    } finally {
      await target.close();
    }
  }
  const lines: string[] = [];
  const head = ['behaviour', ...results.flatMap((r) => [`${r.name}: target`, 'default sandbox', 'calibrated twin'])];
  lines.push(`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`);
  const totals = results.map(() => ({ rows: 0, byDefault: 0, byTwin: 0 }));
  for (const [label, keys] of ROWS) {
    const row = [label];
    results.forEach((r, i) => {
      const d = r.byDefault.behaviours.filter((b) => keys.test(b.key));
      const t = r.byTwin.behaviours.filter((b) => keys.test(b.key));
      row.push(words(t), cell(d), cell(t));
      if (cell(t) !== '–' || cell(d) !== '–') {
        totals[i].rows++;
        if (cell(d) === '✓') totals[i].byDefault++;
        if (cell(t) === '✓') totals[i].byTwin++;
      }
    });
    lines.push(`| ${row.join(' | ')} |`);
  }
  lines.push(
    '',
    ...results.map(
      (r, i) =>
        `- ${r.name} (at ${r.timeScale}×): the default sandbox answers alike on ${totals[i].byDefault} of ${totals[i].rows} behaviours, the calibrated twin on ${totals[i].byTwin} of ${totals[i].rows} (behaviours: ${r.byDefault.differences} differ from the default, ${r.byTwin.differences} from the twin).`,
    ),
    '',
    'What a calibration costs (full profile):',
    ...results.map((r) => {
      const c = r.calibration;
      const planned = r.plan
        .split('\n')
        .filter((l) => /^\s+(requests|credits|least wall time):/.test(l))
        .map((l) => l.trim())
        .join('; ');
      return `- ${r.name}: planned at real-time limits (calibrate --plan --time-scale 1): ${planned}. Measured at ${r.timeScale}×: ${c.requests} requests, ${c.credits_spent} credits, ${c.wall_seconds} s (${Math.round(Number(c.wall_seconds) * r.timeScale)} s of service time).`;
    }),
    '',
    'Tolerances compare used (from the reports):',
    ...[
      ...new Set(
        results.flatMap((r) =>
          r.byTwin.behaviours
            .filter((b) => b.tolerance)
            .map(
              (b) =>
                `- ${b.key.replace(/\.[^.]+$/, '.*')}: ${b.tolerance
                  ?.replace(/\d+ and \d+ samples(, a twin fitted from \d+)?/, 'n and m samples')
                  .replace(/×[\d.]+/, '×k')
                  .replace(/or [\d.]+ (ms|s)/g, 'or x $1')}`,
            ),
        ),
      ),
    ].slice(0, 12),
  );
  console.log(`\n${lines.join('\n')}\n`);
});
