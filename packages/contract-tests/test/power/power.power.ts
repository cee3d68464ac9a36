// `npm run power -w @videogen/contract-tests`: the measured power of a default run against the embedded
// sandbox, per class of input and profile, with the default seed and over random seeds (SEEDS, default
// 20): the table of issue 34 item 2, printed and written to test-results/power.md. Long: a default run per
// group of classes (measure.ts faultGroups), profile and seed, each as `--only` its operations judges them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { it } from 'vitest';
import { startSandboxTarget } from '../../src/cli/launch.ts';
import type { Profile } from '../../src/shapes.ts';
import { GENERATIVE_FAULTS } from '../generative-faults.ts';
import { SELF_TEST_TIME_SCALE } from '../harness.ts';
import { faultGroups, measureGroup, type ClassResult } from './measure.ts';
import { powerTable } from './table.ts';

const DEFAULT_SEED = 1;
const SEEDS = Number(process.env.SEEDS ?? 20);
const PROFILES: Profile[] = (process.env.PROFILES?.split(',') as Profile[] | undefined) ?? [
  'full',
  'no-credit',
  'read-only',
];

it(
  `power: ${GENERATIVE_FAULTS.length} classes, ${PROFILES.join(', ')}, the default seed and ${SEEDS} random seeds`,
  async () => {
    const seeds = [DEFAULT_SEED, ...Array.from({ length: SEEDS }, () => Math.floor(Math.random() * 2 ** 31))];
    const runs: ClassResult[] = [];
    const sandbox = await startSandboxTarget(SELF_TEST_TIME_SCALE);
    const started = Date.now();
    try {
      for (const seed of seeds)
        for (const profile of PROFILES)
          for (const group of faultGroups(GENERATIVE_FAULTS)) {
            const measured = await measureGroup(sandbox, group, profile, seed);
            runs.push(...measured);
            for (const r of measured)
              process.stderr.write(
                `seed ${seed} ${profile} ${r.fault.id}: ${r.outOfProfile ? 'out of profile' : r.found ? `found (${r.phase}, request ${r.firstAt})` : 'NOT FOUND'} ${r.seconds.toFixed(1)} s${r.unexplained.length ? ` UNEXPLAINED ${r.unexplained.join('; ')}` : ''}\n`,
              );
          }
    } finally {
      await sandbox.close();
    }
    const table = powerTable(GENERATIVE_FAULTS, PROFILES, runs, DEFAULT_SEED);
    const text = `# Measured power (issue 34 item 2)\n\nSeeds: default ${DEFAULT_SEED}; random ${seeds.slice(1).join(', ')}. ${Math.round((Date.now() - started) / 60000)} min.\n\n${table.markdown}\n`;
    mkdirSync('test-results', { recursive: true });
    writeFileSync('test-results/power.md', text);
    console.log(text);
  },
  24 * 3600_000,
);
