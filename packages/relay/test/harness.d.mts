// Types of harness.mjs.
import type { ChildProcess } from 'node:child_process';
import type { RelayLogRecord, RelayOptions } from '../src/index.js';

export { freePort, startRedis } from '../../pacer-redis/test/redis-server.mjs';
export declare const SECRET: string;
export declare const OLD_SECRET: string;

export interface Delivery {
  path: string;
  headers: import('node:http').IncomingHttpHeaders;
  body: string;
  at: number;
}
export type Answer = number | 'hold';
export interface Receiver {
  url: string;
  deliveries: Delivery[];
  answer: (d: Delivery) => Answer;
  release(status?: number): void;
  held(): number;
  close(): Promise<void>;
}
export function startReceiver(port?: number): Promise<Receiver>;

export interface RelayProcess {
  child: ChildProcess;
  pid: number;
  logs: Array<RelayLogRecord & { pid?: number; at?: number }>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  url: string | undefined;
  diedAt: number | undefined;
  kill(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}
export function startRelay(o: {
  options: Omit<RelayOptions, 'logger'>;
  env?: Record<string, string>;
  onLog?: (record: RelayLogRecord, relay: RelayProcess) => void;
}): Promise<RelayProcess>;

export interface Tally {
  expected: number;
  delivered: number;
  duplicated: number;
  lost: number;
  conflicting: number;
  changedBodies: number;
  outOfOrder: number;
  unverified: number;
}
export function tally(
  deliveries: Delivery[],
  expected: Array<{ video_id: string; type: string }>,
  verify?: (d: Delivery) => { type: string; data: { video_id: string } },
): Tally;
export function fastRelayOptions(o: {
  receiverUrl: string;
  name: string;
  baseUrl: string;
}): Pick<
  RelayOptions,
  | 'forwardTo'
  | 'secret'
  | 'apiKey'
  | 'baseUrl'
  | 'listen'
  | 'pollIntervalMs'
  | 'listIntervalMs'
  | 'leaseMs'
  | 'backfillMs'
>;
export function until<T>(check: () => T | Promise<T>, what: string, ms?: number): Promise<NonNullable<T>>;
