#!/usr/bin/env node
// npm run bench -w @videogen/release — what installing each published package costs a user: packs every
// package, installs each one alone in a fresh project (as `npm install @videogen/<name>` would: npm's
// default layout, the other packages from their tarballs), and prints the tarball size, the installed
// size (every file under node_modules) and the number of packages installed with it, each against its
// budget (bench/budgets.json). Exit 1 when a package is over a budget: a new dependency that doubles an
// install is a decision to make on purpose, not by accident.
import { lstatSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshProject, pack } from '../lib/pack.mjs';
import { PUBLISHED } from '../lib/published.mjs';

const budgets = JSON.parse(readFileSync(new URL('./budgets.json', import.meta.url), 'utf8'));

/** Bytes of every regular file under a directory (symlinks not followed). */
function treeBytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += treeBytes(path);
    else if (entry.isFile()) total += lstatSync(path).size;
  }
  return total;
}

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const mib = (n) => `${(n / 1024 / 1024).toFixed(2)} MiB`;

const work = mkdtempSync(join(tmpdir(), 'vg-sizes-'));
try {
  const tarballs = await pack(
    PUBLISHED.map((p) => p.name),
    join(work, 'tarballs'),
  );
  const rows = [];
  for (const { name } of PUBLISHED) {
    const dir = await freshProject(join(work, name.split('/')[1]), { tarballs, install: [name], strategy: 'hoisted' });
    const lock = JSON.parse(readFileSync(join(dir, 'node_modules/.package-lock.json'), 'utf8'));
    const installed = Object.keys(lock.packages).filter((p) => p.startsWith('node_modules/'));
    const own = JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8'));
    rows.push({
      name,
      packed: tarballs[name].size,
      unpacked: tarballs[name].unpackedSize,
      installed: treeBytes(join(dir, 'node_modules')),
      direct: Object.keys(own.dependencies ?? {}).length,
      dependencies: installed.length - 1, // every package installed with it, itself excluded
    });
  }

  let over = 0;
  console.log(
    'package                     packed      unpacked    installed (budget, ratio)        dependencies: direct, all (budget, ratio)',
  );
  for (const r of rows) {
    const b = budgets[r.name];
    if (!b) throw new Error(`bench/budgets.json has no budget for ${r.name}`);
    const sizeRatio = r.installed / (b.installedMiB * 1024 * 1024);
    const depsRatio = r.dependencies / b.dependencies;
    if (sizeRatio > 1 || depsRatio > 1) over++;
    console.log(
      `${r.name.padEnd(27)} ${kib(r.packed).padStart(10)}  ${kib(r.unpacked).padStart(10)}  ${mib(r.installed).padStart(10)} (${b.installedMiB} MiB, ${sizeRatio.toFixed(2)})`.padEnd(
        95,
      ) +
        `${String(r.direct).padStart(2)}, ${String(r.dependencies).padStart(3)} (${b.dependencies}, ${depsRatio.toFixed(2)})${sizeRatio > 1 || depsRatio > 1 ? '  OVER BUDGET' : ''}`,
    );
  }
  console.log(
    `\nsizes: installed alone in a fresh project with npm's default layout; "all" counts every package npm installed with it.`,
  );
  if (over) {
    console.log(
      `sizes: ${over} package(s) over budget: trim the dependency, or raise its budget in bench/budgets.json on purpose`,
    );
    process.exitCode = 1;
  } else console.log('sizes: every package within its budget');
} finally {
  rmSync(work, { recursive: true, force: true });
}
