import type { Ora } from 'ora';

/** The libraries that draw in a terminal, loaded only for the `tty` mode (see loadTerminalLibraries). */
interface TerminalLibraries {
  cliProgress: typeof import('cli-progress');
  ora: typeof import('ora').default;
}

/**
 * ora and cli-progress (with the modules they import) take about a third of the CLI's start-up CPU: a run
 * that only prints plain lines (a pipe, CI, --json, --quiet), as every scripted run does, does not load them.
 */
async function loadTerminalLibraries(): Promise<TerminalLibraries> {
  const [cliProgress, ora] = await Promise.all([import('cli-progress'), import('ora')]);
  return { cliProgress: cliProgress.default, ora: ora.default };
}

/**
 * Progress shown to a person, always on stderr so that stdout carries only results.
 * - `tty`: cli-progress bars and an ora spinner that redraw in place;
 * - `plain`: a few complete lines (for logs, CI, pipes), never carriage returns;
 * - `quiet`: nothing.
 */
export type ProgressMode = 'tty' | 'plain' | 'quiet';

export interface TransferProgress {
  update(loaded: number, total?: number): void;
  done(): void;
  fail(): void;
}

export interface WaitProgress {
  update(status: string, elapsedMs: number): void;
  done(message: string, ok: boolean): void;
}

export interface Progress {
  readonly mode: ProgressMode;
  transfer(verb: 'Uploading' | 'Downloading', what: string): TransferProgress;
  wait(videoId: string): WaitProgress;
  /** A line of its own (over a spinner that is drawing: the spinner is drawn again below it). */
  info(line: string): void;
}

export function chooseMode(opts: { quiet?: boolean; json?: boolean }, env = process.env): ProgressMode {
  if (opts.quiet) return 'quiet';
  // Redrawing only makes sense when a person watches both streams; a pipe on stdout (or --json)
  // means a program reads us, so progress becomes plain lines on stderr.
  const tty = Boolean(process.stdout.isTTY && process.stderr.isTTY) && !opts.json;
  // A terminal that reports 0 columns (a pty nobody sized) cannot be redrawn in place: ora would
  // compute an infinite number of lines to clear.
  const sized = (process.stderr.columns ?? 0) > 0;
  if (!tty || !sized || env.TERM === 'dumb' || env.CI) return 'plain';
  return 'tty';
}

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'];
/** Decimal units, like the service's upload limits (1 MB = 1,000,000 bytes). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${UNITS[unit]}`;
}

export function formatDuration(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  if (s < 10) return `${s.toFixed(1)}s`;
  if (s < 60) return `${Math.round(s)}s`;
  const m = Math.floor(s / 60);
  return `${m}m${String(Math.round(s % 60)).padStart(2, '0')}s`;
}

/** Rate and time left of a transfer, from its start. */
function stats(start: number, loaded: number, total?: number) {
  const elapsed = Math.max(1, Date.now() - start);
  const rate = (loaded / elapsed) * 1000;
  const left = total && rate > 0 ? ((total - loaded) / rate) * 1000 : undefined;
  return { rate, left, elapsed };
}

export async function createProgress(
  mode: ProgressMode,
  stream: NodeJS.WriteStream = process.stderr,
): Promise<Progress> {
  const terminal = mode === 'tty' ? await loadTerminalLibraries() : undefined;
  const write = (line: string) => {
    if (mode !== 'quiet') stream.write(`${line}\n`);
  };
  // The spinner drawing now (tty), so that a line printed meanwhile does not land inside it.
  const drawing: { spinner?: Ora } = {};
  return {
    mode,
    info: (line) => {
      if (!drawing.spinner?.isSpinning) return write(line);
      drawing.spinner.clear();
      write(line);
      drawing.spinner.render();
    },
    transfer: (verb, what) =>
      terminal
        ? ttyTransfer(terminal, verb, what, stream)
        : mode === 'plain'
          ? plainTransfer(verb, what, write)
          : silentTransfer,
    wait: (id) =>
      terminal ? ttyWait(terminal, id, stream, drawing) : mode === 'plain' ? plainWait(id, write) : silentWait,
  };
}

const silentTransfer: TransferProgress = { update() {}, done() {}, fail() {} };
const silentWait: WaitProgress = { update() {}, done() {} };

