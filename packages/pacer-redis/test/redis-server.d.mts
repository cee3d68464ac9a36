// Types of redis-server.mjs.
export interface RedisServer {
  port: number;
  url: string;
  kill(): Promise<void>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}
export function freePort(): Promise<number>;
export function startRedis(options?: { args?: string[] }): Promise<RedisServer>;
export function redisCli(port: number, ...args: string[]): Promise<string>;
export function startCluster(): Promise<{ nodes: Array<{ port: number; url: string }>; stop(): Promise<void> }>;
export function startSentinelSet(): Promise<{
  primary: RedisServer;
  replica: RedisServer;
  sentinelPort: number;
  url: string;
  primaryIs(port: number): Promise<void>;
  stop(): Promise<void>;
}>;
