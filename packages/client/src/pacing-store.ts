// Where the pacer's schedule lives when several processes pace one account: Redis, through the
// separate package @videogen/pacer-redis, loaded only when a pacing URL is configured (option
// `pacingUrl` or VIDEO_API_PACING_URL). The default install and the runtimes without TCP (Workers,
// browsers) never load it: the client alone paces in memory.
import {
  MemoryPacerStore,
  type AccountView,
  type PacerStore,
  type ScheduleSnapshot,
  type TakeRequest,
} from '@videogen/openapi/rules';
import type { Log } from './logger.js';
import { builtin } from './runtime.js';

export const PACING_URL_VARIABLE = 'VIDEO_API_PACING_URL';
const PACKAGE = '@videogen/pacer-redis';

type RedisStoreModule = { createRedisPacerStore: (o: object) => PacerStore };

/**
 * The package, through createRequire as undici is in proxy.ts: bundlers do not follow it, and a Worker
 * rejects a bundle holding a dynamic import() of a computed name (miniflare: ERR_MODULE_DYNAMIC_SPEC).
 * Node 20.19+ requires an ES module synchronously.
 */
async function loadRedisStore(): Promise<RedisStoreModule> {
  const createRequire = builtin<typeof import('node:module')>('node:module')?.createRequire;
  if (!createRequire) throw new Error('this runtime has no node:module to load it from');
  return createRequire(import.meta.url)(PACKAGE) as RedisStoreModule;
}

/** What is wrong with a pacing URL, checked before anything loads (the package checks it again, whole). */
export function pacingUrlProblem(url: string): string | undefined {
  if (!/^rediss?(-sentinel)?:\/\/[^/]/i.test(url))
    return `${PACING_URL_VARIABLE} (pacingUrl) must be a redis://, rediss:// or redis-sentinel:// URL, such as redis://localhost:6379/0`;
  return undefined;
}

const stores = new Map<string, PacerStore>();

/** One store per URL in this process: every client of the process shares its connection. */
export function sharedPacingStore(url: string, log: Log): PacerStore {
  let store = stores.get(url);
  if (!store) stores.set(url, (store = new LazyRedisStore(url, log)));
  return store;
}

/** The Redis store, loaded on the first decision; until then its view is an empty schedule's. */
class LazyRedisStore implements PacerStore {
  readonly #loaded: Promise<PacerStore>;
  #store: PacerStore | undefined;
  readonly #empty = new MemoryPacerStore();
  readonly #listeners: Array<() => void> = [];

  constructor(url: string, log: Log) {
    this.#loaded = loadRedisStore().then(
      (m) => {
        const store = m.createRedisPacerStore({
          url,
          log: (level: 'info' | 'warn', message: string) => log[level]?.({ pacing: 'redis' }, message),
        });
        for (const l of this.#listeners) store.onChange?.(l);
        this.#store = store;
        return store;
      },
      (err: Error) => {
        throw new Error(
          `${PACING_URL_VARIABLE} is set, but ${PACKAGE} could not be loaded (${err.message}): npm install ${PACKAGE}, or unset ${PACING_URL_VARIABLE} to pace each process alone`,
        );
      },
    );
    // A failed load is reported by the first call that needs the store, not as an unhandled rejection.
    this.#loaded.catch(() => {});
  }

  async take(account: string, request: TakeRequest) {
    return (await this.#loaded).take(account, request);
  }
  async settle(...args: Parameters<PacerStore['settle']>) {
    return (await this.#loaded).settle(...args);
  }
  async noteRunning(...args: Parameters<PacerStore['noteRunning']>) {
    return (await this.#loaded).noteRunning(...args);
  }
  async record(...args: Parameters<PacerStore['record']>) {
    return (await this.#loaded).record(...args);
  }
  view(account: string): AccountView {
    return (this.#store ?? this.#empty).view(account);
  }
  async inspect(account: string): Promise<ScheduleSnapshot> {
    const store = await this.#loaded;
    if (!store.inspect) throw new TypeError(`${PACKAGE} cannot show its schedule: update it`);
    return store.inspect(account);
  }
  onChange(listener: () => void) {
    if (this.#store) this.#store.onChange?.(listener);
    else this.#listeners.push(listener);
  }
  async close() {
    await (await this.#loaded.catch(() => undefined))?.close?.();
  }
}
