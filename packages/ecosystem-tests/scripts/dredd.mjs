// Dredd 14.1.0 against a sandbox it starts, with the document as its users give it: prints each transaction's
// outcome and why it did not pass, grouped by cause, then one JSON line of counts. Not part of the matrix in
// CI: Dredd reads OpenAPI 3.0 (its 3.1 support is "not fully supported"), so what remains is Dredd's.
// `npm run dredd -w @videogen/ecosystem-tests [-- --workarounds]` (installs dredd/ on demand, from its own
// lock). --workarounds turns on the two hooks of dredd/hooks.cjs that make up for Dredd (exact content
// types, no multipart body).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EventEmitter } from 'node:events';
import { loadSpec, specYamlPath } from '@videogen/openapi';
import { RATE_LIMITS } from '@videogen/openapi/rules';
import { startSandbox, SANDBOX_KEYS } from '@videogen/sandbox';

const workarounds = process.argv.includes('--workarounds');
const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'dredd');
if (!existsSync(join(root, 'node_modules/dredd'))) {
  execFileSync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: root,
    stdio: ['ignore', 2, 2],
  });
}
const Dredd = createRequire(join(root, 'package.json'))('dredd');

// The sandbox at its strictest limiter, 10 times faster; the hooks space the requests by the longest interval
// the limits impose (class A: one per 5 s), on the sandbox's clock.
const TIME_SCALE = 10;
const sandbox = await startSandbox({ port: 0, timeScale: TIME_SCALE, rateLimiter: 'even' });
const spacingMs = Math.max(...Object.values(RATE_LIMITS).map((c) => c.windowMs / c.requests)) / TIME_SCALE;
process.env.DREDD_SPACING_MS = String(spacingMs);
if (workarounds) {
  process.env.DREDD_CHARSET_HOOK = '1';
  process.env.DREDD_MULTIPART_FORM = JSON.stringify(loadSpec().components.schemas.GenerateVideoRequest.example);
}
const emitter = new EventEmitter();
const outcomes = [];
for (const kind of ['pass', 'fail', 'skip', 'error']) {
  // Dredd emits (test, callback) for pass/fail/skip and (error, test, callback) for an error.
  emitter.on(`test ${kind}`, (...args) => {
    const error = args[0] instanceof Error ? args.shift() : undefined;
    const test = args[0];
    const reasons = [];
    for (const [field, result] of Object.entries(test.results?.fields ?? test.results ?? {})) {
      for (const e of result?.errors ?? []) reasons.push(`${field}: ${e.message.split('\n')[0]}`);
    }
    if (error) reasons.push(`error: ${error.message}`);
    outcomes.push({ kind, title: test.title, reasons });
  });
}

const dredd = new Dredd({
  endpoint: sandbox.baseUrl,
  path: [specYamlPath],
  header: [`Authorization: Bearer ${SANDBOX_KEYS.acme}`],
  hookfiles: [join(root, 'hooks.cjs')],
  loglevel: 'silent',
  reporter: [],
  emitter,
});
const stats = await new Promise((resolve, reject) => dredd.run((err, s) => (err ? reject(err) : resolve(s))));
await sandbox.close();

const byCause = new Map();
for (const o of outcomes.filter((o) => o.kind !== 'pass')) {
  const cause =
    o.kind === 'skip'
      ? 'skipped by the hooks: not a success response (Dredd sends every transaction the same example request)'
      : o.reasons.join(' | ') || o.kind;
  byCause.set(cause, [...(byCause.get(cause) ?? []), o.title]);
}
for (const o of outcomes.filter((o) => o.kind === 'pass')) console.log(`pass  ${o.title}`);
for (const [cause, titles] of byCause) console.log(`\n${titles.length} × ${cause}\n  ${titles.join('\n  ')}`);
console.log(
  JSON.stringify({
    dredd: '14.1.0',
    workarounds,
    total: stats.tests,
    passes: stats.passes,
    failures: stats.failures,
    errors: stats.errors,
    skipped: stats.skipped,
    sandbox: sandbox.stats?.(),
  }),
);
