// Ctrl-C (SIGINT), SIGTERM and SIGHUP. A download in progress is stopped through its AbortSignal, and the
// client removes its temporary file before the process exits (the README promises no partial file);
// with nothing to clean up, the process exits at once, as it always did. A second signal, or a clean-up
// that takes longer than CLEANUP_GRACE_MS, exits at once too. Exit codes: 128 + the signal's number.

/** How long a clean-up may take after a signal (removing one temporary file: milliseconds). */
export const CLEANUP_GRACE_MS = 5_000;

const SIGNALS = [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const;

export class InterruptedError extends Error {
  override readonly name = 'InterruptedError';
  constructor(
    readonly signal: string,
    readonly exitCode: number,
  ) {
    super(`interrupted by ${signal}`);
  }
}

const controller = new AbortController();
let pending = 0;

/** Runs `work`, which stops and cleans up when the signal it is given aborts (a signal arrived). */
export async function interruptible<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  pending++;
  try {
    return await work(controller.signal);
  } finally {
    pending--;
  }
}

/** The signal that interrupted the command, once one has. */
export const interruption = (): InterruptedError | undefined =>
  controller.signal.aborted ? (controller.signal.reason as InterruptedError) : undefined;

/** Installs the handlers: `first` runs on every signal (the cursor back), `exit` ends the process. */
export function onInterrupt(first: () => void, exit: (code: number) => void): void {
  for (const [signal, exitCode] of SIGNALS) {
    process.on(signal, () => {
      first();
      if (pending === 0 || controller.signal.aborted) return exit(exitCode);
      controller.abort(new InterruptedError(signal, exitCode));
      // The interrupted work ends the command (cli.ts exits with exitCode then); this only ends a hang.
      setTimeout(() => exit(exitCode), CLEANUP_GRACE_MS).unref();
    });
  }
}
