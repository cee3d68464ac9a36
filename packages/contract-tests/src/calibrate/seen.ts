// One exchange with a target as calibration reads it, whatever it came from: a live run's exchanges
// (engine/http.ts, every request the suite's scenarios and the calibration probes sent) or recorded
// traffic (recorded.ts: the pacing proxy's HAR, the suite's recordings, any HAR 1.2). The behaviours of
// a twin are read from these alone (extract.ts), so that a day of production traffic and a live
// calibration refine one fit. Nothing here holds a key: authentication is named, never kept.
import { UUID_PATTERN, VALID_COMBINATIONS } from '@videogen/openapi/rules';
import type { Exchange } from '../shapes.ts';

/** How a request authenticated: the account's key, none, a header that is not `Bearer <key>`, or a key the target does not know. */
export type SeenAuth = 'key' | 'none' | 'malformed' | 'unknown';

/** What a generation form held: its input fields (video_setting_id apart), the text, the setting, the files. */
export interface SeenForm {
  fields: string[];
  setting?: string;
  text?: string;
  files: Array<{ field: string; name: string; size: number }>;
  /** How many parts each field had (a field twice is a form the target cannot read). */
  counts: Record<string, number>;
}

/** A request calibration sent for a behaviour of its own (the download probes): what it asked. */
export type Probe = 'download' | 'download_with_authorization' | 'download_tampered' | 'encoding' | 'limiter';

export interface Seen {
  /** `live`, or the recording's file name. */
  source: string;
  method: string;
  /** The absolute URL (a download's host may be another origin). */
  url: string;
  /** The path relative to the target's base URL, with the query; the absolute URL for another host. */
  path: string;
  operationId?: string;
  /** The path parameters (`video_id`). */
  params: Record<string, string>;
  query: Record<string, string>;
  auth: SeenAuth;
  /** Request headers that matter to a behaviour (accept-encoding, a probe's authorization: always redacted). */
  requestHeaders: Record<string, string>;
  form?: SeenForm;
  /** The JSON body sent, or a raw body that is not JSON (as text). */
  json?: unknown;
  raw?: string;
  status: number;
  /** Response headers, names lowercased. */
  headers: Record<string, string>;
  /** The body as text (decoded), possibly cut. */
  text: string;
  /** The body parsed when it is JSON. */
  body: unknown;
  /** When the request was sent (epoch ms), and how long its answer took (ms, real). */
  at: number;
  ms: number;
  /** The scenario or probe that sent it (live), or the recording's comment. */
  scenario?: string;
  probe?: Probe;
  /** Answers retried or waited out before this one (7.1). */
  transients?: number;
}

/** Response headers as a record, names lowercased (as Headers gives them). */
const lower = (h: Headers) => Object.fromEntries(h);

/** How an Authorization header authenticates, told from its form: `Bearer <token>` is a key, anything else malformed. */
export function authOf(header: string | undefined, known: (token: string) => boolean): SeenAuth {
  if (header === undefined) return 'none';
  // A recording may hold it redacted (`Bearer [redacted key:…]`, the pacing proxy's form).
  const m = /^Bearer +(\S.*?) *$/i.exec(header);
  if (!m) return 'malformed';
  return known(m[1]) ? 'key' : 'unknown';
}

/** The query of a path or URL as a record (the last value of a repeated name). */
export function queryOf(pathOrUrl: string): Record<string, string> {
  const q = new URL(pathOrUrl, 'http://query.invalid').searchParams;
  return Object.fromEntries(q);
}

/** A live exchange of the suite's engine as calibration reads it. */
export function fromExchange(ex: Exchange, probe?: Probe): Seen {
  const r = ex.request;
  const auth: SeenAuth =
    !r || r.auth === 'key'
      ? 'key'
      : r.auth === 'none'
        ? 'none'
        : /^Bearer +\S+ *$/i.test(r.auth.header)
          ? 'unknown'
          : 'malformed';
  let form: SeenForm | undefined;
  if (r?.form) {
    form = { fields: [], files: [], counts: {} };
    for (const p of r.form) {
      form.counts[p.name] = (form.counts[p.name] ?? 0) + 1;
      if (p.name === 'video_setting_id') form.setting = p.value;
      else if (!form.fields.includes(p.name)) form.fields.push(p.name);
      if (p.name === 'text') form.text = p.value;
      if (p.file) form.files.push({ field: p.name, name: p.file.filename, size: p.file.size });
    }
  }
  const requestHeaders: Record<string, string> = {};
  for (const [k, v] of Object.entries(r?.headers ?? {})) requestHeaders[k.toLowerCase()] = v;
  return {
    source: 'live',
    method: ex.method,
    url: ex.baseUrl + ex.path,
    path: ex.path,
    ...(ex.operationId && { operationId: ex.operationId }),
    params: { ...(r?.pathParams ?? {}) },
    query: queryOf(ex.path),
    auth,
    requestHeaders,
    ...(form && { form }),
    ...(r?.json !== undefined && { json: r.json }),
    ...(r?.raw && { raw: r.raw.body }),
    status: ex.status,
    headers: lower(ex.headers),
    text: ex.text,
    body: ex.body,
    at: ex.at ?? 0,
    ms: ex.ms,
    scenario: ex.scenario,
    ...(probe && { probe }),
    ...(ex.transients && { transients: ex.transients }),
  };
}

/** Whether a text is a UUID (the document's pattern of format: uuid). */
export const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID_PATTERN.test(v);

/**
 * The input mode of a generation form, as the twin keys name it (`text`, `text+pdf_file`): the valid
 * combination its fields are, optional fields aside; undefined when they are none.
 */
export function modeOf(fields: readonly string[]): string | undefined {
  const given = fields.filter((f) => f !== 'video_setting_id');
  const hit = VALID_COMBINATIONS.find(
    ([req, opt]) =>
      (req as readonly string[]).every((f) => given.includes(f)) &&
      given.every((f) => (req as readonly string[]).includes(f) || (opt as readonly string[]).includes(f)),
  );
  return hit ? (hit[0] as readonly string[]).join('+') : undefined;
}

/** The JSON object of a body, or undefined. */
export function objectOf(body: unknown): Record<string, unknown> | undefined {
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
}

/** The error_code of an envelope, when the body is one. */
export function codeOf(s: Seen): string | undefined {
  const code = objectOf(s.body)?.error_code;
  if (typeof code === 'string') return code;
  // A storage host's XML error: <Code>…</Code>.
  const xml = /<Code>([^<]{1,100})<\/Code>/.exec(s.text);
  return xml?.[1];
}

export const isSuccess = (s: Seen) => s.status >= 200 && s.status < 300;

/** The query parameter names that carry a presigned URL's signature (S3's, GCS's, the usual short ones). */
export const SIGNATURE_PARAM = /^(x-amz-signature|x-goog-signature|signature|sig|token|s)$/i;
