// The promise every method returns (the shape of openai-node's APIPromise): awaited, it gives the
// parsed data; `.withResponse()` gives the data and the raw Response (headers of a success: rate-limit
// headers, a request id); `.asResponse()` gives the Response alone, its body not read.

export interface WithResponse<T> {
  data: T;
  /** The answer the data came from (for a call made of several requests: the last one). */
  response: Response;
}

export class APIPromise<T> extends Promise<T> {
  #parsed?: Promise<T>;
  readonly #response: Promise<Response>;
  readonly #parse: (response: Response) => Promise<T>;

  /**
   * `response` resolves with the answer once it is known to be a success (errors reject it);
   * `parse` reads the data from it, only when the data is asked for.
   */
  constructor(response: Promise<Response>, parse: (response: Response) => Promise<T>) {
    // No-op executor: the data is parsed when `then` is called, not before (asResponse leaves the body unread).
    super((resolve) => resolve(undefined as T));
    this.#response = response;
    this.#parse = parse;
  }

  /** A call made of several steps (waitForVideo, download): its data and last response, already known. */
  static from<T>(result: Promise<WithResponse<T>>): APIPromise<T> {
    const response = result.then((r) => r.response);
    // Marked handled: a failure reaches whoever awaits the data; asResponse() still rejects with it.
    response.catch(() => {});
    return new APIPromise(response, () => result.then((r) => r.data));
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
    const [data, response] = await Promise.all([this.#data(), this.#response]);
    return { data, response };
  }

  #data(): Promise<T> {
    return (this.#parsed ??= this.#response.then(this.#parse));
  }

  // biome-ignore lint/suspicious/noThenProperty: an APIPromise is a Promise (awaited for the data), as openai-node's is
  override then<A = T, B = never>(
    onfulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: any) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#data().then(onfulfilled, onrejected);
  }
  override catch<B = never>(onrejected?: ((reason: any) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.#data().catch(onrejected);
  }
  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#data().finally(onfinally);
  }
}
