// Recorded traffic as calibration reads it (`calibrate --from FILE…`): a HAR 1.2 file (the pacing
// proxy's `--har`, a browser's or mitmproxy's export; validated against the HAR schema), a failure
// bundle of the suite (`test-results/failures/*.json`), or a JSON-lines log. A day of production
// traffic seen through the proxy refines the fit at no cost: its timings give latencies, its polls give
// durations, its answers give statuses, codes, headers and bodies. Keys in a recording are never kept:
// a `Bearer` value is registered as a secret (redacted from everything written) and read as a key only.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Entry, Har } from 'har-format';
import { matchOperation, type OpenApiDocument } from '@videogen/openapi';
import { readTraffic, validateHar } from '../commands/har.ts';
import { registerSecret } from '../engine/redact.ts';
import type { FailureBundle } from '../report/failures.ts';
import { authOf, queryOf, type Seen, type SeenForm } from './seen.ts';

/** The operation of a recorded URL, and the base URL it was sent to (the part before the operation's path). */
function locate(spec: OpenApiDocument, method: string, url: string) {
  const u = new URL(url);
  const segments = u.pathname.split('/');
  for (let i = 0; i < segments.length; i++) {
    const rest = `/${segments.slice(i + 1).join('/')}`;
    const op = matchOperation(spec, method, rest);
    if (op) return { op, baseUrl: `${u.origin}${segments.slice(0, i + 1).join('/')}`, path: rest + u.search };
  }
  return undefined;
}

const lower = (pairs: Array<{ name: string; value: string }>) =>
  Object.fromEntries(pairs.map((h) => [h.name.toLowerCase(), h.value]));

