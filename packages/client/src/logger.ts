// Leveled logging: `debug` is the traffic log (one line per exchange, the shape `npm run contract --
// --har FILE` reads), `info` retries and pacing waits, `warn` 429/503 waits and uploads not re-sent,
// `error` a call that failed for good. The key never appears: the transport never puts the
// Authorization header in a record, and every line passes through the rules' Redactor before it leaves.
import { Redactor } from '@videogen/openapi/rules';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'off'];

type LogMethod = (obj: Record<string, unknown>, msg?: string) => void;
/** The shape of a pino logger (and of console): `logger.info({ ...fields }, 'message')`. */
export interface Logger {
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
}
/** The earlier form of the `logger` option: a function given each record as one JSON line. */
export type TrafficLogger = (line: string) => void;

/** What the client logs through: one method per level, each a no-op when the level is off. */
export type Log = { [L in Exclude<LogLevel, 'off'>]?: (fields: Record<string, unknown>, msg: string) => void };

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, off: 100 };

export const parseLevel = (value: string | undefined): LogLevel | undefined => {
  const v = value?.trim().toLowerCase() as LogLevel | undefined;
  return v && LOG_LEVELS.includes(v) ? v : undefined;
};

/**
 * The client's log: `level` from the option, else VIDEO_API_LOG; a `logger` given without either
 * logs from `debug` (a function, the earlier traffic log) or `info` (a pino-shaped object); with none of
 * them, from `unset` (default `off`). With no logger, lines go to stderr as JSON. Every string is
 * redacted (the key, raw or JSON-escaped).
 */
export function createLog(o: {
  logger?: Logger | TrafficLogger;
  level?: LogLevel;
  env?: string;
  key: string;
  unset?: LogLevel;
}): Log {
  const level =
    o.level ??
    parseLevel(o.env) ??
    (o.logger ? (typeof o.logger === 'function' ? 'debug' : 'info') : (o.unset ?? 'off'));
  const log: Log = {};
  if (level === 'off') return log;
  const sink = o.logger ?? ((line: string) => console.error(line));
  const redactor = new Redactor([o.key]);
  const clean = <T>(v: T): T => redactor.value(v);
  for (const l of ['debug', 'info', 'warn', 'error'] as const) {
    if (RANK[l] < RANK[level]) continue;
    log[l] =
      typeof sink === 'function'
        ? (fields, msg) => sink(JSON.stringify(clean({ time: new Date().toISOString(), level: l, msg, ...fields })))
        : (fields, msg) => sink[l](clean(fields), clean(msg));
  }
  return log;
}

/** Bodies longer than this are cut in the traffic log (an upload is logged as `[body not logged]`). */
const MAX_BODY = 64 * 1024;
const headersOf = (h: Headers | Record<string, string>) =>
  Object.fromEntries(
    (h instanceof Headers ? [...h.entries()] : Object.entries(h)).filter(([k]) => k.toLowerCase() !== 'authorization'),
  );
const isText = (type: string | null) => !type || /json|text|xml/i.test(type);

/**
 * One exchange for the `debug` level: `{ request: { method, url, headers, body }, response: { status,
 * headers, body } }`, or `error` when no answer came. Never throws: a log must not break a call.
 */
export async function exchangeRecord(
  req: { method: string; url: string; headers: Record<string, string> },
  body: string | undefined,
  hasBody: boolean,
  res: Response | undefined,
  error?: unknown,
): Promise<{ fields: Record<string, unknown>; msg: string }> {
  const request = {
    method: req.method,
    url: req.url,
    headers: headersOf(req.headers),
    body: body?.slice(0, MAX_BODY) ?? (hasBody ? '[body not logged]' : undefined),
  };
  if (!res) {
    const message = String((error as Error)?.message ?? error);
    return { fields: { request, error: message }, msg: `${req.method} ${req.url}: no answer (${message})` };
  }
  // A video (or any binary body) is not read: it would be held in memory whole.
  const text = isText(res.headers.get('content-type'))
    ? (
        await res
          .clone()
          .text()
          .catch(() => '')
      ).slice(0, MAX_BODY)
    : '[body not logged]';
  return {
    fields: { request, response: { status: res.status, headers: headersOf(res.headers), body: text } },
    msg: `${req.method} ${req.url} → ${res.status}`,
  };
}
