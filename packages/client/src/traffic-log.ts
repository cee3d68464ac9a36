// The opt-in traffic log (VIDEO_API_LOG=debug, or the `logger` option): one JSON line per exchange,
// `{ time, request: { method, url, headers, body }, response: { status, headers, body } }`, which
// `npm run contract -- --har FILE` checks offline. The key never appears: the Authorization header is
// dropped and any copy of the key (raw or JSON-escaped) is replaced by ***.
export type TrafficLogger = (line: string) => void;

/** Bodies longer than this are cut in the log (an upload is logged by its parts' names only). */
const MAX_BODY = 64 * 1024;

const headersOf = (h: Headers) => Object.fromEntries([...h.entries()].filter(([k]) => k != 'authorization'));

/** A JSON body as sent (cut); an upload's stream is not logged (it would have to be held in memory). */
function requestBody(req: Request, text: string | undefined): string | undefined {
  if (text !== undefined) return text.slice(0, MAX_BODY);
  return req.body == null ? undefined : '[body not logged]';
}

/** Writes one exchange (no `res`: no answer arrived). Never throws: a log must not break a call. */
export async function logExchange(log: TrafficLogger, key: string, req: Request, body: string | undefined, res: Response | undefined, error?: unknown): Promise<void> {
  try {
    const text = res ? (await res.clone().text()).slice(0, MAX_BODY) : undefined;
    const line = JSON.stringify({
      time: new Date().toISOString(),
      request: { method: req.method, url: req.url, headers: headersOf(req.headers), body: requestBody(req, body) },
      ...(res ? { response: { status: res.status, headers: headersOf(res.headers), body: text } } : { error: String((error as Error)?.message ?? error) }),
    });
    log(line.split(key).join('***').split(JSON.stringify(key).slice(1, -1)).join('***'));
  } catch {
    // A log line lost is better than a call failed.
  }
}
