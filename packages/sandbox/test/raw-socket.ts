// Raw TCP conversations with the sandbox: what a misbehaving client sends, and everything that comes back
// until the server closes the connection (or the test's own bound passes).
import net from 'node:net';

export interface RawResult {
  /** Everything received, latin1. */
  text: string;
  /** The server closed (or reset) the connection before the bound. */
  closed: boolean;
  /** ms from connect to close (or to the bound). */
  ms: number;
}

export { WAIT_MS } from './helpers.js';

/**
 * Connect, write `first`, then `more` chunks every `everyMs` (a trickle), and read until the server
 * closes, `until` holds for what was received (`untilAnswer`: one complete answer), or `boundMs`
 * passes. Never hangs: the bound always ends it.
 */
export function converse(
  port: number,
  first: string,
  opts: {
    boundMs: number;
    more?: string[];
    everyMs?: number;
    untilAnswer?: boolean;
    until?: (text: string) => boolean;
  },
): Promise<RawResult> {
  return new Promise((resolve) => {
    const start = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let finished = false;
    const finish = (closed: boolean) => {
      if (finished) return;
      finished = true;
      clearTimeout(bound);
      clearInterval(trickle);
      socket.destroy();
      resolve({ text, closed, ms: Date.now() - start });
    };
    const bound = setTimeout(() => finish(false), opts.boundMs);
    let trickle: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      socket.write(first);
      const more = [...(opts.more ?? [])];
      if (more.length)
        trickle = setInterval(
          () => (more.length ? socket.write(more.shift()!) : clearInterval(trickle)),
          opts.everyMs ?? 100,
        );
    });
    socket.on('data', (d) => {
      text += d.toString('latin1');
      if ((opts.untilAnswer && complete(text)) || opts.until?.(text)) finish(false);
    });
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
  });
}

/** Whether `text` holds one complete answer (head and a Content-Length body). */
export function complete(text: string): boolean {
  const end = text.indexOf('\r\n\r\n');
  const m = /\r\ncontent-length: (\d+)\r\n/i.exec(text);
  return end >= 0 && !!m && text.length >= end + 4 + Number(m[1]);
}

/** The last full answer in `text` (after any 100 Continue): status, head and JSON body. */
export function lastAnswer(text: string): { status: number; head: string; body: any } {
  const starts = [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].filter((m) => m[1] !== '100');
  if (!starts.length) return { status: 0, head: '', body: undefined };
  const rest = text.slice(starts[starts.length - 1].index);
  const end = rest.indexOf('\r\n\r\n');
  const head = rest.slice(0, end);
  let body: any;
  try {
    body = JSON.parse(rest.slice(end + 4));
  } catch {
    body = rest.slice(end + 4);
  }
  return { status: Number(starts[starts.length - 1][1]), head, body };
}