/** A multipart body's fields as a HAR records them (`params`), or parsed from its text. */
async function formOf(entry: Entry): Promise<SeenForm | undefined> {
  const post = entry.request.postData;
  if (!post || !/multipart\/form-data/i.test(post.mimeType)) return undefined;
  const form: SeenForm = { fields: [], files: [], counts: {} };
  const add = (name: string, value?: string, file?: { name: string; size: number }) => {
    form.counts[name] = (form.counts[name] ?? 0) + 1;
    if (name === 'video_setting_id') form.setting = value;
    else if (!form.fields.includes(name)) form.fields.push(name);
    if (name === 'text') form.text = value;
    if (file) form.files.push({ field: name, ...file });
  };
  if (post.params?.length) {
    for (const p of post.params)
      add(
        p.name,
        p.fileName ? undefined : p.value,
        p.fileName ? { name: p.fileName, size: p.value?.length ?? 0 } : undefined,
      );
    return form;
  }
  if (!post.text) return undefined;
  try {
    const data = await new Request('http://recorded.invalid/', {
      method: 'POST',
      headers: { 'content-type': post.mimeType },
      body: post.text,
    }).formData();
    for (const [name, v] of data.entries())
      typeof v === 'string' ? add(name, v) : add(name, undefined, { name: v.name, size: v.size });
    return form;
  } catch {
    return undefined;
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function fromHar(file: string, har: Har, spec: OpenApiDocument, baseUrl?: string): Promise<Seen[]> {
  const out: Seen[] = [];
  for (const e of har.log.entries) {
    const found = locate(spec, e.request.method, e.request.url);
    const base = baseUrl && e.request.url.startsWith(baseUrl) ? baseUrl : found?.baseUrl;
    const requestHeaders = lower(e.request.headers);
    const authorization = requestHeaders.authorization;
    const token = authorization ? /^Bearer +(\S+)/i.exec(authorization)?.[1] : undefined;
    if (token && !token.startsWith('[redacted')) registerSecret(token);
    // A recorded key is the account's unless the answer refused it.
    const refused = e.response.status === 401 || e.response.status === 403;
    const auth = authOf(authorization, () => !refused);
    const c = e.response.content;
    const text =
      c.text === undefined ? '' : c.encoding === 'base64' ? Buffer.from(c.text, 'base64').toString('utf8') : c.text;
    const t = e.timings;
    // The target's time: sending, waiting and receiving, not the time a pacing proxy held the request.
    const ms = [t.send ?? -1, t.wait, t.receive].filter((x) => x >= 0).reduce((a, b) => a + b, 0) || e.time;
    const post = e.request.postData;
    out.push({
      source: basename(file),
      method: e.request.method,
      url: e.request.url,
      path: base && e.request.url.startsWith(base) ? e.request.url.slice(base.length) : e.request.url,
      ...(found && { operationId: found.op.operationId }),
      params: found?.op.pathParams ?? {},
      query: queryOf(e.request.url),
      auth,
      requestHeaders: Object.fromEntries(
        Object.entries(requestHeaders).filter(([k]) => k === 'accept-encoding' || k === 'accept'),
      ),
      ...(found?.op.operationId === 'generateVideo' && { form: await formOf(e) }),
      ...(post && !/multipart/i.test(post.mimeType) && post.text !== undefined
        ? parse(post.text) !== undefined
          ? { json: parse(post.text) }
          : { raw: post.text }
        : {}),
      status: e.response.status,
      headers: lower(e.response.headers),
      text,
      body: /json/i.test(c.mimeType ?? '') || /^\s*[{[]/.test(text) ? parse(text) : undefined,
      at: Date.parse(e.startedDateTime),
      ms,
      ...(e.comment && { scenario: e.comment }),
    });
  }
  return out;
}

function fromBundle(file: string, bundle: FailureBundle, spec: OpenApiDocument): Seen[] {
  return bundle.exchanges.map((x) => {
    const url = bundle.target.baseUrl + x.request.path;
    const found = locate(spec, x.request.method, url);
    const auth =
      x.request.auth === 'key'
        ? 'key'
        : x.request.auth === 'none'
          ? 'none'
          : authOf(x.request.auth.header, () => false);
    return {
      source: basename(file),
      method: x.request.method,
      url,
      path: x.request.path,
      ...(x.operationId && { operationId: x.operationId }),
      params: x.request.pathParams ?? found?.op.pathParams ?? {},
      query: queryOf(url),
      auth,
      requestHeaders: {},
      ...(x.request.form && {
        form: {
          fields: [...new Set(x.request.form.map((p) => p.name).filter((n) => n !== 'video_setting_id'))],
          setting: x.request.form.find((p) => p.name === 'video_setting_id')?.value,
          text: x.request.form.find((p) => p.name === 'text')?.value,
          files: x.request.form.flatMap((p) =>
            p.file ? [{ field: p.name, name: p.file.filename, size: p.file.size }] : [],
          ),
          counts: x.request.form.reduce<Record<string, number>>(
            (c, p) => ({ ...c, [p.name]: (c[p.name] ?? 0) + 1 }),
            {},
          ),
        },
      }),
      ...(x.request.json !== undefined && { json: x.request.json }),
      ...(x.request.raw && { raw: x.request.raw.body }),
      status: x.response.status,
      headers: Object.fromEntries(Object.entries(x.response.headers).map(([k, v]) => [k.toLowerCase(), v])),
      text: x.response.body,
      body: parse(x.response.body),
      // A bundle keeps no timing: its answers count for what they say, never for how long they took.
      at: Date.parse(bundle.recordedAt) || 0,
      ms: 0,
      scenario: bundle.check,
    };
  });
}

/** The exchanges of a recording, whatever its form; `baseUrl` (the target's) names the paths when given. */
export async function readRecorded(file: string, spec: OpenApiDocument, baseUrl?: string): Promise<Seen[]> {
  const doc = parse(readFileSync(file, 'utf8'));
  if (doc && typeof doc === 'object' && 'log' in doc) {
    const problems = validateHar(doc);
    if (problems.length) throw new Error(`${file} is not a valid HAR 1.2 file: ${problems.join('; ')}`);
    return fromHar(file, doc as Har, spec, baseUrl);
  }
  if (doc && typeof doc === 'object' && (doc as { format?: unknown }).format === 'videogen-contract-failure/1')
    return fromBundle(file, doc as FailureBundle, spec);
  // JSON lines: no timing, no request body; answers count for what they say.
  const { exchanges } = readTraffic(file);
  return exchanges.map((x) => {
    const found = locate(spec, x.method, new URL(x.url, baseUrl ?? 'http://recorded.invalid').href);
    const url = new URL(x.url, baseUrl ?? 'http://recorded.invalid').href;
    return {
      source: basename(file),
      method: x.method,
      url,
      path: found?.path ?? x.url,
      ...(found && { operationId: found.op.operationId }),
      params: found?.op.pathParams ?? {},
      query: queryOf(url),
      auth: authOf(x.requestHeaders?.authorization, () => x.status !== 401 && x.status !== 403),
      requestHeaders: {},
      status: x.status,
      headers: x.headers,
      text: x.text,
      body: parse(x.text),
      at: 0,
      ms: 0,
    };
  });
}

/** The base URL most of a recording's API requests were sent to. */
export function baseUrlOf(seen: Seen[], spec: OpenApiDocument): string | undefined {
  const counts = new Map<string, number>();
  for (const s of seen) {
    const found = locate(spec, s.method, s.url);
    if (found) counts.set(found.baseUrl, (counts.get(found.baseUrl) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}
