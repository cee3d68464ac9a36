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
