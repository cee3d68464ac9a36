import type { components } from '@videogen/openapi/types';
import { formProblem, PLAN_LIMITS_AS, UPLOAD_LIMITS, type PLANS } from '@videogen/openapi/rules';
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
  | {
      data: Blob | Uint8Array | ReadableStream<Uint8Array> | NodeJS.ReadableStream | Chunks;
      filename: string;
      size?: number;
    };

/** The form of POST /videos/generate/, with files in any FileInput form. */
export type GenerateInput = {
  [K in keyof Schemas['GenerateVideoRequest']]: K extends 'image_files'
    ? FileInput[]
    : K extends FileField
      ? FileInput
      : Schemas['GenerateVideoRequest'][K];
};
export type UploadProgress = { loaded: number; total?: number };

/** One part of the multipart body: a field of the generated request schema, never another name. */
type Part =
  | {
      name: Exclude<keyof Schemas['GenerateVideoRequest'], FileField>;
      value: string;
      filename?: undefined;
      size?: undefined;
    }
  | { name: FileField; value: Blob | Uint8Array | Chunks; filename: string; size?: number };

// Path names without node:path (so that this module loads in a Worker); same results as its basename/extname.
const baseName = (p: string) => p.slice(p.search(/[^\\/]*$/));
const extName = (f: string) => {
  const b = baseName(f);
  const i = b.lastIndexOf('.');
  return i > 0 ? b.slice(i) : '';
};

async function toPart(name: FileField, f: FileInput): Promise<Extract<Part, { name: FileField }>> {
  if (typeof f === 'string') {
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
  // A Node stream is an async iterable of chunks, as a web ReadableStream is on the runtimes that send one.
  return { name, value: data as Blob | Uint8Array | Chunks, filename, size: known };
}

/**
 * Checks the form against the spec before anything is sent (the field combination and the setting's
 * request_fields through the rules' formProblem, DECISIONS #26; extensions, sizes for the plan and the
 * number of images through UPLOAD_LIMITS) and returns its parts.
 */
export async function prepare(
  input: GenerateInput,
  plan: Plan,
  setting?: Pick<Schemas['VideoSetting'], 'request_fields'>,
): Promise<Part[]> {
  const given = checkForm(input, setting);
  const parts: Part[] = [{ name: 'video_setting_id', value: input.video_setting_id }];
  if (given.includes('text') && input.text !== undefined) parts.push({ name: 'text', value: input.text });
  const p = (PLAN_LIMITS_AS as Record<string, 'personal' | 'business'>)[plan] ?? plan;
  for (const name of given.filter((f) => f !== 'text') as FileField[]) {
    const lim = UPLOAD_LIMITS[name];
    const files = [input[name]].flat() as FileInput[];
    const fail = (message: string, limit: unknown) => {
      throw new ValidationError(message, { field: name, limit, error_code: 'FILE_UPLOAD_ERROR' });
    };
    if ('maxItems' in lim && files.length > lim.maxItems) fail(`${name}: at most ${lim.maxItems} files`, lim.maxItems);
    for (const f of files) {
      const part = await toPart(name, f);
      const ext = extName(part.filename).toLowerCase();
      const exts: readonly string[] = lim.extensions[p];
      if (!exts.includes(ext)) fail(`${name}: ${part.filename} is not ${exts.join(', ')} (${plan} plan)`, exts);
      // A stream of unknown size is checked by the service.
      if (part.size !== undefined && part.size > lim.maxBytes[p])
        fail(`${name}: ${part.filename} is over ${lim.maxBytes[p]} bytes (${plan} plan)`, lim.maxBytes[p]);
      parts.push(part);
    }
  }
  return parts;
}

/**
 * The input fields given, when they are a valid combination that the setting (if known) takes: the
 * rules' formProblem (DECISIONS #26) decides; a problem throws a ValidationError naming the field.
 */
export function checkForm(
  input: GenerateInput,
  setting?: Pick<Schemas['VideoSetting'], 'request_fields'>,
): (keyof GenerateInput)[] {
  const given = (['text', ...Object.keys(UPLOAD_LIMITS)] as (keyof GenerateInput)[]).filter((f) => isGiven(input[f]));
  const problem = formProblem(given, setting?.request_fields);
  if (!problem) return given;
  const bySetting = problem.kind === 'field_not_in_setting' || problem.kind === 'setting_field_missing';
  throw new ValidationError(problem.message, {
    field: problem.field ?? given[0] ?? 'text',
    limit: bySetting ? problem.allowed[0] : problem.allowed,
    error_code: bySetting ? 'INVALID_VIDEO_SETTING' : 'INVALID_REQUEST',
  });
}

/** A field counts as given unless it is absent, empty text or an empty list. */
const isGiven = (v: unknown) => v != null && v !== '' && !(Array.isArray(v) && !v.length);

const enc = /* @__PURE__ */ new TextEncoder();
const bytes = (c: Uint8Array | string) => (typeof c === 'string' ? enc.encode(c) : c);

/**
 * A multipart/form-data body built as a stream, so a file is read chunk by chunk as it is sent and
 * progress counts real bytes. Call `body()` again for a retry: it re-reads each source.
 */
export function multipart(parts: Part[], onProgress?: (p: UploadProgress) => void) {
  const boundary = '----videogen' + Math.random().toString(36).slice(2);
  const heads = parts.map(({ name, filename, value }) =>
    bytes(
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"` +
        (filename == null
          ? ''
          : `; filename="${filename.replace(/["\r\n]/g, '_')}"\r\nContent-Type: ${UPLOAD_LIMITS[name as FileField].contentType}`) +
        '\r\n\r\n' +
        (typeof value === 'string' ? value : ''),
    ),
  );
  const tail = bytes(`--${boundary}--\r\n`);
  let total: number | undefined = tail.length;
  // The body's length when every part's is known (a string's, or a file's size), else undefined.
  for (const [i, p] of parts.entries()) {
    if (total === undefined) break;
    if (typeof p.value === 'string') total += heads[i].length + 2;
    else total = p.size == null ? undefined : total + heads[i].length + p.size + 2;
  }
  async function* chunks() {
    for (const [i, { value }] of parts.entries()) {
      yield heads[i];
      if (typeof value !== 'string')
        yield* value instanceof Uint8Array ? [value] : value instanceof Blob ? value.stream() : (value as Chunks);
      yield bytes('\r\n');
    }
    yield tail;
  }
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    /** Sent once only when a part is a stream. */
    once: parts.some((p) => typeof p.value !== 'string' && !(p.value instanceof Blob || p.value instanceof Uint8Array)),
    stream(): BodyInit {
      let loaded = 0;
      // fetch (undici) takes an async iterable as a streaming body (with duplex: 'half').
      return (async function* () {
        for await (const c of chunks()) {
          const b = bytes(c);
          loaded += b.byteLength;
          onProgress?.({ loaded, total });
          yield b;
        }
      })() as AsyncIterable<Uint8Array> as BodyInit;
    },
  };
}