function ttyTransfer(
  { cliProgress }: TerminalLibraries,
  verb: string,
  what: string,
  stream: NodeJS.WriteStream,
): TransferProgress {
  const start = Date.now();
  let bar: InstanceType<TerminalLibraries['cliProgress']['SingleBar']> | undefined;
  let last = { loaded: 0, total: 0 };
  const payload = (loaded: number, total?: number) => {
    const { rate, left } = stats(start, loaded, total);
    return {
      what,
      amount: total ? `${formatBytes(loaded)}/${formatBytes(total)}` : formatBytes(loaded),
      speed: `${formatBytes(rate)}/s`,
      left: left === undefined ? '' : ` | ${formatDuration(left)} left`,
    };
  };
  return {
    update(loaded, total) {
      const size = total && total > 0 ? total : Math.max(loaded, 1);
      if (!bar) {
        bar = new cliProgress.SingleBar(
          {
            stream,
            format: `${verb} {what} {bar} {percentage}% | {amount} | {speed}{left}`,
            barsize: 24,
            hideCursor: true,
            fps: 12,
            // Redraw even when the stream is not detected as a TTY by cli-progress itself.
            noTTYOutput: false,
          },
          cliProgress.Presets.shades_classic,
        );
        bar.start(size, 0, payload(0, total));
      }
      last = { loaded, total: size };
      bar.setTotal(size);
      bar.update(loaded, payload(loaded, total));
    },
    done() {
      if (!bar) this.update(last.loaded, last.total || undefined);
      bar?.update(last.total || last.loaded, payload(last.total || last.loaded, last.total || undefined));
      bar?.stop();
    },
    fail() {
      bar?.stop();
    },
  };
}

function plainTransfer(verb: string, what: string, write: (line: string) => void): TransferProgress {
  const start = Date.now();
  let nextStep = 25;
  let lastLoaded = 0;
  let lastTotal: number | undefined;
  let lastLine = 0;
  return {
    update(loaded, total) {
      lastLoaded = loaded;
      lastTotal = total;
      const { rate, left } = stats(start, loaded, total);
      if (total && total > 0) {
        // One line per 25 % keeps logs short while still showing that the transfer moves.
        const pct = Math.floor((loaded / total) * 100);
        // From 25 % on (0 % is only the headers); 100 % comes from done() with the total time.
        if (pct < nextStep || pct >= 100) return;
        nextStep = Math.floor(pct / 25) * 25 + 25;
        const leftText = left === undefined ? '' : `, ${formatDuration(left)} left`;
        write(
          `${verb} ${what}: ${pct}% (${formatBytes(loaded)} of ${formatBytes(total)}, ${formatBytes(rate)}/s${leftText})`,
        );
      } else if (Date.now() - lastLine > 5000) {
        lastLine = Date.now();
        write(`${verb} ${what}: ${formatBytes(loaded)} (${formatBytes(rate)}/s)`);
      }
    },
    done() {
      const elapsed = Date.now() - start;
      const bytes = lastTotal ?? lastLoaded;
      write(`${verb} ${what}: 100% (${formatBytes(bytes)} in ${formatDuration(elapsed)})`);
    },
    fail() {},
  };
}

function ttyWait(
  { ora }: TerminalLibraries,
  videoId: string,
  stream: NodeJS.WriteStream,
  drawing: { spinner?: Ora },
): WaitProgress {
  const start = Date.now();
  let status = 'starting';
  const text = () => `Waiting for video ${videoId}: ${status} · ${formatDuration(Date.now() - start)} elapsed`;
  // discardStdin off: the CLI never reads stdin, and ora's stdin handling would keep a pipe open.
  const spinner: Ora = ora({ text: text(), stream, discardStdin: false, isEnabled: true }).start();
  drawing.spinner = spinner;
  // The elapsed time moves between polls too, which may be 10 s apart.
  const ticker = setInterval(() => {
    spinner.text = text();
  }, 250);
  return {
    update(next) {
      status = next;
      spinner.text = text();
    },
    done(message, ok) {
      clearInterval(ticker);
      if (ok) spinner.succeed(message);
      else spinner.fail(message);
    },
  };
}

function plainWait(videoId: string, write: (line: string) => void): WaitProgress {
  let lastStatus = '';
  let lastLine = 0;
  return {
    update(status, elapsedMs) {
      // The final state gets its own line from done().
      if (status !== 'running' && status !== 'starting') return;
      // A line when the status changes, otherwise one every 30 s: a log shows life without noise.
      if (status === lastStatus && Date.now() - lastLine < 30_000) return;
      lastStatus = status;
      lastLine = Date.now();
      write(`Waiting for video ${videoId}: ${status} (${formatDuration(elapsedMs)} elapsed)`);
    },
    done(message, ok) {
      // On failure the error line that follows says it all.
      if (ok) write(message);
    },
  };
}
