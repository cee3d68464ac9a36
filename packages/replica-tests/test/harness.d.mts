// Types of harness.mjs (plain JavaScript: the replica benchmark imports it too).
export { freePort, startRedis, type RedisServer } from '../../pacer-redis/test/redis-server.mjs';
export interface ReplicaReport {
  pid?: number;
  calls: number;
  failures: string[];
  ms?: number;
  log: string[];
  exit: number | null;
  signal?: string;
}
export function sandbox(o: {
  style: string;
  personality: string;
  timeScale: number;
  generationSeconds?: number;
}): Promise<import('@videogen/sandbox').RunningSandbox & { answers: Array<Record<string, any>> }>;
export function runReplicas(o: {
  sb: { baseUrl: string };
  n: number;
  redisUrl?: string;
  mode?: 'shared' | 'alone';
  timeScale: number;
  scaledClock?: boolean;
  work?: { lists?: number; reads?: number; starts?: number };
  onLine?: (i: number, line: string, child: import('node:child_process').ChildProcess) => void;
  deadlineMs?: number;
}): Promise<ReplicaReport[]>;
export function peakRunning(
  sb: unknown,
  generationSeconds: number,
  timeScale: number,
): { peak: number; videos: number };
