// A decompression bomb for the hostile-input tests and probes: a small gzip body
// that inflates to `bytes` (about 1 MB per GiB at the best level). One builder for the client's, the
// CLI's and the contract suite's tests and for probes/transport-limits.mjs.
import { constants, crc32, deflateRawSync } from 'node:zlib';

export const GiB = 1024 * 1024 * 1024;

const CHUNK = 1024 * 1024;

/**
 * `head` (default none), then `bytes` (default 1 GiB, a whole number of MiB) of the byte `fill` (default
 * a space, so that a JSON reader sees whitespace to the end), gzipped: one gzip member (RFC 1952).
 *
 * Built without compressing the gigabyte: each MiB is compressed once and ended by a full flush (which
 * forgets the earlier data), so every MiB after it compresses to the same bytes, repeated. Deflating the
 * whole GiB took 4.5 s of CPU for each test that built one; this takes about a tenth (the CRC of the data).
 */
export async function gzipBomb(bytes = GiB, { head, fill = 0x20 } = {}) {
  const full = { level: constants.Z_BEST_COMPRESSION, finishFlush: constants.Z_FULL_FLUSH };
  const chunk = Buffer.alloc(CHUNK, fill);
  const count = Math.ceil(bytes / CHUNK);
  const block = deflateRawSync(chunk, full);
  const parts = [Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 255])];
  let crc = 0;
  if (head) {
    parts.push(deflateRawSync(head, full));
    crc = crc32(head, crc);
  }
  for (let i = 0; i < count; i++) {
    parts.push(block);
    crc = crc32(chunk, crc);
  }
  // The last block (empty, final), then the trailer: the CRC-32 and the length modulo 2^32.
  parts.push(deflateRawSync(Buffer.alloc(0), { level: constants.Z_BEST_COMPRESSION }));
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(((head?.length ?? 0) + count * CHUNK) % 2 ** 32, 4);
  parts.push(trailer);
  return Buffer.concat(parts);
}
