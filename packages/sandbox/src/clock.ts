// Sandbox time: an injectable wall clock plus a time scale. Every duration the interface documents
// (generation, expiry, link lifetime, rate-limit windows) is given in service seconds and turned
// into real milliseconds here, so tests can run N times faster or drive time by hand.
// Time can be moved forward for every account at once (the shared advance: `sb.clock.advance(s)`,
// and `sb.clock.sleep(ms)`, which a client given `clock: sb.clock` waits with) or for one account
// (`/_sandbox/clock/advance`): an account's time is the wall clock plus the shared advance plus its
// own, and every state of the account is computed from that time. With a data dir the offsets are kept
// (store.ts), so that a restart does not take time back: videos created in advanced time would otherwise
// stay running until the wall clock caught up with them.
export interface Clock {
  /** Now in epoch ms: the wall clock and the shared advance, plus the account's own advance when an account is given. */
  now(account?: string): number;
  /** Service seconds → real milliseconds under the time scale. */
  ms(serviceSeconds: number): number;
  /** Real milliseconds → a header value in seconds (integer at scale 1, decimals otherwise). */
  headerSeconds(realMs: number): string;
  timeScale: number;
  /** Move one account's time forward by real ms, or every account's (the shared advance) when `account` is undefined. */
  advance(account: string | undefined, realMs: number): void;
  /** How far the account's time has been moved forward, real ms (the shared advance included). */
  offset(account: string): number;
  /** The account's own advance is forgotten (the shared advance stays: time never goes back for everyone). */
  resetAccount(account: string): void;
  /** Every offset now (what a data dir keeps). */
  offsets(): ClockOffsets;
  /**
   * Waits `ms` of sandbox time without waiting for real: sleepers wake one per turn of the event loop,
   * earliest first, each after the shared advance has moved the time to its wake-up time (never early).
   * Rejects with the signal's reason when it aborts.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** How far time has been moved forward, real ms: for every account (`shared`) and per account. Kept in the data dir. */
export interface ClockOffsets {
  shared: number;
  accounts: Record<string, number>;
}

export interface ClockOptions {
  /** The offsets a previous run left (a data dir): time resumes where it was, never goes back. */
  saved?: ClockOffsets;
  /** Called after every change of the offsets (an advance, a sleep that moved time, an account's reset). */
  onChange?: (offsets: ClockOffsets) => void;
}

interface Sleeper {
  at: number;
  wake: () => void;
}

export function createClock(
  timeScale = 1,
  wall: () => number = Date.now,
  { saved, onChange }: ClockOptions = {},
): Clock {
  if (!(timeScale > 0) || !Number.isFinite(timeScale))
    throw new Error(`timeScale must be a positive number, got ${timeScale}`);
  const offsets = new Map<string, number>(Object.entries(saved?.accounts ?? {}));
  let shared = saved?.shared ?? 0;
  const sleepers: Sleeper[] = [];
  let waking = false;
  const snapshot = (): ClockOffsets => ({ shared, accounts: Object.fromEntries(offsets) });
  const changed = () => onChange?.(snapshot());
  const shiftTo = (t: number) => {
    const behind = t - (wall() + shared);
    if (behind > 0) {
      shared += behind;
      changed();
    }
  };
  // One sleeper per macrotask: what the woken caller does next (a request, say) runs before time moves again.
  const wakeNext = () => {
    const next = sleepers.shift();
    if (!next) {
      waking = false;
      return;
    }
    shiftTo(next.at);
    next.wake();
    setImmediate(wakeNext);
  };
  return {
    now: (account) => wall() + shared + (account === undefined ? 0 : (offsets.get(account) ?? 0)),
    timeScale,
    ms: (s) => (s * 1000) / timeScale,
    headerSeconds: (realMs) => {
      const s = Math.max(0, realMs) / 1000;
      // Round up so that a client waiting the advertised time is never early.
      return timeScale === 1 ? String(Math.ceil(s)) : String(Math.ceil(s * 1000) / 1000);
    },
    advance: (account, realMs) => {
      if (account === undefined) shared += realMs;
      else offsets.set(account, (offsets.get(account) ?? 0) + realMs);
      changed();
    },
    offset: (account) => shared + (offsets.get(account) ?? 0),
    resetAccount: (account) => {
      if (offsets.delete(account)) changed();
    },
    offsets: snapshot,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const sleeper: Sleeper = {
          at: wall() + shared + Math.max(0, Number(ms) || 0),
          wake: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        const onAbort = () => {
          const i = sleepers.indexOf(sleeper);
          if (i >= 0) sleepers.splice(i, 1);
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        // Kept sorted by wake-up time (stable: equal times wake in call order).
        let i = sleepers.length;
        while (i > 0 && sleepers[i - 1].at > sleeper.at) i--;
        sleepers.splice(i, 0, sleeper);
        if (!waking) {
          waking = true;
          setImmediate(wakeNext);
        }
      }),
  };
}
