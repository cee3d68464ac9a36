// What every resource calls: `get`/`post` against the API. It adds the base URL, the key and the
// call's headers, sends through the transport, turns an error answer into its typed error (with the
// key scrubbed), and returns an APIPromise whose data is the JSON object of the answer.
import { APIPromise } from './api-promise.js';
import { UnexpectedResponseError, VideoApiError } from './errors.js';
import type { Outgoing, RequestOptions, Send, SendOptions } from './transport.js';

export interface Core {
  readonly baseUrl: string;
  /** `check` turns the JSON object of a success into the data, or throws an UnexpectedResponseError. */
  get<T>(path: string, o?: SendOptions, check?: (data: unknown) => T): APIPromise<T>;
  post<T>(
    path: string,
    body: Pick<Outgoing, 'body' | 'upload' | 'redirect'> & { type: string },
    o?: SendOptions,
    check?: (data: unknown) => T,
  ): APIPromise<T>;
  /** The transport itself (downloads, client.api). */
  send: Send;
  /** The error of an error answer, body read and scrubbed of the key. */
  errorOf(res: Response): Promise<VideoApiError>;
  now(): number;
}

export function createCore(o: { baseUrl: string; key: string; send: Send; now: () => number }): Core {
  const { baseUrl, key, send } = o;
  const auth = `Bearer ${key}`;

  const headers = (extra: RequestOptions['headers'], type?: string): Record<string, string> => {
    const h: Record<string, string> = { Authorization: auth };
    if (type) h['Content-Type'] = type;
    return extra ? { ...h, ...extra } : h;
  };

  const errorOf = async (res: Response): Promise<VideoApiError> => {
    const text = await res.text().catch(() => '');
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON (an HTML error page of a gateway): the text is the description.
    }
    // Scrubbed before the error exists, so that neither its message nor its stack holds the key.
    return VideoApiError.generate(res.status, scrub(body, key), res.headers, o.now());
  };

  /** Resolves with a success answer; an error answer rejects with its typed error. */
  const answer = async (out: Outgoing, so: SendOptions): Promise<Response> => {
    const res = await send(out, so);
    if (!res.ok) throw await errorOf(res);
    return res;
  };

  /** The JSON object of a success answer (an HTML page or a bare value is not what the spec promises). */
  const json = async (res: Response): Promise<any> => {
    const where = () => `${res.status} from ${new URL(res.url || baseUrl).pathname}`;
    let data: unknown;
    try {
      data = await res.json();
    } catch (e) {
      throw new UnexpectedResponseError(
        `${where()}: the body is not JSON: ${String((e as Error).message)
          .split(key)
          .join('***')}`,
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

  /** The data of a success through `check`; its error scrubbed of the key, should the body have echoed it. */
  const checked = async <T>(res: Response, check?: (data: unknown) => T): Promise<T> => {
    const data = await json(res);
    if (!check) return data;
    try {
      return check(data);
    } catch (e) {
      // (Only the message: the stack's file names are not the server's words.)
      const clean = e instanceof Error ? e.message.split(key).join('***') : undefined;
      if (e instanceof Error && clean !== e.message) {
        if (e.stack) e.stack = e.stack.replace(e.message, clean!);
        e.message = clean!;
      }
      throw e;
    }
  };

  return {
    baseUrl,
    send,
    errorOf,
    now: o.now,
    get: <T>(path: string, so: SendOptions = {}, check?: (data: unknown) => T) =>
      new APIPromise<T>(answer({ method: 'GET', url: baseUrl + path, headers: headers(so.headers) }, so), (res) =>
        checked(res, check),
      ),
    post: <T>(
      path: string,
      { type, ...body }: Pick<Outgoing, 'body' | 'upload' | 'redirect'> & { type: string },
      so: SendOptions = {},
      check?: (data: unknown) => T,
    ) =>
      new APIPromise<T>(
        answer({ method: 'POST', url: baseUrl + path, headers: headers(so.headers, type), ...body }, so),
        (res) => checked(res, check),
      ),
  };
}

/**
 * A parsed body with every occurrence of the key replaced, in every string (keys and values). It works
 * on the parsed values, not on JSON text, where a key holding `"` or `\` appears escaped.
 */
export function scrub(value: unknown, key: string): unknown {
  if (typeof value === 'string') return value.split(key).join('***');
  if (Array.isArray(value)) return value.map((v) => scrub(v, key));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [scrub(k, key) as string, scrub(v, key)]));
  return value;
}
