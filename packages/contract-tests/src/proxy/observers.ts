// What happens to a caller's request, told as it happens to observers that record it: the statistics,
// the HAR and the log line. The exchange (exchange.ts) only paces, sends, decides and delivers; it
// keeps no counter and writes no HAR entry itself, the way openapi-fetch's middleware observes a
// request without being the request.
import { redactUrl } from '@videogen/openapi/rules';
import type { Caller } from './accounts.ts';
import type { ProxyErrorCode } from './envelope.ts';
import { harEntry, type Exchange, type HarLog } from './har-log.ts';
import { count, type PacingProxyStats } from './stats.ts';

/** One caller's request as the log line tells it. */
export interface Trace {
  startedAt: number;
  method: string;
  path: string;
  caller?: Caller;
  /** Time held by the pacer and the proxy's own waits, ms. */
  waitedMs: number;
}

/** Why a request went to the target again (PacingProxyStats.resent). */
export type ResendReason = keyof PacingProxyStats['resent'];

/** Every event is optional: an observer listens to what it records. */
export interface ExchangeObserver {
  /** A request arrived from a caller. */
  request?(t: Trace): void;
  /** Its body went to a temporary file. */
  spooled?(t: Trace): void;
  /** A start found the account's running slots full and waits for one (once per request). */
  held?(t: Trace): void;
  /** An attempt left for the target (a caller's, or the proxy's own status read). */
  sent?(t: Trace | undefined): void;
  /** The attempt got no answer. */
  failed?(t: Trace | undefined, reason: string): void;
  /** The target answered this status (its body may still be on its way). */
  answered?(t: Trace | undefined, status: number): void;
  /** One attempt as sent and answered, its body as far as the proxy read it, with what the proxy did next. */
  exchange?(t: Trace | undefined, x: Exchange): void;
  /** An answer recorded as sent again goes to the caller after all (the next wait passed --max-wait). */
  keptPassed?(t: Trace, x: Exchange): void;
  /** The request goes to the target again. */
  resend?(t: Trace, reason: ResendReason, note: string): void;
  /** A request that may have created a video is not sent again. */
  notResent?(t: Trace): void;
  /** The caller got its answer: the target's, or the proxy's own (`own`). `note`: what went wrong on the way. */
  delivered?(t: Trace, status: number, own?: { error_code: ProxyErrorCode }, note?: string): void;
  /** The caller left before its request was sent: nothing was sent. */
  abandoned?(t: Trace): void;
  /** The caller left while the target answered: the attempt was stopped at once and its place freed. */
  left?(t: Trace): void;
  /** The proxy read a running video's status itself, for a held start (no status: no answer). */
  statusRead?(caller: Caller, status?: number, videoStatus?: string): void;
}

/** Tells every observer: one object with the same events. */
export function observeAll(observers: ExchangeObserver[]): Required<ExchangeObserver> {
  const out = {} as Record<keyof ExchangeObserver, (...a: unknown[]) => void>;
  const names: Array<keyof ExchangeObserver> = [
    'request',
    'spooled',
    'held',
    'sent',
    'failed',
    'answered',
    'exchange',
    'keptPassed',
    'resend',
    'notResent',
    'delivered',
    'abandoned',
    'left',
    'statusRead',
  ];
  for (const name of names)
    out[name] = (...a: unknown[]) => {
      for (const o of observers) (o[name] as ((...x: unknown[]) => void) | undefined)?.(...a);
    };
  return out as Required<ExchangeObserver>;
}

/** The counters of PacingProxyStats (the credits and the pacer's waits are read from their owners). */
export function statsObserver(stats: PacingProxyStats): ExchangeObserver {
  return {
    request: () => void stats.requests++,
    spooled: () => void stats.spooledToDisk++,
    held: () => void stats.heldForConcurrency++,
    sent: () => void stats.upstream.sent++,
    failed: () => void stats.upstream.failed++,
    answered: (_t, status) => count(stats.upstream.answered, status),
    resend: (_t, reason) => void stats.resent[reason]++,
    notResent: () => void stats.notResent++,
    delivered: (_t, status, own) => {
      count(stats.answered, status);
      if (own) count(stats.ownAnswers, own.error_code);
    },
    abandoned: () => void stats.abandoned++,
    left: () => void stats.left++,
    statusRead: () => void stats.statusReads++,
  };
}

/** Every exchange with the target as a redacted HAR entry; a kept answer passed after all is corrected in place. */
export function harObserver(har: HarLog, scrub: (s: string) => string): ExchangeObserver {
  const entries = new WeakMap<Exchange, ReturnType<typeof harEntry>>();
  return {
    exchange: (_t, x) => {
      const entry = harEntry(x, scrub);
      entries.set(x, entry);
      har.add(entry);
    },
    keptPassed: (_t, x) => {
      const entry = entries.get(x);
      if (!entry) return;
      entry._videogenProxy.next = 'passed to the caller';
      entry.comment = `answered ${x.status}; the next wait would pass the proxy's --max-wait, so this answer went to the caller unchanged`;
    },
  };
}

/**
 * One line per request on the proxy's log, when its caller got an answer (or left): method, path,
 * status, time, time held, what happened on the way, and the key's fingerprint. Redacted.
 */
export function logObserver(log: (line: string) => void, scrub: (s: string) => string, maxWaitMs: number) {
  const notes = new WeakMap<Trace, string[]>();
  const written = new WeakSet<Trace>();
  const note = (t: Trace, text: string) => {
    const list = notes.get(t) ?? [];
    list.push(text);
    notes.set(t, list);
  };
  const line = (t: Trace, status: number) => {
    written.add(t);
    const waited = t.waitedMs >= 1 ? `, held ${duration(t.waitedMs)}` : '';
    const list = notes.get(t) ?? [];
    const said = list.length ? `; ${list.join('; ')}` : '';
    log(
      scrub(
        `proxy: ${t.method} ${redactUrl(t.path)} → ${status || '-'} in ${duration(Date.now() - t.startedAt)}${waited}${said}${t.caller ? ` ${t.caller.fingerprint}` : ''}`,
      ),
    );
  };
  const observer: ExchangeObserver = {
    held: (t) => note(t, 'held for a running slot'),
    resend: (t, _reason, text) => note(t, text),
    notResent: (t) => note(t, 'not sent again: it may have created a video'),
    keptPassed: (t) => note(t, `passed through after --max-wait ${seconds(maxWaitMs)} s`),
    delivered: (t, status, own, problem) => {
      if (problem) note(t, problem);
      if (own) note(t, `answered by the proxy: ${own.error_code}`);
      line(t, status);
    },
    // Once per request: a caller that left after the proxy answered it has its line already.
    abandoned: (t) => {
      if (written.has(t)) return;
      note(t, 'the caller left before it was sent: not sent');
      line(t, 0);
    },
    left: (t) => {
      note(t, "the caller left while the target answered: the target's answer was not waited for");
      line(t, 0);
    },
    statusRead: (caller, status, videoStatus) => {
      if (status !== undefined)
        log(
          `proxy: status read of a running video for a held start → ${status}${videoStatus ? ` ${videoStatus}` : ''} ${caller.fingerprint}`,
        );
    },
  };
  return observer;
}

export const seconds = (ms: number) => Math.round(ms / 100) / 10;
const duration = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${seconds(ms)} s`);
