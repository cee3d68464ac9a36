#!/usr/bin/env node
// npm run release:dry-run  (node packages/release/scripts/publish.mjs --dry-run)
// npm run release:publish  (the real thing, from a clean checkout of the tag vX.Y.Z, logged in to npm)
//
// Publishes the packages in dependency order (packages/release/lib/published.mjs), after the version
// policy holds. Build first (`npm run build`): npm publishes what is in each package's directory.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../lib/published.mjs';
import { describe, evaluate, gather, stillPrivate } from '../lib/policy.mjs';

const dryRun = process.argv.includes('--dry-run');
const fail = (message) => {
  console.error(`release: ${message}`);
  process.exit(1);
};

const facts = gather();
const problems = evaluate(facts);
console.log(`release${dryRun ? ' (dry run)' : ''}: ${describe(facts)}`);
if (problems.length)
  fail(`the version policy does not hold (RELEASING.md):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
const privates = stillPrivate(facts);
if (!dryRun) {
  if (privates.length) fail(`${privates.join(', ')} still private: nothing published`);
  const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: ROOT, encoding: 'utf8' }).trim();
  if (dirty) fail(`the working tree has changes: publish from a clean checkout of v${facts.version}`);
  const tags = execFileSync('git', ['tag', '--points-at', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).split('\n');
  if (!tags.includes(`v${facts.version}`))
    fail(`HEAD is not tagged v${facts.version}: tag the release first (git tag v${facts.version})`);
}

const rows = [];
for (const { name, dir, pkg } of facts.packages) {
  if (pkg.private) {
    rows.push(`  ${name}: skipped, still private`);
    continue;
  }
  for (const f of [
    pkg.main,
    pkg.types,
    ...Object.values(typeof pkg.bin === 'string' ? { bin: pkg.bin } : (pkg.bin ?? {})),
  ].filter(Boolean))
    if (!existsSync(join(ROOT, dir, f))) fail(`${name}: ${f} is missing: run "npm run build" first`);
  const args = ['publish', '--access', 'public', '--json', ...(dryRun ? ['--dry-run'] : [])];
  let out;
  try {
    out = execFileSync('npm', args, { cwd: join(ROOT, dir), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    fail(
      `npm ${args.join(' ')} of ${name} failed${rows.length ? ` after ${rows.length} package(s)` : ''}:\n${e.stderr || e.message}`,
    );
  }
  // npm prints one JSON object, keyed by the package name in workspaces mode or the bare result otherwise.
  const parsed = JSON.parse(out);
  const result = parsed.id ? parsed : parsed[name];
  rows.push(
    `  ${result.id}: ${result.filename}, ${(result.size / 1024).toFixed(1)} KiB packed, ${(result.unpackedSize / 1024).toFixed(1)} KiB unpacked, ${result.entryCount} files${dryRun ? ' (dry run)' : ', published'}`,
  );
}
console.log(rows.join('\n'));
const published = rows.filter((r) => !r.includes('skipped')).length;
console.log(
  `release${dryRun ? ' (dry run)' : ''}: ${published} of ${facts.packages.length} packages ${dryRun ? 'would be published' : 'published'} at ${facts.version}, in dependency order${privates.length ? `; not publishable yet: ${privates.join(', ')}` : ''}`,
);
if (!dryRun) console.log(`release: push the tag (git push origin v${facts.version})`);
