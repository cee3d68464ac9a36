// The counts a run leaves for the summary: the suite runs in a worker, the reporter in the main process.
import { readFileSync } from 'node:fs';

export const runStatsFile = () => process.env.CONTRACT_RUN_STATS_FILE ?? 'test-results/run-stats.json';

export interface RunStats {
  creditsSpent: number;
  creditBudget: number | null;
  requests: Record<string, number>;
  retried: number;
}

export function readRunStats(): RunStats | undefined {
  try {
    return JSON.parse(readFileSync(runStatsFile(), 'utf8'));
  } catch {
    return undefined;
  }
}

export function formatRunStats(s: RunStats): string {
  return `Credits spent: ${s.creditsSpent}${s.creditBudget !== null ? ` (budget ${s.creditBudget})` : ''}; requests: ${s.requests.A ?? 0} class A, ${s.requests.B ?? 0} class B; ${s.retried} waited out (429/503)`;
}
