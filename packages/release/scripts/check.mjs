#!/usr/bin/env node
// npm run release:check — the version policy (RELEASING.md) on this checkout. Exit 1 when it does not hold.
import { describe, evaluate, gather, stillPrivate } from '../lib/policy.mjs';

const facts = gather();
const problems = [...evaluate(facts), ...stillPrivate(facts).map((n) => `${n} is private: it cannot be published`)];
console.log(`release:check: ${describe(facts)}`);
for (const p of facts.packages) console.log(`  ${p.name}@${p.pkg.version}${p.pkg.private ? ' (private)' : ''}`);
if (problems.length) {
  console.log(`release:check: FAILED\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exitCode = 1;
} else console.log('release:check: ok');
