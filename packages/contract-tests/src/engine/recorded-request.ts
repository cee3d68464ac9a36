// What a request sent, in a form that can be written to a failure bundle and sent again (replay)
// or printed as a curl line. The key is never recorded: `auth` names how the request authenticated.
import { REDACTED } from '@videogen/openapi/rules';
import type { Auth, RecordedRequest, RequestOptions } from '../shapes.ts';
import { redact } from './redact.ts';
import { IN_MEMORY_FILE_BYTES, zeroFile, type ZeroFile } from './zero-file.ts';

/** File parts up to this size are kept whole (base64); larger ones are re-sent as zeros of the same size. */
const KEEP_FILE_BYTES = 64 * 1024;

export async function recordRequest(
  method: string,
  path: string,
  auth: Auth,
  opts: RequestOptions,
  pathParams: Record<string, string | undefined> = {},
): Promise<RecordedRequest> {
  const r: RecordedRequest = {
    method,
    path,
    auth: auth === 'key' || auth === 'none' ? auth : { header: redact(auth.header) },
  };
  const params = Object.entries(pathParams).filter((e): e is [string, string] => e[1] !== undefined);
  if (params.length) r.pathParams = Object.fromEntries(params.map(([k, v]) => [k, redact(v)]));
  if (opts.headers && Object.keys(opts.headers).length) r.headers = JSON.parse(redact(JSON.stringify(opts.headers)));
  if (opts.json !== undefined) r.json = JSON.parse(redact(JSON.stringify(opts.json)));
  else if (opts.raw) r.raw = { body: redact(opts.raw.body), contentType: opts.raw.contentType };
  else if (opts.form) {
    r.form = [];
    for (const [name, v] of opts.form.entries()) {
      if (typeof v === 'string') r.form.push({ name, value: redact(v) });
      else {
        const f = v as File;
        const base64 = f.size <= KEEP_FILE_BYTES ? Buffer.from(await f.arrayBuffer()).toString('base64') : undefined;
        r.form.push({ name, file: { filename: f.name, type: f.type, size: f.size, base64 } });
      }
    }
  }
  return r;
}

/**
 * The request options that send a recorded request again (files rebuilt from the bundle: a file past a
 * megabyte as zeros streamed from a sparse file, never built in memory), and the temporary files to
 * remove once it is answered.
 */
export async function replayOptions(
  r: RecordedRequest,
  key: string | undefined,
): Promise<{ opts: RequestOptions; temporary: ZeroFile[] }> {
  const opts: RequestOptions = { retry: true };
  const temporary: ZeroFile[] = [];
  if (r.auth === 'key' || r.auth === 'none') opts.auth = r.auth;
  else opts.auth = { header: key ? r.auth.header.split(REDACTED).join(key) : r.auth.header, label: 'recorded header' };
  if (r.headers) opts.headers = r.headers;
  if (r.json !== undefined) opts.json = r.json;
  if (r.raw) opts.raw = r.raw;
  if (r.form) {
    const fd = new FormData();
    for (const p of r.form) {
      if (p.file) {
        let blob: Blob;
        if (p.file.base64 !== undefined) blob = new Blob([Buffer.from(p.file.base64, 'base64')], { type: p.file.type });
        else if (p.file.size <= IN_MEMORY_FILE_BYTES)
          blob = new Blob([new Uint8Array(p.file.size)], { type: p.file.type });
        else {
          const zeros = await zeroFile(p.file.size, p.file.type);
          temporary.push(zeros);
          blob = zeros.blob;
        }
        fd.append(p.name, blob, p.file.filename);
      } else fd.append(p.name, p.value ?? '');
    }
    opts.form = fd;
  }
  return { opts, temporary };
}

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** One curl line that sends the request; the key is `$VIDEO_API_KEY`, never its value. */
export function curlLine(baseUrl: string, r: RecordedRequest, keyVar = 'VIDEO_API_KEY'): string {
  const parts = ['curl', '-sS', '-X', r.method];
  if (r.auth === 'key') parts.push('-H', `"Authorization: Bearer $${keyVar}"`);
  else if (r.auth !== 'none') parts.push('-H', q(`Authorization: ${r.auth.header}`));
  for (const [name, value] of Object.entries(r.headers ?? {})) parts.push('-H', q(`${name}: ${value}`));
  if (r.json !== undefined)
    parts.push('-H', q('Content-Type: application/json'), '--data-raw', q(JSON.stringify(r.json)));
  if (r.raw) parts.push('-H', q(`Content-Type: ${r.raw.contentType}`), '--data-raw', q(r.raw.body));
  for (const p of r.form ?? []) {
    if (p.file) parts.push('-F', q(`${p.name}=@${p.file.filename};type=${p.file.type || 'application/octet-stream'}`));
    // -F reads a value starting with @ or < as a file: those go as --form-string.
    else parts.push(/^[@<]/.test(p.value ?? '') ? '--form-string' : '-F', q(`${p.name}=${p.value ?? ''}`));
  }
  parts.push(q(baseUrl.replace(/\/+$/, '') + r.path));
  return redact(parts.join(' '));
}
