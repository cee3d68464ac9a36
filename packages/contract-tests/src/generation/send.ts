// The one adapter from a generated case (data) to the engine's Api.callData(operationId, request): the
// operation's method and path template come from the document; the engine encodes the path parameters.
import type { Api } from '../engine/http.ts';
import type { Exchange, RequestOptions } from '../shapes.ts';
import { IN_MEMORY_FILE_BYTES, zeroFile, type ZeroFile } from '../engine/zero-file.ts';
import type { FormPart, GeneratedCase } from './cases.ts';

/**
 * A file part's bytes: `size` bytes of `fill` (generated files vary in name, type and size, not content);
 * past a megabyte, zeros streamed from a sparse file (an upload at a plan's limit is 180 MB, 8.4).
 */
async function blobOf(file: NonNullable<FormPart['file']>, temporary: ZeroFile[]): Promise<Blob> {
  if (file.size <= IN_MEMORY_FILE_BYTES)
    return new Blob([new Uint8Array(file.size).fill(file.fill)], { type: file.type });
  const zeros = await zeroFile(file.size, file.type);
  temporary.push(zeros);
  return zeros.blob;
}

/** The request of a case, and the temporary files its uploads are read from (removed once it is answered). */
export async function requestOf(
  c: GeneratedCase,
): Promise<{ request: RequestOptions & { path: Record<string, string> }; temporary: ZeroFile[] }> {
  // A generated request is judged as it is: a 429 or 503 is still waited out (7.1), never judged.
  const opts: RequestOptions & { path: Record<string, string> } = { path: c.path, auth: c.auth, headers: c.headers };
  const temporary: ZeroFile[] = [];
  if (Object.keys(c.query).length) opts.query = c.query;
  const body = c.body;
  if (body?.kind === 'json') opts.json = body.value;
  else if (body?.kind === 'raw') opts.raw = { body: body.text, contentType: body.contentType };
  else if (body?.kind === 'form') {
    const form = new FormData();
    for (const p of body.parts) {
      if (p.file) form.append(p.name, await blobOf(p.file, temporary), p.file.filename);
      else form.append(p.name, p.value ?? '');
    }
    opts.form = form;
  }
  return { request: opts, temporary };
}

/** Sends a case; an error (no answer after the retries of 7.1) carries the case, so that it can be shrunk. */
export async function sendCase(api: Api, c: GeneratedCase, inputClasses?: string[]): Promise<Exchange> {
  const { request, temporary } = await requestOf(c);
  try {
    return await api.callData(c.operationId, { ...request, ...(inputClasses && { inputClasses }) });
  } catch (err) {
    if (err instanceof Error && err.name !== 'GuardRefusal') Object.assign(err, { generated: c });
    throw err;
  } finally {
    await Promise.all(temporary.map((t) => t.remove()));
  }
}

/** The exchange a case that got no answer would have recorded (status 0): for a failure's replay bundle. */
export async function unansweredCase(
  api: Api,
  c: GeneratedCase,
  reason: string,
  inputClasses?: string[],
): Promise<Exchange> {
  const { request, temporary } = await requestOf(c);
  await Promise.all(temporary.map((t) => t.remove()));
  return api.unanswered(c.operationId, { ...request, ...(inputClasses && { inputClasses }) }, reason);
}
