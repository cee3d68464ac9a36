// The one adapter from a generated case (data) to today's Api.request(method, path, opts): the
// operation's method and path template come from the document; the path parameters are encoded into it.
import type { Api } from '../engine/http.ts';
import type { Contract } from '../engine/contract.ts';
import type { Exchange, RequestOptions } from '../shapes.ts';
import type { FormPart, GeneratedCase } from './cases.ts';

/** A file part's bytes: `size` bytes of `fill` (generated files vary in name, type and size, not content). */
function blobOf(file: NonNullable<FormPart['file']>): Blob {
  return new Blob([new Uint8Array(file.size).fill(file.fill)], { type: file.type });
}

export function requestOf(
  contract: Contract,
  c: GeneratedCase,
): { method: string; path: string; opts: RequestOptions } {
  const op = contract.operation(c.operationId);
  if (!op) throw new Error(`no operation ${c.operationId} in the document`);
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(c.path[name] ?? ''));
  // A generated request is judged as it is: a 429 or 503 is still waited out (7.1), never judged.
  const opts: RequestOptions = { auth: c.auth, headers: c.headers };
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
  return { method: op.method, path, opts };
}

/** Sends a case; an error (no answer after the retries of 7.1) carries the case, so that it can be shrunk. */
export async function sendCase(api: Api, contract: Contract, c: GeneratedCase): Promise<Exchange> {
  const { method, path, opts } = requestOf(contract, c);
  try {
    return await api.request(method, path, opts);
  } catch (err) {
    if (err instanceof Error && err.name !== 'GuardRefusal') Object.assign(err, { generated: c });
    throw err;
  }
}
