// What every resource calls: `get`/`post` of one of the document's paths, typed through `paths` the way
// openapi-fetch types its calls (`core.get('/videos/{video_id}/', { path: { video_id } })`). It checks
// and fills in the path parameters, adds the base URL, the key and the call's headers, sends through
// the transport, turns an error answer into its typed error (with the key redacted), and returns an
// APIPromise whose data is the operation's success as the document types it, once `answers.ts` has
// checked what the client relies on (or, for a create the transport recovered, the video it found).
import { OPERATIONS, Redactor } from '@videogen/openapi/rules';
import type {
  OperationId,
  OperationIdOf,
  PathParams,
  paths,
  QueryParams,
  RequestBody,
  RequestContentType,
} from '@videogen/openapi/types';
import { APIPromise } from './api-promise.js';
import { ANSWERS, type Answer } from './answers.js';
import { UnexpectedResponseError, VideoApiError } from './errors.js';
import { checkPathParameter } from './path-parameters.js';
import type { Outgoing, RequestOptions, Send, SendOptions, Sent } from './transport.js';

/** The document's paths that have an operation for the method. */
export type PathsWith<M extends 'get' | 'post'> = {
  [P in keyof paths]: paths[P] extends Record<M, object> ? P : never;
}[keyof paths];

/** A call's parameters, as openapi-fetch takes them: `{ path: { video_id } }`, `{ query: { page } }`. */
export type Params<Id extends OperationId> = (keyof PathParams<Id> extends never
  ? { path?: undefined }
  : { path: PathParams<Id> }) &
  (keyof QueryParams<Id> extends never ? { query?: undefined } : { query?: QueryParams<Id> });

/** A multipart body already encoded (uploads.ts `multipart`): its content type and a fresh stream per attempt. */
export interface EncodedForm {
  type: string;
  upload: NonNullable<Outgoing['upload']>;
  redirect?: RequestRedirect;
}

/** A call's body, as the operation's media type takes it: JSON as the document types it, or an encoded form. */
export type Body<Id extends OperationId> =
  'application/json' extends RequestContentType<Id>
    ? { json: RequestBody<Id, 'application/json'> }
    : 'multipart/form-data' extends RequestContentType<Id>
      ? { form: EncodedForm }
      : { json?: undefined; form?: undefined };

export interface Core {
  readonly baseUrl: string;
  get<P extends PathsWith<'get'>>(
    path: P,
    params: Params<OperationIdOf<'get', P>>,
    o?: SendOptions,
  ): APIPromise<Answer<OperationIdOf<'get', P>>>;
  post<P extends PathsWith<'post'>>(
    path: P,
    params: Params<OperationIdOf<'post', P>> & Body<OperationIdOf<'post', P>>,
    o?: SendOptions,
  ): APIPromise<Answer<OperationIdOf<'post', P>>>;
  /** The transport itself (downloads, client.api). */
  send: Send;
  /** The error of an error answer, body read and the key redacted (`sent`: what the transport knows beyond it). */
  errorOf(res: Response, sent?: Omit<Sent, 'response'>): Promise<VideoApiError>;
  now(): number;
}

/** What core's implementation sees of any call (the interface above types each one). */
interface AnyCall {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  json?: unknown;
  form?: EncodedForm;
}

/** The operation a method and path template serve (the generated table: one of the document's). */
function operationOf(method: 'GET' | 'POST', template: string): OperationId {
  const op = OPERATIONS.find((o) => o.method === method && o.path === template);
  if (!op) throw new TypeError(`${method} ${template} is not an operation of the document`);
  return op.operationId;
}

/** The path template filled in: each parameter checked as the document types it (nothing sent otherwise), then encoded. */
function fillPath(template: string, params: Record<string, unknown> = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    checkPathParameter(name, params[name]);
    return encodeURIComponent(params[name] as string);
  });
}

