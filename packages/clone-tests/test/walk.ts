// Walking the documented commands in a clone: servers started on a free port, probed and stopped; the
// other commands run as a reader's shell runs them, one bash per reading session (a file, or the guides in
// their order), so that a variable a line sets (`id=$(videogen …)`, `export VIDEO_API_BASE_URL=…`) holds for
// the lines after it. The documented port 4010 is rewritten to the walk's own sandbox.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import type { DocCommand } from './documented.ts';

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

const killGroup = (pid: number | undefined, signal: NodeJS.Signals = 'SIGTERM') => {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
};

/** The documented sandbox port, pointed at the walk's sandbox. */
export const onWalkPort = (text: string, port: number) => text.replace(/127\.0\.0\.1:4010\b/g, `127.0.0.1:${port}`);

export interface ServerOutcome {
  /** It answered HTTP on its port. */
  answered: boolean;
  /** What the probe read (status of the page or of the API call), or why nothing came. */
  detail: string;
  output: string;
  /** It exited before it answered. */
  exited?: number | null;
}

/**
 * Starts a server command (bash, its own process group), waits until `probe` gets an answer from it (at
 * most `waitMs`: `npm start` builds first), then stops the whole group.
 */
export async function tryServer(
  command: string,
  o: { cwd: string; env: Record<string, string | undefined>; probe: () => Promise<string>; waitMs?: number },
): Promise<ServerOutcome> {
  const child = spawn('bash', ['-c', command], {
    cwd: o.cwd,
    env: { ...process.env, ...o.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  let exited: number | null | undefined;
  const closed = new Promise<void>((done) =>
    child.on('close', (code) => {
      exited = code;
      done();
    }),
  );
  const deadline = Date.now() + (o.waitMs ?? 180_000);
  let outcome: ServerOutcome | undefined;
  while (!outcome) {
    if (exited !== undefined)
      outcome = { answered: false, detail: `exited ${exited} before answering`, output, exited };
    else if (Date.now() > deadline) outcome = { answered: false, detail: 'no answer in time', output };
    else {
      try {
        outcome = { answered: true, detail: await o.probe(), output };
      } catch {
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }
  killGroup(child.pid);
  const forced = setTimeout(() => killGroup(child.pid, 'SIGKILL'), 10_000);
  await closed;
  clearTimeout(forced);
  return { ...outcome, output };
}

/** One line of a session as it ran. */
export interface LineOutcome {
  command: DocCommand;
  /** As run (the port rewritten). */
  text: string;
  expected: number;
  code: number | null;
  /** How long it ran (reported, never asserted). */
  seconds?: number;
  /** It ran past the line's deadline and its processes were killed (the session went on). */
  hung?: boolean;
  stdout: string;
  stderr: string;
}

/** Every process below `root` (children first found, then theirs), read from ps. */
function descendantsOf(root: number): number[] {
  const ps = spawnSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' });
  const children = new Map<number, number[]>();
  for (const row of ps.stdout.split('\n')) {
    const [pid, ppid] = row.trim().split(/\s+/).map(Number);
    if (!pid || ppid === undefined) continue;
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const found: number[] = [];
  for (let queue = [root]; queue.length > 0; ) {
    const next = children.get(queue.shift()!) ?? [];
    found.push(...next);
    queue.push(...next);
  }
  return found;
}

/**
 * Runs a session's lines in one bash, each followed by a marker with its exit status on stdout and on
 * stderr, so that each line's output and status are read back apart. A line that runs past `lineMs` has
 * its processes killed (not the session's bash): it ends with the kill's status, is marked `hung`, and the
 * lines after it still run, so one server-like command names itself instead of using up the whole walk.
 */
export async function runSession(
  lines: Array<{ command: DocCommand; text: string; expected: number }>,
  o: { cwd: string; env: Record<string, string | undefined>; hangAfterMs: number; lineMs: number },
): Promise<{ outcomes: LineOutcome[]; output: string; timedOut: boolean }> {
  const script = lines
    .map(
      (l, i) =>
        `printf '\\n@@begin ${i}\\n'; printf '\\n@@begin ${i}\\n' >&2; __t=$EPOCHREALTIME\n${l.text}\n__rc=$?; printf '\\n@@end ${i} %s %s %s\\n' "$__rc" "$__t" "$EPOCHREALTIME"; printf '\\n@@end ${i}\\n' >&2`,
    )
    .join('\n');
  const child = spawn('bash', ['-c', script], {
    cwd: o.cwd,
    env: { ...process.env, ...o.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid, 'SIGKILL');
  }, o.hangAfterMs);
  // The line now running and since when: read from the markers as they arrive.
  const hung = new Set<number>();
  let running = { line: -1, since: Date.now() };
  const watchdog = setInterval(() => {
    const begun = [...stdout.matchAll(/\n@@begin (\d+)\n/g)].at(-1);
    const line = begun ? Number(begun[1]) : -1;
    if (line !== running.line) running = { line, since: Date.now() };
    else if (line >= 0 && !stdout.includes(`\n@@end ${line} `) && Date.now() - running.since > o.lineMs) {
      hung.add(line);
      for (const pid of descendantsOf(child.pid ?? 0)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      running = { line, since: Date.now() };
    }
  }, 1000);
  await new Promise<void>((done) => child.on('close', () => done()));
  clearTimeout(timer);
  clearInterval(watchdog);
  const part = (text: string, i: number) => {
    const begin = text.indexOf(`\n@@begin ${i}\n`);
    if (begin < 0) return undefined;
    const end = text.indexOf(`\n@@end ${i}`, begin);
    return { body: text.slice(begin + `\n@@begin ${i}\n`.length, end < 0 ? undefined : end), end };
  };
  const outcomes = lines.map((l, i) => {
    const out = part(stdout, i);
    const err = part(stderr, i);
    const end = out && out.end >= 0 ? /^\n@@end \d+ (\d+) ([\d.]+) ([\d.]+)/.exec(stdout.slice(out.end)) : undefined;
    const status = end?.[1];
    return {
      command: l.command,
      text: l.text,
      expected: l.expected,
      code: status === undefined ? null : Number(status),
      seconds: end ? Number(end[3]) - Number(end[2]) : undefined,
      hung: hung.has(i),
      stdout: out?.body ?? '',
      stderr: err?.body ?? '',
    };
  });
  return { outcomes, output: `${stdout}\n${stderr}`, timedOut };
}
