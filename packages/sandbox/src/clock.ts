// Sandbox time: an injectable wall clock plus a time scale. Every duration the interface documents
// (generation, expiry, link lifetime, rate-limit windows) is given in service seconds and turned
// into real milliseconds here, so tests can run N times faster or drive time by hand.
// Each account can also be moved forward on its own (`/_sandbox/clock/advance`): its time is the wall
// clock plus its offset, and every state of the account is computed from that time.
export interface Clock {
  /** Now in epoch ms: the wall clock, plus the account's advance when an account is given. */
  now(account?: string): number;
  /** Service seconds → real milliseconds under the time scale. */
  ms(serviceSeconds: number): number;
  /** Real milliseconds → a header value in seconds (integer at scale 1, decimals otherwise). */
  headerSeconds(realMs: number): string;
  timeScale: number;
  /** Move an account's time forward by real ms. */
  advance(account: string, realMs: number): void;
  /** The account's advance so far, real ms. */
  offset(account: string): number;
  /** Back to the wall clock. */
  resetAccount(account: string): void;
}

export function createClock(timeScale = 1, now: () => number = Date.now): Clock {
  if (!(timeScale > 0) || !Number.isFinite(timeScale)) throw new Error(`timeScale must be a positive number, got ${timeScale}`);
  const offsets = new Map<string, number>();
  return {
    now: (account) => now() + (account === undefined ? 0 : (offsets.get(account) ?? 0)),
    timeScale,
    ms: (s) => (s * 1000) / timeScale,
    headerSeconds: (realMs) => {
      const s = Math.max(0, realMs) / 1000;
      // Round up so that a client waiting the advertised time is never early.
      return timeScale === 1 ? String(Math.ceil(s)) : String(Math.ceil(s * 1000) / 1000);
    },
    advance: (account, realMs) => {
      offsets.set(account, (offsets.get(account) ?? 0) + realMs);
    },
    offset: (account) => offsets.get(account) ?? 0,
    resetAccount: (account) => {
      offsets.delete(account);
    },
  };
}
