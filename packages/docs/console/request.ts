// A console request: built from what the reader filled in, sent with fetch, and shown as curl. The curl
// text comes from Scalar's snippet generator (@scalar/snippetz, the one its own API client uses), fed the
// request as HAR, so quoting, --form parts and files are its well-tested work, not ours.
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
  status: number;
  statusText: string;
  headers: [string, string][];
  text: string;
  json?: unknown;
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

/** Sends the request; a network failure (or a cross-origin target without CORS) rejects with a TypeError. */
export async function send(request: BuiltRequest, signal?: AbortSignal): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal,
    // The key is in a header, never a cookie: send none.
    credentials: 'omit',
    redirect: 'follow',
  });
  const text = await res.text();
  const ms = Math.round(performance.now() - started);
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, statusText: res.statusText, headers: [...res.headers], text, json, ms };
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