function queryString(query: Record<string, unknown> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

export function createCore(o: { baseUrl: string; key: string; send: Send; now: () => number }): Core {
  const { baseUrl, key, send } = o;
  const auth = `Bearer ${key}`;
  const redactor = new Redactor([key]);

  const headers = (extra: RequestOptions['headers'], type?: string): Record<string, string> => {
    const h: Record<string, string> = { Authorization: auth };
    if (type) h['Content-Type'] = type;
    return extra ? { ...h, ...extra } : h;
  };

  const errorOf = async (res: Response, sent: Omit<Sent, 'response'> = {}): Promise<VideoApiError> => {
    const text = await res.text().catch(() => '');
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON (an HTML error page of a gateway): the text is the description.
    }
    // Redacted before the error exists, so that neither its message nor its stack holds the key.
    return VideoApiError.generate(
      res.status,
      redactor.value(body),
      res.headers,
      o.now(),
      sent.notResent ? { notResent: true } : {},
    );
  };

  /** Resolves with a success (or a recovered create); an error answer rejects with its typed error. */
  const answer = async (out: Outgoing, so: SendOptions): Promise<Sent> => {
    const sent = await send(out, so);
    if (!sent.response.ok && !sent.recovered) throw await errorOf(sent.response, sent);
    return sent;
  };

  /** The JSON object of a success answer (an HTML page or a bare value is not what the spec promises). */
  const json = async (res: Response): Promise<object> => {
    const where = () => `${res.status} from ${new URL(res.url || baseUrl).pathname}`;
    let data: unknown;
    try {
      data = await res.json();
    } catch (e) {
      throw new UnexpectedResponseError(
        `${where()}: the body is not JSON: ${redactor.text(String((e as Error).message))}`,
        { status: res.status, headers: res.headers },
      );
    }
    if (data === null || typeof data !== 'object')
      throw new UnexpectedResponseError(`${where()}: the body is not a JSON object`, {
        status: res.status,
        headers: res.headers,
      });
    return data;
  };

  /** The data of a success, through the operation's answer check; its error's message redacted, should the body have echoed the key. */
  const checked = <Id extends OperationId>(id: Id, data: object, call: AnyCall): Answer<Id> => {
    try {
      // The table's entry for this operation (TypeScript cannot follow an id chosen at run time to its entry).
      return (ANSWERS[id] as (data: object, call: AnyCall) => Answer<Id>)(data, call);
    } catch (e) {
      // (Only the message: the stack's file names are not the server's words.)
      if (e instanceof Error) {
        const clean = redactor.text(e.message);
        if (clean !== e.message) {
          if (e.stack) e.stack = e.stack.replace(e.message, clean);
          e.message = clean;
        }
      }
      throw e;
    }
  };

  /** One call of an operation; a parameter that cannot be sent rejects it before anything is sent. */
  const call = <Id extends OperationId>(method: 'GET' | 'POST', template: string, c: AnyCall, so: SendOptions) => {
    const id = operationOf(method, template) as Id;
    let out: Outgoing;
    try {
      out = { method, url: baseUrl + fillPath(template, c.path) + queryString(c.query), headers: {} };
    } catch (e) {
      return APIPromise.from<Answer<Id>>(Promise.reject(e));
    }
    if (c.form) {
      const { type, ...body } = c.form;
      Object.assign(out, { headers: headers(so.headers, type), ...body });
    } else if (c.json !== undefined) {
      Object.assign(out, { headers: headers(so.headers, 'application/json'), body: JSON.stringify(c.json) });
    } else out.headers = headers(so.headers);
    const sent = answer(out, so);
    if (method === 'GET')
      return new APIPromise<Answer<Id>>(
        sent.then((s) => s.response),
        async (res) => checked(id, await json(res), c),
      );
    const recovered = sent.then((s) => s.recovered);
    recovered.catch(() => {});
    return new APIPromise<Answer<Id>>(
      sent.then((s) => s.response),
      // A recovered create's data is the video found; its response is the list page that showed it.
      async (res) => checked(id, (await recovered)?.created ?? (await json(res)), c),
      recovered,
    );
  };

  return {
    baseUrl,
    send,
    errorOf,
    now: o.now,
    get: (path, params, so = {}) => call('GET', path, params as AnyCall, so),
    post: (path, params, so = {}) => call('POST', path, params as AnyCall, so),
  };
}
