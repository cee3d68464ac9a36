#!/usr/bin/env node
// npm run release:pack [-- [--out DIR] [PACKAGE…]]  (node packages/release/scripts/pack.mjs)
//
// The toolkit from a checkout, before (or without) the registry: packs a consistent set of tarballs, the
// packages asked for (default: every published one; `client`, `@videogen/cli`…) and every package of
// ours they depend on, all from this checkout at its one version, into DIR (default packed/). Then prints,
// for each package asked for, the install line that uses the set: its tarball and those of its
// dependencies of ours, which npm takes from the command line instead of asking the registry for them
// (the registry has none of them yet). Build first (`npm run release:pack` does): npm packs what is built.
import { mkdirSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pack } from '../lib/pack.mjs';
import { manifest, PUBLISHED, ROOT } from '../lib/published.mjs';

const { values, positionals } = parseArgs({
  options: { out: { type: 'string', default: 'packed' }, help: { type: 'boolean', short: 'h' } },
  allowPositionals: true,
});
const names = PUBLISHED.map((p) => p.name);
if (values.help) {
  console.log(`usage: npm run release:pack -- [--out DIR] [PACKAGE…]   (packages: ${names.join(', ')}; default all)`);
  process.exit(0);
}
const fullName = (arg) => (arg.startsWith('@') ? arg : `@videogen/${arg}`);
const asked = positionals.length ? positionals.map(fullName) : names;
const unknown = asked.filter((n) => !names.includes(n));
if (unknown.length) {
  console.error(`release:pack: ${unknown.join(', ')}: not a published package (${names.join(', ')})`);
  process.exit(2);
}

/** A package and every package of ours it needs at run time (dependencies and peers), in publishing order. */
function closure(name) {
  const seen = new Set();
  const visit = (n) => {
    if (seen.has(n)) return;
    seen.add(n);
    const pkg = manifest(PUBLISHED.find((p) => p.name === n).dir);
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies }))
      if (names.includes(dep)) visit(dep);
  };
  visit(name);
  return names.filter((n) => seen.has(n));
}

const needed = names.filter((n) => asked.some((a) => closure(a).includes(n)));
const out = resolve(process.cwd(), values.out);
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const tarballs = await pack(needed, out);
const version = tarballs[needed[0]].version;
const shown = (file) => {
  const rel = relative(process.cwd(), file);
  return rel.startsWith('..') ? file : `./${rel}`;
};
console.log(
  `Packed ${needed.length} package${needed.length === 1 ? '' : 's'} at ${version}, from ${ROOT}, into ${shown(out)}:`,
);
for (const n of needed) console.log(`  ${tarballs[n].filename}  (${(tarballs[n].size / 1024).toFixed(0)} KiB)`);
console.log(
  '\nInstall one in your project with the tarballs of what it needs of ours (npm takes those, not the registry):',
);
for (const n of asked) {
  const files = closure(n)
    .reverse()
    .map((d) => shown(join(out, tarballs[d].filename)));
  console.log(`  ${n}:\n    npm install ${files.join(' ')}`);
}
console.log(
  '\nThe bins then run in that project as npx @videogen/cli, npx @videogen/sandbox, npx @videogen/contract-tests. A\nglobal install (npm install --global) cannot take the dependencies from these tarballs: install in a project.',
);
