// Sandbox time: an injectable wall clock plus a time scale. Every duration the interface documents
// (generation, expiry, link lifetime, rate-limit windows) is given in service seconds and turned
// into real milliseconds here, so tests can run N times faster or drive time by hand.
export interface Clock {
  now(): number;
  /** Service seconds → real milliseconds under the time scale. */
  ms(serviceSeconds: number): number;
  /** Real milliseconds → a header value in seconds (integer at scale 1, decimals otherwise). */
  headerSeconds(realMs: number): string;
  timeScale: number;
}

export function createClock(timeScale = 1, now: () => number = Date.now): Clock {
  if (!(timeScale > 0) || !Number.isFinite(timeScale)) throw new Error(`timeScale must be a positive number, got ${timeScale}`);
  return {
    now,
    timeScale,
    ms: (s) => (s * 1000) / timeScale,
    headerSeconds: (realMs) => {
      const s = Math.max(0, realMs) / 1000;
      // Round up so that a client waiting the advertised time is never early.
      return timeScale === 1 ? String(Math.ceil(s)) : String(Math.ceil(s * 1000) / 1000);
    },
  };
}
