// The one adapter from a generated case (data) to the engine's Api.callData(operationId, request): the
// operation's method and path template come from the document; the engine encodes the path parameters.
import type { Api } from '../engine/http.ts';
import type { Exchange, RequestOptions } from '../shapes.ts';
import type { FormPart, GeneratedCase } from './cases.ts';

/** A file part's bytes: `size` bytes of `fill` (generated files vary in name, type and size, not content). */
function blobOf(file: NonNullable<FormPart['file']>): Blob {
  return new Blob([new Uint8Array(file.size).fill(file.fill)], { type: file.type });
}

export function requestOf(c: GeneratedCase): RequestOptions & { path: Record<string, string> } {
  // A generated request is judged as it is: a 429 or 503 is still waited out (7.1), never judged.
  const opts: RequestOptions & { path: Record<string, string> } = { path: c.path, auth: c.auth, headers: c.headers };
  if (Object.keys(c.query).length) opts.query = c.query;
  const body = c.body;
  if (body?.kind === 'json') opts.json = body.value;
  else if (body?.kind === 'raw') opts.raw = { body: body.text, contentType: body.contentType };
  else if (body?.kind === 'form') {
    const form = new FormData();
    for (const p of body.parts) {
      if (p.file) form.append(p.name, blobOf(p.file), p.file.filename);
      else form.append(p.name, p.value ?? '');
    }
    opts.form = form;
  }
  return opts;
}

/** Sends a case; an error (no answer after the retries of 7.1) carries the case, so that it can be shrunk. */
export async function sendCase(api: Api, c: GeneratedCase): Promise<Exchange> {
  try {
    return await api.callData(c.operationId, requestOf(c));
  } catch (err) {
    if (err instanceof Error && err.name !== 'GuardRefusal') Object.assign(err, { generated: c });
    throw err;
  }
}
