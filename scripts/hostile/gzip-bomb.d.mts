// Types of gzip-bomb.mjs.
export const GiB: number;
export function gzipBomb(bytes?: number, options?: { head?: Uint8Array; fill?: number }): Promise<Buffer>;
