// Types of redis-server.mjs.
export interface RedisServer {
  port: number;
  url: string;
  kill(): Promise<void>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}
export function freePort(): Promise<number>;
export function startRedis(): Promise<RedisServer>;
