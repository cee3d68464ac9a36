// The relay's log: leveled records, to a function of the caller's or as JSON lines on stderr. The API key
// never reaches it (the relay logs ids, event types and statuses, never a request's headers), nor the
// signing secrets.
import type { RelayLogRecord, RelayOptions } from './options.js';

type Level = RelayLogRecord['level'];
type Line = (fields: Record<string, unknown>, msg: string) => void;
export type Log = Record<Level, Line>;

const ORDER: Record<Level | 'off', number> = { debug: 0, info: 1, warn: 2, error: 3, off: 4 };

export function createLog(o: Pick<RelayOptions, 'logger' | 'logLevel'>): Log {
  const min = ORDER[o.logLevel ?? 'info'];
  const sink =
    o.logger ??
    ((record: RelayLogRecord) =>
      process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), ...record })}\n`));
  const line =
    (level: Level): Line =>
    (fields, msg) => {
      if (ORDER[level] >= min) sink({ level, msg, ...fields });
    };
  return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
}
