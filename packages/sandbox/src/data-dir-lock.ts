// One sandbox per data dir: `DIR/sandbox.lock` names the process that holds it. A second sandbox
// refuses to start and names the holder; a lock whose process is gone (kill -9, power loss) is stale
// and taken over, so nothing stays stuck.
import { hostname } from 'node:os';
import { join } from 'node:path';
import { linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync, closeSync } from 'node:fs';

interface LockInfo {
  pid: number;
  host: string;
  started_at: string;
  /** Linux: the process's start time in clock ticks since boot (/proc/PID/stat field 22), to tell a reused pid. */
  proc_start?: string;
}

function procStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its closing ")".
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function alive(info: LockInfo): boolean {
  // Another machine's process (a shared network dir) cannot be checked: assume it runs.
  if (info.host !== hostname()) return true;
  try {
    process.kill(info.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  // The pid runs; on Linux, make sure it is the same process and not a new one that reused the pid.
  const start = procStart(info.pid);
  return !(info.proc_start && start && start !== info.proc_start);
}

function read(file: string): { text: string; info?: LockInfo } {
  const text = readFileSync(file, 'utf8');
  try {
    return { text, info: JSON.parse(text) };
  } catch {
    return { text }; // half-written by a process killed while writing: stale
  }
}

export class DataDirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockInfo,
  ) {
    super(
      `the data dir ${dir} is in use by another sandbox (pid ${holder.pid} on ${holder.host}, started ${holder.started_at}): ` +
        'stop that process or give this one another --data-dir. (A lock whose process no longer runs is taken over by itself.)',
    );
  }
}

export interface DataDirLock {
  file: string;
  release(): void;
}

export function lockDataDir(dir: string): DataDirLock {
  const file = join(dir, 'sandbox.lock');
  const mine: LockInfo = {
    pid: process.pid,
    host: hostname(),
    started_at: new Date().toISOString(),
    proc_start: procStart(process.pid),
  };
  const text = JSON.stringify(mine);
  for (let attempt = 0; attempt < 10; attempt++) {
    try {
      const fd = openSync(file, 'wx'); // O_EXCL: exactly one process creates it
      try {
        writeSync(fd, text);
      } finally {
        closeSync(fd);
      }
      return {
        file,
        release: () => {
          try {
            if (readFileSync(file, 'utf8') === text) unlinkSync(file);
          } catch {
            // already gone
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let held: ReturnType<typeof read>;
    try {
      held = read(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // released meanwhile
      throw err;
    }
    if (held.info && alive(held.info)) throw new DataDirInUseError(dir, held.info);
    // Stale. Move it aside atomically; if what was moved is not what was judged stale (another
    // sandbox took the lock over in between), put it back and look again.
    const aside = `${file}.stale-${process.pid}`;
    try {
      renameSync(file, aside);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    if (readFileSync(aside, 'utf8') !== held.text) {
      try {
        linkSync(aside, file);
      } catch {
        // a third process holds it now; ours to drop either way
      }
    }
    unlinkSync(aside);
  }
  throw new Error(`could not lock the data dir ${dir}: its lock kept changing`);
}
