// Directories written and thrown away within one test run: the fresh projects of the consumer tests, the
// fresh clone of packages/clone-tests. Each holds tens of thousands of files that npm writes; on a disk
// that others write to at the same time, the kernel's side of those writes and of their removal costs
// seconds of CPU and waits on the disk, in memory a fraction of that. (packages/runtime-tests keeps its
// project in the temporary directory: Deno asks for --allow-all to touch any path under /dev.)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The room a run needs there: a fresh clone installed and built (the largest of them) fits with margin. */
const ROOM = 4 * 1024 ** 3;

/** A memory file system when the machine has one with room (Linux's /dev/shm), else the temporary directory. */
export function scratchParent() {
  const shm = '/dev/shm';
  try {
    const fs = statfsSync(shm);
    if (fs.bavail * fs.bsize > ROOM) return shm;
  } catch {
    // no such file system here
  }
  return tmpdir();
}

/** A new, empty directory named `prefix…` under scratchParent(), outside any workspace. */
export const scratchDir = (prefix) => mkdtempSync(join(scratchParent(), prefix));

/** Removes a tree: `rm -rf` takes a third of the CPU of Node's recursive rmSync (its fallback). */
export function removeTree(dir) {
  if (spawnSync('rm', ['-rf', dir]).status !== 0) rmSync(dir, { recursive: true, force: true });
}
