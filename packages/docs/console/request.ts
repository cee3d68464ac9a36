// A console request: built from what the reader filled in, sent with fetch, and shown as curl. The curl
// text comes from Scalar's snippet generator (@scalar/snippetz, the one its own API client uses), fed the
// request as HAR, so quoting, --form parts and files are its well-tested work, not ours.
// An answer's body is read as the client reads one: within the toolkit's transport limits (BODY_LIMITS of
// the rules: a size cap, a stall window and a deadline), so that no answer can hold or fill the tab.
import { BODY_LIMITS, declaredTooLarge, joinChunks, limitBody } from '@videogen/openapi/rules';
import { shellCurl } from '@scalar/snippetz/plugins/shell/curl';
import type { FormDataParam, HarRequest } from '@scalar/snippetz';
import type { Operation } from './spec.ts';
import type { Target } from './target.ts';

export interface FormPart {
  name: string;
  value: string | File;
}

export interface RequestInput {
  /** Path and query parameters by name; an empty query value is left out. */
  params: Record<string, string>;
  /** The JSON body's text, sent as typed (so that a reader can send a broken one on purpose). */
  json?: string;
  /** The multipart parts, in order (repeated names for image_files). */
  form?: FormPart[];
}

export interface BuiltRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | FormData;
  /** The same request as a HAR entry's request, for the snippet generator. */
  har: Partial<HarRequest> & { headers: HarRequest['headers'] };
}

export interface Answer {
  /** The address the request was sent to. */
  url: string;
  status: number;
  statusText: string;
  headers: [string, string][];
  /** The body read (all of it, unless `bodyError`), as bytes and as text. */
  bytes: Uint8Array<ArrayBuffer>;
  text: string;
  /** The body as JSON, when it is JSON. */
  json?: unknown;
  /** Why the body is not read as JSON (empty, not JSON, nested too deeply), when it is not. */
  notJson?: string;
  /** Why the body was not read whole (too large, stalled, too slow): the status and headers still came. */
  bodyError?: string;
  /** The address that gave this answer, when the browser followed a redirect to it. */
  redirectedTo?: string;
  ms: number;
}

/** The URL of an operation with its parameters: path values encoded, empty query values left out. */
export function urlOf(op: Operation, baseUrl: string, params: Record<string, string>): string {
  let path = op.path;
  const query = new URLSearchParams();
  for (const p of op.parameters) {
    const value = (params[p.name] ?? '').trim();
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(value));
    else if (value !== '') query.set(p.name, value);
  }
  const qs = query.toString();
  return `${baseUrl}${path}${qs ? `?${qs}` : ''}`;
}

export function buildRequest(op: Operation, input: RequestInput, target: Target): BuiltRequest {
  const url = urlOf(op, target.baseUrl, input.params);
  const headers: Record<string, string> = { Authorization: `Bearer ${target.key}` };
  const har: BuiltRequest['har'] = {
    method: op.method,
    url,
    headers: [{ name: 'Authorization', value: headers.Authorization }],
  };
  let body: string | FormData | undefined;
  if (op.body === 'application/json') {
    headers['Content-Type'] = 'application/json';
    body = input.json ?? '';
    har.headers.push({ name: 'Content-Type', value: 'application/json' });
    har.postData = { mimeType: 'application/json', text: body };
  } else if (op.body === 'multipart/form-data') {
    const form = new FormData();
    const params: FormDataParam[] = [];
    for (const part of input.form ?? []) {
      if (typeof part.value === 'string') {
        form.append(part.name, part.value);
        params.push({ name: part.name, value: part.value });
      } else {
        form.append(part.name, part.value, part.value.name);
        params.push({ name: part.name, value: part.value.name, fileName: part.value.name });
      }
    }
    body = form;
    har.postData = { mimeType: 'multipart/form-data', params };
  }
  return { method: op.method, url, headers, body, har };
}

/**
 * Sends the request and reads its answer within BODY_LIMITS. A network failure (or a cross-origin target
 * without CORS) rejects with a TypeError, an abort with the signal's reason; every answer that came is
 * resolved, whatever its body: a body over the size cap, stalled or too slow is cut there and said in
 * `bodyError`, a body that is not JSON is kept as text and said in `notJson`.
 */
export async function send(request: BuiltRequest, signal?: AbortSignal): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal,
    // The key is in a header, never a cookie: send none.
    credentials: 'omit',
    // Followed (a manual redirect is opaque to a page: no status, no headers), and said (`redirectedTo`).
    redirect: 'follow',
  });
  const { bytes, bodyError } = await readWithin(res, signal);
  const ms = Math.round(performance.now() - started);
  const text = new TextDecoder().decode(bytes);
  const { json, notJson } = readJson(text);
  return {
    url: request.url,
    status: res.status,
    statusText: res.statusText,
    headers: [...res.headers],
    bytes,
    text,
    json,
    notJson,
    bodyError,
    redirectedTo: res.redirected ? res.url : undefined,
    ms,
  };
}

/** The body within BODY_LIMITS: what arrived before a limit stopped it, and which limit. */
async function readWithin(
  res: Response,
  signal?: AbortSignal,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; bodyError?: string }> {
  const declared = declaredTooLarge(res.headers, BODY_LIMITS.maxBytes);
  if (declared) {
    res.body?.cancel(declared).catch(() => {});
    return { bytes: new Uint8Array(0), bodyError: declared.message };
  }
  if (!res.body) return { bytes: new Uint8Array(0) };
  const limited = limitBody(res.body, {
    idleMs: BODY_LIMITS.idleMs,
    totalMs: BODY_LIMITS.totalMs,
    maxBytes: BODY_LIMITS.maxBytes,
    signal,
  });
  const reader = limited.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
    return { bytes: joinChunks(chunks, size) };
  } catch (error) {
    if (signal?.aborted) throw error;
    return { bytes: joinChunks(chunks, size), bodyError: (error as Error).message };
  }
}

/** The body as JSON, or why not (the interface's answers, errors included, are JSON objects). */
function readJson(text: string): { json?: unknown; notJson?: string } {
  if (text.trim() === '') return { notJson: 'The body is empty.' };
  try {
    return { json: JSON.parse(text) };
  } catch (error) {
    return {
      notJson:
        error instanceof RangeError
          ? 'The body is nested too deeply for this browser to read as JSON: shown as it came.'
          : `The body is not JSON (${(error as Error).message}): shown as it came.`,
    };
  }
}

const KEY_PLACEHOLDER = 'VIDEOGEN_KEY_PLACEHOLDER';

/**
 * The request as a curl command. `showKey` writes the key itself (the sandbox's documented keys);
 * otherwise the command reads it from $VIDEO_API_KEY, so a real key is never on the screen.
 */
export function curlOf(request: BuiltRequest, showKey: boolean): string {
  const har = structuredClone({ ...request.har, headers: request.har.headers });
  for (const h of har.headers) if (h.name === 'Authorization') h.value = `Bearer ${KEY_PLACEHOLDER}`;
  const text = shellCurl.generate(har) ?? '';
  const key = request.headers.Authorization.replace(/^Bearer /, '');
  return showKey
    ? text.replace(KEY_PLACEHOLDER, key.replace(/'/g, `'\\''`))
    : text.replace(`'Authorization: Bearer ${KEY_PLACEHOLDER}'`, '"Authorization: Bearer $VIDEO_API_KEY"');
}
