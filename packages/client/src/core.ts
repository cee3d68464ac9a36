// What every resource calls: `get`/`post` against the API. It adds the base URL, the key and the
// call's headers, sends through the transport, turns an error answer into its typed error (with the
// key redacted), and returns an APIPromise whose data is the JSON object of the answer (or, for a
// create the transport recovered, the video it found).
import { Redactor } from '@videogen/openapi/rules';
import { APIPromise } from './api-promise.js';
import { UnexpectedResponseError, VideoApiError } from './errors.js';
import type { Outgoing, RequestOptions, Send, SendOptions, Sent } from './transport.js';

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
  /** The error of an error answer, body read and the key redacted (`sent`: what the transport knows beyond it). */
  errorOf(res: Response, sent?: Omit<Sent, 'response'>): Promise<VideoApiError>;
  now(): number;
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
  const json = async (res: Response): Promise<any> => {
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

  /** The data of a success through `check`; its error's message redacted, should the body have echoed the key. */
  const checked = <T>(data: unknown, check?: (data: unknown) => T): T => {
    if (!check) return data as T;
    try {
      return check(data);
    } catch (e) {
      // (Only the message: the stack's file names are not the server's words.)
      const clean = e instanceof Error ? redactor.text(e.message) : undefined;
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
      new APIPromise<T>(
        answer({ method: 'GET', url: baseUrl + path, headers: headers(so.headers) }, so).then((s) => s.response),
        async (res) => checked(await json(res), check),
      ),
    post: <T>(
      path: string,
      { type, ...body }: Pick<Outgoing, 'body' | 'upload' | 'redirect'> & { type: string },
      so: SendOptions = {},
      check?: (data: unknown) => T,
    ) => {
      const sent = answer({ method: 'POST', url: baseUrl + path, headers: headers(so.headers, type), ...body }, so);
      const recovered = sent.then((s) => s.recovered);
      recovered.catch(() => {});
      return new APIPromise<T>(
        sent.then((s) => s.response),
        async (res) => {
          // A recovered create's data is the video found; its response is the list page that showed it.
          const data = (await recovered)?.created ?? (await json(res));
          return checked(data, check);
        },
        recovered,
      );
    },
  };
}
