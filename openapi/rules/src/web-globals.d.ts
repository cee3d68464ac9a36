// The few web-standard globals the rules use. Every runtime we support (Node, Bun, Deno, Workers,
// browsers) has them; declaring them here keeps Node's and the DOM's other globals out of reach.
declare function setTimeout(callback: () => void, ms: number): unknown;
declare function clearTimeout(timer: unknown): void;
interface AbortSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  throwIfAborted(): void;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}
declare var AbortSignal: { any(signals: AbortSignal[]): AbortSignal };
declare class AbortController {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
}
// The streams of fetch bodies (body.ts): only what a reader of a body and a wrapper of one need.
type ReadableStreamReadResult<T> = { done: false; value: T } | { done: true; value?: undefined };
interface ReadableStreamDefaultReader<T> {
  read(): Promise<ReadableStreamReadResult<T>>;
  cancel(reason?: unknown): Promise<void>;
  releaseLock(): void;
}
interface ReadableStreamDefaultController<T> {
  enqueue(chunk: T): void;
  close(): void;
  error(reason?: unknown): void;
}
interface UnderlyingDefaultSource<T> {
  start?(controller: ReadableStreamDefaultController<T>): void;
  pull?(controller: ReadableStreamDefaultController<T>): void | Promise<void>;
  cancel?(reason?: unknown): void | Promise<void>;
}
declare class ReadableStream<T> {
  constructor(source: UnderlyingDefaultSource<T>, strategy?: { highWaterMark?: number });
  getReader(): ReadableStreamDefaultReader<T>;
  cancel(reason?: unknown): Promise<void>;
}
// URL parsing (hosts.ts): the parts a host check reads.
declare class URL {
  constructor(url: string, base?: string);
  readonly protocol: string;
  readonly username: string;
  readonly password: string;
  readonly host: string;
  readonly hostname: string;
  readonly pathname: string;
  readonly search: string;
  readonly hash: string;
}
