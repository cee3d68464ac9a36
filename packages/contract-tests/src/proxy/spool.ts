// A request body kept so that it can be sent again (after a 429 or a 503) without holding it all in
// memory: the first MEMORY_BYTES stay in memory, a larger body (an upload of up to 180 MB, 8.4) goes
// to a temporary file. The proxy stores the whole body before it sends it: the pacer's slot is held
// only while the target answers, never while a slow caller uploads.
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { formFields, type FormField } from './form-fields.ts';

/** Bodies up to this size stay in memory (JSON bodies, text generations, small uploads). */
export const MEMORY_BYTES = 1024 * 1024;

export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the request body exceeds ${maxBytes} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

let counter = 0;

export class BodySpool {
  /** A multipart body's fields (held in memory), for the HAR. */
  fields?: FormField[];

  private constructor(
    readonly size: number,
    private readonly memory: Buffer | undefined,
    private readonly file: string | undefined,
  ) {}

  /**
   * Reads `source` to its end. Throws BodyTooLargeError past `maxBytes`, or the source's error. A
   * multipart body kept in memory (its `contentType` given) also has its fields read.
   */
  static async read(
    source: Readable,
    o: { maxBytes: number; dir: () => Promise<string>; contentType?: string },
  ): Promise<BodySpool> {
    const chunks: Buffer[] = [];
    let size = 0;
    let file: string | undefined;
    let out: ReturnType<typeof createWriteStream> | undefined;
    try {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > o.maxBytes) throw new BodyTooLargeError(o.maxBytes);
        if (!out && size <= MEMORY_BYTES) {
          chunks.push(chunk);
          continue;
        }
        if (!out) {
          file = join(await o.dir(), `body-${process.pid}-${++counter}`);
          out = createWriteStream(file);
          for (const c of chunks.splice(0)) if (!out.write(c)) await once(out, 'drain');
        }
        if (!out.write(chunk)) await once(out, 'drain');
      }
      if (out) {
        out.end();
        await once(out, 'finish');
      }
    } catch (err) {
      out?.destroy();
      if (file) await rm(file, { force: true });
      throw err;
    }
    const spool = new BodySpool(size, out ? undefined : Buffer.concat(chunks), file);
    if (spool.memory && o.contentType && /^multipart\/form-data/i.test(o.contentType))
      spool.fields = await formFields(spool.memory, o.contentType);
    return spool;
  }

  /** Whether the body went to a file. */
  get onDisk(): boolean {
    return this.file !== undefined;
  }

  /** The body held in memory (undefined when it is on disk). */
  bytes(): Buffer | undefined {
    return this.memory;
  }

  /** The body from its start, as often as needed. */
  stream(): Readable {
    return this.file ? createReadStream(this.file) : Readable.from([this.memory ?? Buffer.alloc(0)]);
  }

  async dispose(): Promise<void> {
    if (this.file) await rm(this.file, { force: true });
  }
}
