// A file of zero bytes of any size, backed by a sparse temporary file: FormData streams it from disk, so
// an upload of 180 MB (8.4) is never built in memory, and the disk holds no data for it.
import { openAsBlob } from 'node:fs';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ZeroFile {
  blob: Blob;
  /** Deletes the temporary file (call once the request that sent it has its answer). */
  remove(): Promise<void>;
}

export async function zeroFile(size: number, type: string): Promise<ZeroFile> {
  const dir = await mkdtemp(join(tmpdir(), 'contract-upload-'));
  const path = join(dir, 'zeros');
  await writeFile(path, '');
  await truncate(path, size);
  return { blob: await openAsBlob(path, { type }), remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Files larger than this are sent from a sparse file rather than built in memory. */
export const IN_MEMORY_FILE_BYTES = 1024 * 1024;
