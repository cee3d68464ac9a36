import type { components } from './generated/openapi.js';
import { PLAN_LIMITS_AS, UPLOAD_LIMITS, VALID_COMBINATIONS, type PLANS } from '@videogen/openapi/rules';
import { ValidationError } from './errors.js';
import { builtin, noFileSystem } from './runtime.js';

type Schemas = components['schemas'];
export type Plan = (typeof PLANS)[number];
export type FileField = keyof typeof UPLOAD_LIMITS;
type Chunks = AsyncIterable<Uint8Array | string>;

/**
 * A file to upload: a path (streamed from disk), a Blob/File, bytes, or `{ data, filename }` where
 * `data` may be a readable stream (sent once: a stream cannot be re-read for a retry).
 */
export type FileInput =
  | string
  | Blob
  | Uint8Array
  | { data: Blob | Uint8Array | ReadableStream<Uint8Array> | NodeJS.ReadableStream | Chunks; filename: string; size?: number };

/** The form of POST /videos/generate/, with files in any FileInput form. */
export type GenerateInput = {
  [K in keyof Schemas['GenerateVideoRequest']]: K extends 'image_files' ? FileInput[] : K extends FileField ? FileInput : Schemas['GenerateVideoRequest'][K];
};
export type UploadProgress = { loaded: number; total?: number };

interface Part {
  name: string;
  value: string | Blob | Uint8Array | Chunks;
  filename?: string;
  size?: number;
}

// Path names without node:path (so that this module loads in a Worker); same results as its basename/extname.
const baseName = (p: string) => p.slice(p.search(/[^\\/]*$/));
const extName = (f: string) => {
  const b = baseName(f);
  const i = b.lastIndexOf('.');
  return i > 0 ? b.slice(i) : '';
};

async function toPart(name: FileField, f: FileInput): Promise<Part> {
  if (typeof f == 'string') {
    // Streamed from disk when sent: never read whole into memory.
    const fs = builtin<typeof import('node:fs')>('node:fs');
    if (!fs?.openAsBlob) throw new ValidationError(`${name}: ${noFileSystem(`the file path "${f}"`)}`, { field: name });
    const value = await fs.openAsBlob(f);
    return { name, value, filename: baseName(f), size: value.size };
  }
  const { data, filename, size } =
    f instanceof Blob || f instanceof Uint8Array ? { data: f, filename: (f as File).name, size: undefined } : f;
  if (!filename) throw new ValidationError(`${name}: a filename is needed ({ data, filename })`, { field: name });
  const known = data instanceof Blob ? data.size : data instanceof Uint8Array ? data.byteLength : size;
  return { name, value: data as Part['value'], filename, size: known };
}

/**
 * Checks the form against the spec before anything is sent (field combinations, extensions, sizes
 * for the plan, number of images, the setting's request_fields) and returns its parts.
 */
export async function prepare(input: GenerateInput, plan: Plan, setting?: Pick<Schemas['VideoSetting'], 'request_fields'>) {
  const given = (['text', ...Object.keys(UPLOAD_LIMITS)] as (keyof GenerateInput)[]).filter((f) => input[f] != null && input[f] !== '' && !(Array.isArray(input[f]) && !input[f].length));
  const fail = (message: string, field: string, limit?: unknown, error_code = 'FILE_UPLOAD_ERROR') => {
    throw new ValidationError(message, { field, limit, error_code });
  };
  const combo = VALID_COMBINATIONS.find(([need, may]) => need.every((f) => given.includes(f)) && given.every((f) => need.includes(f as never) || may.includes(f as never)));
  if (!combo)
    fail(`Fields ${given.join('+') || '(none)'} are not a valid combination`, given[0] ?? 'text', VALID_COMBINATIONS, 'INVALID_REQUEST');
  // The setting takes the given fields, and needs each of its fields that the combination does not make optional.
  const may: readonly string[] = combo![1];
  const want = setting?.request_fields as string[] | undefined;
  const odd = want && (given.find((f) => !want.includes(f)) ?? want.find((f) => !given.includes(f as never) && !may.includes(f)));
  if (odd) fail(`The video setting is used with ${want}, not ${given}`, odd, want, 'INVALID_VIDEO_SETTING');
  const parts: Part[] = [{ name: 'video_setting_id', value: input.video_setting_id }];
  if (given.includes('text')) parts.push({ name: 'text', value: input.text! });
  const p = (PLAN_LIMITS_AS as Record<string, 'personal' | 'business'>)[plan] ?? plan;
  for (const name of given.filter((f) => f != 'text') as FileField[]) {
    const lim = UPLOAD_LIMITS[name];
    const files = [input[name]].flat() as FileInput[];
    if ('maxItems' in lim && files.length > lim.maxItems) fail(`${name}: at most ${lim.maxItems} files`, name, lim.maxItems);
    for (const f of files) {
      const part = await toPart(name, f);
      const ext = extName(part.filename!).toLowerCase();
      const exts: readonly string[] = lim.extensions[p];
      if (!exts.includes(ext)) fail(`${name}: ${part.filename} is not ${exts.join(', ')} (${plan} plan)`, name, exts);
      if (part.size! > lim.maxBytes[p]) fail(`${name}: ${part.filename} is over ${lim.maxBytes[p]} bytes (${plan} plan)`, name, lim.maxBytes[p]);
      parts.push(part);
    }
  }
  return parts;
}

const enc = /* @__PURE__ */ new TextEncoder();
const bytes = (c: Uint8Array | string) => (typeof c == 'string' ? enc.encode(c) : c);

/**
 * A multipart/form-data body built as a stream, so a file is read chunk by chunk as it is sent and
 * progress counts real bytes. Call `body()` again for a retry: it re-reads each source.
 */
export function multipart(parts: Part[], onProgress?: (p: UploadProgress) => void) {
  const boundary = '----videogen' + Math.random().toString(36).slice(2);
  const heads = parts.map(({ name, filename, value }) =>
    bytes(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"` +
      (filename == null ? '' : `; filename="${filename.replace(/["\r\n]/g, '_')}"\r\nContent-Type: ${UPLOAD_LIMITS[name as FileField].contentType}`) +
      '\r\n\r\n' + (typeof value == 'string' ? value : '')));
  const tail = bytes(`--${boundary}--\r\n`);
  let total: number | undefined = tail.length;
  parts.forEach((p, i) => (total = typeof p.value == 'string' ? total! + heads[i].length + 2 : p.size == null || total == null ? undefined : total + heads[i].length + p.size + 2));
  async function* chunks() {
    for (const [i, { value }] of parts.entries()) {
      yield heads[i];
      if (typeof value != 'string') yield* value instanceof Uint8Array ? [value] : value instanceof Blob ? value.stream() : (value as Chunks);
      yield bytes('\r\n');
    }
    yield tail;
  }
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    /** Sent once only when a part is a stream. */
    oneShot: parts.some((p) => typeof p.value != 'string' && !(p.value instanceof Blob || p.value instanceof Uint8Array)),
    body() {
      let loaded = 0;
      // fetch (undici) takes an async iterable as a streaming body (with duplex: 'half').
      return (async function* () {
        for await (const c of chunks()) {
          const b = bytes(c);
          loaded += b.byteLength;
          onProgress?.({ loaded, total });
          yield b;
        }
      })() as unknown as BodyInit;
    },
  };
}
