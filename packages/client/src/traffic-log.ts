// The opt-in traffic log (VIDEO_API_LOG=debug, or the `logger` option): one JSON line per exchange,
// `{ time, request: { method, url, headers, body }, response: { status, headers, body } }`, which
// `npm run contract -- --har FILE` checks offline. The key never appears: the Authorization header is
// dropped and any copy of the key (raw or JSON-escaped) is replaced by ***.
import type { AnyRequest } from './retry.js';

export type TrafficLogger = (line: string) => void;

/** Bodies longer than this are cut in the log (an upload is logged by its parts' names only). */
const MAX_BODY = 64 * 1024;

const headersOf = (h: Headers) => Object.fromEntries([...h.entries()].filter(([k]) => k != 'authorization'));

function requestBody(req: AnyRequest): string | undefined {
  const body = 'init' in req ? req.init.body : undefined;
  if (typeof body == 'string') return body.slice(0, MAX_BODY);
  if (body instanceof FormData) return `[multipart: ${[...body.keys()].join(', ')}]`;
  return body == null ? undefined : '[body not logged]';
}

/** Writes one exchange (no `res`: no answer arrived). Never throws: a log must not break a call. */
export async function logExchange(log: TrafficLogger, key: string, req: AnyRequest, res: Response | undefined, error?: unknown): Promise<void> {
  try {
    const text = res ? (await res.clone().text()).slice(0, MAX_BODY) : undefined;
    const line = JSON.stringify({
      time: new Date().toISOString(),
      request: { method: req.method, url: req.url, headers: headersOf(req.headers), body: requestBody(req) },
      ...(res ? { response: { status: res.status, headers: headersOf(res.headers), body: text } } : { error: String((error as Error)?.message ?? error) }),
    });
    log(line.split(key).join('***').split(JSON.stringify(key).slice(1, -1)).join('***'));
  } catch {
    // A log line lost is better than a call failed.
  }
}
