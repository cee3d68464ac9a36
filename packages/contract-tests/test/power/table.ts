// The table of the power measurement: per class of input, found or not, by which phase,
// after how many requests; the share found per profile, with the default seed and over random seeds.
import type { Profile } from '../../src/shapes.ts';
import type { GenerativeFault } from '../generative-faults.ts';
import type { ClassResult } from './measure.ts';

export interface PowerTable {
  markdown: string;
  /** Share of the classes found per profile (the seeds' mean), 0–1. */
  share: Record<Profile, number>;
}

const pct = (x: number) => `${Math.round(x * 1000) / 10} %`;

/** `runs` holds every class's result per profile and seed; the first seed is the default one. */
export function powerTable(
  faults: GenerativeFault[],
  profiles: Profile[],
  runs: ClassResult[],
  defaultSeed: number,
): PowerTable {
  const lines: string[] = [];
  const seeds = [...new Set(runs.map((r) => r.seed))];
  const random = seeds.filter((s) => s !== defaultSeed);
  lines.push(
    `| class of input | operation | failure | ${profiles.map((p) => `${p}: default seed (phase, requests to it, of its class)`).join(' | ')} | ${profiles.map((p) => `${p}: ${random.length} random seeds`).join(' | ')} |`,
    `|---|---|---|${profiles.map(() => '---').join('|')}|${profiles.map(() => '---').join('|')}|`,
  );
  for (const f of faults) {
    const cells = profiles.map((p) => {
      const r = runs.find((x) => x.fault.id === f.id && x.profile === p && x.seed === defaultSeed);
      if (!r) return '';
      if (r.outOfProfile) return '— (no POST in this profile)';
      return r.found ? `found (${r.phase}, ${r.firstAt}, ${r.sent})` : `**not found** (${r.sent} sent)`;
    });
    const over = profiles.map((p) => {
      const mine = runs.filter((x) => x.fault.id === f.id && x.profile === p && random.includes(x.seed));
      if (!mine.length) return '';
      if (mine.every((r) => r.outOfProfile)) return '—';
      return `${mine.filter((r) => r.found).length}/${mine.length}`;
    });
    lines.push(`| ${f.label} | ${f.operation} | ${f.failure} | ${cells.join(' | ')} | ${over.join(' | ')} |`);
  }
  const share = {} as Record<Profile, number>;
  const shareLine: string[] = [];
  for (const p of profiles) {
    const mine = runs.filter((r) => r.profile === p);
    const bySeed = seeds.map((s) => {
      const of = mine.filter((r) => r.seed === s);
      return of.filter((r) => r.found).length / Math.max(1, of.length);
    });
    const def = bySeed[seeds.indexOf(defaultSeed)] ?? 0;
    const over = random.length ? bySeed.filter((_, i) => seeds[i] !== defaultSeed) : [];
    const mean = over.length ? over.reduce((a, b) => a + b, 0) / over.length : def;
    const min = over.length ? Math.min(...over) : def;
    share[p] = Math.min(def, mean);
    shareLine.push(
      `- ${p}: ${pct(def)} with the default seed${over.length ? `; over ${over.length} random seeds ${pct(mean)} on average, ${pct(min)} at the least` : ''} (of ${faults.length} classes; a class the profile sends no request for counts as not found)`,
    );
  }
  const requests = profiles.map((p) => {
    const mine = runs.filter((r) => r.profile === p && r.seed === defaultSeed && !r.outOfProfile);
    return `${p} ${mine.reduce((n, r) => n + r.requests, 0)}`;
  });
  return {
    markdown: [
      ...lines,
      '',
      ...shareLine,
      `- requests sent to the operation of each class, summed over the classes (default seed): ${requests.join(', ')}`,
    ].join('\n'),
    share,
  };
}
