// The promise every method returns (the shape of openai-node's APIPromise): awaited, it gives the
// parsed data; `.withResponse()` gives the data and the raw Response (headers of a success: rate-limit
// headers, a request id); `.asResponse()` gives the Response alone, its body not read. Every Response
// handed out is one the service sent; what the client knows beyond it is a typed field (`recovered`).
import type { Recovered } from './transport.js';

export interface WithResponse<T> {
  data: T;
  /** The answer the data came from (for a call made of several requests: the last one). */
  response: Response;
  /**
   * A create whose earlier attempt made the video without saying so (its answer was lost, or a 5xx):
   * the data is that video, found in the list (`response` is the list page that showed it); nothing was sent again.
   */
  recovered?: Recovered;
}

export class APIPromise<T> extends Promise<T> {
  #parsed?: Promise<T>;
  readonly #response: Promise<Response>;
  readonly #parse: (response: Response) => Promise<T>;
  readonly #recovered: Promise<Recovered | undefined> | undefined;

  /**
   * `response` resolves with the answer once it is known to be a success (errors reject it);
   * `parse` reads the data from it, only when the data is asked for; `recovered` says when the data
   * came from a recovery instead (see WithResponse).
   */
  constructor(
    response: Promise<Response>,
    parse: (response: Response) => Promise<T>,
    recovered?: Promise<Recovered | undefined>,
  ) {
    // No-op executor: the data is parsed when `then` is called, not before (asResponse leaves the body unread).
    super((resolve) => resolve(undefined as T));
    this.#response = response;
    this.#parse = parse;
    this.#recovered = recovered;
  }

  /** A call made of several steps (waitForVideo, download): its data and last response, already known. */
  static from<T>(result: Promise<WithResponse<T>>): APIPromise<T> {
    const response = result.then((r) => r.response);
    // Marked handled: a failure reaches whoever awaits the data; asResponse() still rejects with it.
    const recovered = result.then((r) => r.recovered);
    for (const p of [response, recovered]) p.catch(() => {});
    return new APIPromise(response, () => result.then((r) => r.data), recovered);
  }

  // Promise's own methods (then, catch, finally) build plain promises, not APIPromises.
  static override get [Symbol.species]() {
    return Promise;
  }

  /** The raw Response; its body is not read (for calls made of several steps, the last answer, read). */
  asResponse(): Promise<Response> {
    return this.#response;
  }

  /** The data and the raw Response it came from. */
  async withResponse(): Promise<WithResponse<T>> {
    const [data, response, recovered] = await Promise.all([this.#data(), this.#response, this.#recovered]);
    return recovered ? { data, response, recovered } : { data, response };
  }

  #data(): Promise<T> {
    return (this.#parsed ??= this.#response.then(this.#parse));
  }

  // biome-ignore lint/suspicious/noThenProperty: an APIPromise is a Promise (awaited for the data), as openai-node's is
  override then<A = T, B = never>(
    onfulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    // biome-ignore lint/suspicious/noExplicitAny: Promise's own signature (lib.es5.d.ts): a caller's .catch((e) => e.status) compiles as on any promise
    onrejected?: ((reason: any) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#data().then(onfulfilled, onrejected);
  }
  // biome-ignore lint/suspicious/noExplicitAny: Promise's own signature (lib.es5.d.ts): a caller's .catch((e) => e.status) compiles as on any promise
  override catch<B = never>(onrejected?: ((reason: any) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.#data().catch(onrejected);
  }
  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#data().finally(onfinally);
  }
}
