#!/usr/bin/env node
// npm run release:version [-- --no-lock] — writes the document's info.version into every
// published manifest (its version and the exact ranges between them), adds a "## X.Y.Z" section to each
// package CHANGELOG.md that has none, and updates package-lock.json. Run it after moving info.version.
import { execFileSync } from 'node:child_process';
import { relative } from 'node:path';
import { ROOT } from '../lib/published.mjs';
import { addChangelogSections, documentVersion, setVersion } from '../lib/versions.mjs';

const args = process.argv.slice(2);
const version = documentVersion();
const changed = setVersion(version);
for (const f of changed) console.log(`  ${relative(ROOT, f)} → ${version}`);
for (const f of addChangelogSections(version))
  console.log(`  ${relative(ROOT, f)}: "## ${version}" added (say what changed in it)`);
if (changed.length && !args.includes('--no-lock')) {
  execFileSync(
    'npm',
    ['install', '--package-lock-only', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'],
    { cwd: ROOT, stdio: 'inherit' },
  );
  console.log(`release:version: the published packages are at ${version}; package-lock.json updated`);
} else console.log(`release:version: the published packages are at ${version}`);
