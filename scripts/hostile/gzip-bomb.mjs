// A decompression bomb for the hostile-input tests and probes: a small gzip body
// that inflates to `bytes` (about 1 MB per GiB at the best level). One builder for the client's, the
// CLI's and the contract suite's tests and for probes/transport-limits.mjs.
import { constants, createGzip } from 'node:zlib';

export const GiB = 1024 * 1024 * 1024;

/**
 * `head` (default none), then `bytes` (default 1 GiB) of the byte `fill` (default a space, so that a
 * JSON reader sees whitespace to the end), gzipped.
 */
export async function gzipBomb(bytes = GiB, { head, fill = 0x20 } = {}) {
  const gz = createGzip({ level: constants.Z_BEST_COMPRESSION });
  const out = [];
  gz.on('data', (c) => out.push(c));
  const done = new Promise((r) => gz.on('end', r));
  if (head) gz.write(head);
  const chunk = Buffer.alloc(1024 * 1024, fill);
  for (let sent = 0; sent < bytes; sent += chunk.length)
    if (!gz.write(chunk)) await new Promise((r) => gz.once('drain', r));
  gz.end();
  await done;
  return Buffer.concat(out);
}
