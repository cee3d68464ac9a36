// `npm run power -w @videogen/contract-tests`: the measured power of a default run against the embedded
// sandbox, per class of input and profile, with the default seed and over random seeds (SEEDS, default
// 20): the power table, printed and written to test-results/power.md. Long: a default run per
// group of classes (measure.ts faultGroups), profile and seed, each as `--only` its operations judges them.
//
// On a busy machine the seeds can be shared among processes: SEED_LIST=1,… POWER_OUT=part.json in each
// (the seeds it measures; its results as JSON), then POWER_MERGE=a.json,b.json prints the one table.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { it } from 'vitest';
import { startSandboxTarget } from '../../src/cli/launch.ts';
import type { Profile } from '../../src/shapes.ts';
import { GENERATIVE_FAULTS } from '../generative-faults.ts';
import { SELF_TEST_TIME_SCALE } from '../harness.ts';
import { faultGroups, measureGroup, showsUploadSizes, type ClassResult } from './measure.ts';
import { powerTable } from './table.ts';

const DEFAULT_SEED = 1;
const SEEDS = Number(process.env.SEEDS ?? 20);
const PROFILES: Profile[] = (process.env.PROFILES?.split(',') as Profile[] | undefined) ?? [
  'full',
  'no-credit',
  'read-only',
];
/** Only these classes (FAULTS=id,…): to measure one again; POWER_MERGE takes a later file's result of a class, profile and seed over an earlier one's. */
const FAULTS = GENERATIVE_FAULTS.filter((f) => !process.env.FAULTS || process.env.FAULTS.split(',').includes(f.id));
/** Seeds measured at once, each by a worker with a sandbox of its own: a run mostly waits (pacing, hangs). */
const WORKERS = Number(process.env.WORKERS ?? 4);

type StoredResult = Omit<ClassResult, 'fault'> & { fault: string };

async function measure(seeds: number[]): Promise<ClassResult[]> {
  const runs: ClassResult[] = [];
  const queue = [...seeds];
  const worker = async () => {
    const sandbox = await startSandboxTarget(SELF_TEST_TIME_SCALE);
    try {
      for (let seed = queue.shift(); seed !== undefined; seed = queue.shift())
        for (const profile of PROFILES)
          for (const group of faultGroups(FAULTS)) {
            // As the self-test: the uploads at the plans' limits only in the run of the class they show.
            const measured = await measureGroup(sandbox, group, profile, seed, { sizes: showsUploadSizes(group) });
            runs.push(...measured);
            for (const r of measured)
              process.stderr.write(
                `seed ${seed} ${profile} ${r.fault.id}: ${r.outOfProfile ? 'out of profile' : r.found ? `found (${r.phase}, request ${r.firstAt})` : 'NOT FOUND'} ${r.seconds.toFixed(1)} s${r.unexplained.length ? ` UNEXPLAINED ${r.unexplained.join('; ')}` : ''}\n`,
              );
          }
    } finally {
      await sandbox.close();
    }
  };
  await Promise.all(Array.from({ length: Math.min(WORKERS, seeds.length) }, worker));
  return runs;
}

function stored(file: string): ClassResult[] {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as StoredResult[];
  return parsed.map((r) => {
    const fault = GENERATIVE_FAULTS.find((f) => f.id === r.fault);
    if (!fault) throw new Error(`${file}: no generative fault ${r.fault}`);
    return { ...r, fault };
  });
}

it(
  `power: ${GENERATIVE_FAULTS.length} classes, ${PROFILES.join(', ')}, the default seed and ${SEEDS} random seeds`,
  async () => {
    const started = Date.now();
    const merged = process.env.POWER_MERGE?.split(',');
    const seeds = process.env.SEED_LIST?.split(',').map(Number) ?? [
      DEFAULT_SEED,
      ...Array.from({ length: SEEDS }, () => Math.floor(Math.random() * 2 ** 31)),
    ];
    const key = (r: ClassResult) => `${r.fault.id} ${r.profile} ${r.seed}`;
    const runs = merged ? [...new Map(merged.flatMap(stored).map((r) => [key(r), r])).values()] : await measure(seeds);
    mkdirSync('test-results', { recursive: true });
    if (process.env.POWER_OUT) {
      const out: StoredResult[] = runs.map((r) => ({ ...r, fault: r.fault.id }));
      writeFileSync(process.env.POWER_OUT, JSON.stringify(out, null, 1));
      return;
    }
    const all = [...new Set(runs.map((r) => r.seed))];
    const table = powerTable(GENERATIVE_FAULTS, PROFILES, runs, DEFAULT_SEED);
    const unexplained = [...new Set(runs.flatMap((r) => r.unexplained))];
    const text = `# Measured power\n\nSeeds: default ${DEFAULT_SEED}; random ${all.filter((s) => s !== DEFAULT_SEED).join(', ')}.${merged ? '' : ` ${Math.round((Date.now() - started) / 60000)} min (${WORKERS} seeds at once).`}\n\n${table.markdown}\n- failed checks no fault explains (false failures): ${unexplained.length ? unexplained.join('; ') : 'none'}\n`;
    writeFileSync('test-results/power.md', text);
    console.log(text);
  },
  24 * 3600_000,
);
