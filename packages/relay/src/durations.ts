// How long this account's videos take, as far as this relay has seen: no read of a video is made before
// it is as old as every generation seen lately was still running, since it would only say `running`. The interface gives no duration (4.7 only says to poll every 10 s, for up to 600 s);
// what a video took is known to within a polling interval: it was still running at the last read that
// said so. Kept in memory: a relay that starts polls as the interface says until it has seen a few.

/** Generations remembered; the floor is the shortest of them. */
const KEEP = 20;
/** Generations seen before the floor is trusted. */
const TRUST_AFTER = 3;

export class Durations {
  private readonly seen: number[] = [];

  /** A video completed: it was still running `runningForMs` after its creation (0: never seen running). */
  observe(runningForMs: number): void {
    if (!(runningForMs > 0)) return;
    this.seen.push(runningForMs);
    if (this.seen.length > KEEP) this.seen.shift();
  }

  /** How long every generation seen lately was still running, at least (ms), once a few were; undefined before. */
  floor(): number | undefined {
    return this.seen.length >= TRUST_AFTER ? Math.min(...this.seen) : undefined;
  }
}
