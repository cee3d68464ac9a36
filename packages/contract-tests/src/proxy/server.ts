// startPacingProxy: the HTTP server in front of one target. It listens on loopback by default (a
// proxy reachable from elsewhere would lend the account's limits and credits to anyone), answers bad
// input with the envelope (a CONNECT, a request Node's parser refuses), and on close lets requests
// already at the target finish, answers the ones still waiting, writes the HAR and removes its files.
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Har } from 'har-format';
import {
  ALLOW_HTTP_VARIABLE,
  BODY_LIMITS,
  insecureUrlProblem,
  isLoopbackHostname,
  MAX_TIMER_MS,
  MemoryPacerStore,
  Pacer,
  redactUrl,
  scheduleName,
  UPLOAD_LIMITS,
} from '@videogen/openapi/rules';
import { createRedisPacerStore } from '@videogen/pacer-redis';
import { Accounts } from './accounts.ts';
import { CreditBudget } from './budget.ts';
import { PROXY_ERRORS, proxyAnswer, sendAnswer, sendRawAnswer, type ProxyErrorCode } from './envelope.ts';
import { handleRequest, type ProxyContext } from './exchange.ts';
import { HarLog } from './har-log.ts';
import { type ExchangeObserver, harObserver, logObserver, observeAll, statsObserver } from './observers.ts';
import { MEMORY_BYTES } from './spool.ts';
import { count, emptyStats, type PacingProxyStats } from './stats.ts';
import { Upstream } from './upstream.ts';

export interface PacingProxyOptions {
  /** The service's base URL, including `/v1` (`https://staging.example/v1`, `http://127.0.0.1:4010/v1`). */
  target: string | URL;
  /**
   * Address to listen on; default 127.0.0.1. Beyond loopback only when `allowHttpHosts` names it: the
   * proxy speaks plain HTTP, and tools send it their keys.
   */
  host?: string;
  /**
   * Hosts plain HTTP may reach besides loopback (the target, and the address the proxy listens on): a lab
   * network allowed explicitly, as the client's option and VIDEO_API_ALLOW_HTTP. Default: none.
   */
  allowHttpHosts?: string[];
  /** Port to listen on; default 0 (a free one). */
  port?: number;
  /** Record every exchange with the target in this HAR 1.2 file (keys redacted). */
  harFile?: string;
  /** Refuse generations and conversions once this many were accepted (all keys together). */
  creditBudget?: number;
  /** How much faster than real time the target runs, when known (else learned from RateLimit-Policy). */
  timeScale?: number;
  /** Ceiling of all waits of one request (pacing, 429, 503, backoff); default 15 min. */
  maxWaitMs?: number;
  /** Time limit for the target's answer headers once a request is sent; default 120 s. */
  timeoutMs?: number;
  /**
   * The target's answer body stalls when less than 1 KiB arrives in this long (default 30 s): the
   * attempt ends (a GET is sent again, a POST answered PROXY_TARGET_TIMEOUT), its pacer slot is freed.
   */
  bodyTimeoutMs?: number;
  /** The target's whole answer body within this long of its headers (default 60 s). */
  bodyDeadlineMs?: number;
  /**
   * Keys held at most (default 1,000): beyond it, the key seen least recently with no request in flight
   * is forgotten (its redaction and, with no other key of its account, its pacing schedule).
   */
  maxKeys?: number;
  /** A key not seen for this long, with no request in flight, is forgotten (default 1 hour). */
  keyIdleMs?: number;
  /**
   * Keys of one account, by fingerprint (`key:0123456789ab`, as the proxy prints them) or a longer prefix
   * of the key's SHA-256 (up to all 64 hex digits, to tell apart two keys that print alike): they share its limits.
   */
  sameAccount?: string[][];
  /** Every key shares one account's limits. */
  oneAccount?: boolean;
  /** Extra CA certificates (PEM) for an HTTPS target, added to the default roots. */
  ca?: string | Buffer | Array<string | Buffer>;
  /** One line per request and per new key (never a key); default: none. */
  log?: (line: string) => void;
  /**
   * Redis URL of a schedule shared with every other process pacing the same accounts (several proxies,
   * contract suite runs, clients): `redis://` or `rediss://`. Default: none, the proxy paces alone.
   */
  pacingUrl?: string;
  /**
   * Told every step of every request, beside the proxy's own statistics, HAR and log (metrics, a log of
   * your own). Texts they receive are redacted; the exchanges (`exchange`) are not: redact before you write one.
   */
  observers?: ExchangeObserver[];
}

export interface PacingProxy {
  /** Where tools point: the proxy's origin and the target's base path (`http://127.0.0.1:PORT/v1`). */
  url: string;
  origin: string;
  port: number;
  /** The target's base URL. */
  target: string;
  stats(): PacingProxyStats;
  /** The HAR recorded so far (undefined without `harFile`). */
  har(): Har | undefined;
  /** Fingerprints of the keys seen so far. */
  fingerprints(): string[];
  close(): Promise<void>;
}

const DEFAULT_MAX_WAIT_MS = 15 * 60_000;
const DEFAULT_TIMEOUT_MS = 120_000;
/** How long close() lets requests already at the target finish. */
const CLOSE_GRACE_MS = 10_000;

/**
 * The largest body any valid request can have, with room to spare: every file field at its largest
 * plan limit, as many times as it may repeat (8.4), plus the form's text. A larger body cannot be a
 * request of the interface; anything below goes to the target, which judges it (an over-limit upload
 * is the target's to refuse).
 */
export function maxRequestBytes(): number {
  let total = MEMORY_BYTES;
  for (const field of Object.values(UPLOAD_LIMITS)) {
    const largest = Math.max(...Object.values(field.maxBytes));
    total += largest * ('maxItems' in field ? field.maxItems : 1);
  }
  return total;
}

/**
 * The target as a URL, or a TypeError naming what is wrong with it (a usage error): an http:// target
 * beyond loopback only when `allowHttpHosts` names its host (5.2: the keys would cross the network in the clear).
 */
export function targetUrl(value: string | URL, allowHttpHosts: readonly string[] = []): URL {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new TypeError(
      `--target must be a URL such as https://staging.example/v1, got ${JSON.stringify(redactUrl(String(value)))}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`--target must be an http or https URL, got ${url.protocol}`);
  if (url.username || url.password)
    throw new TypeError("--target must not hold credentials: keys travel in each request's Authorization header");
  if (url.search || url.hash) throw new TypeError('--target is a base URL: no query or fragment');
  const insecure = insecureUrlProblem(url, allowHttpHosts);
  if (insecure)
    throw new TypeError(
      `--target: refusing to send the API keys in the clear: ${insecure}; --allow-http HOST names a host too`,
    );
  return url;
}

/** An address to listen on (`--host`) as a URL writes a host: an IPv6 one in brackets. */
const asHostname = (address: string) => (address.includes(':') && !address.startsWith('[') ? `[${address}]` : address);

/** Whether an address to listen on is this machine only. */
export const isLoopbackAddress = (address: string): boolean => isLoopbackHostname(asHostname(address));

/**
 * The address to listen on, or a TypeError: beyond loopback only when named in `allowHttpHosts` (the
 * proxy speaks plain HTTP, so every tool's key would reach it in the clear over the network).
 */
export function listenHost(host: string | undefined, allowHttpHosts: readonly string[] = []): string {
  const address = host ?? '127.0.0.1';
  if (isLoopbackAddress(address)) return address;
  if (insecureUrlProblem(new URL(`http://${asHostname(address)}/`), allowHttpHosts))
    throw new TypeError(
      `--host ${address}: the proxy speaks plain HTTP, so every tool's API key would reach it in the clear over the network (5.2: HTTPS only): listen on loopback, or allow it explicitly (${ALLOW_HTTP_VARIABLE}=${address}, or --allow-http ${address})`,
    );
  return address;
}

export async function startPacingProxy(options: PacingProxyOptions): Promise<PacingProxy> {
  const target = targetUrl(options.target, options.allowHttpHosts);
  const host = listenHost(options.host, options.allowHttpHosts);
  const log = options.log ?? (() => {});
  const closing = new AbortController();
  let tmp: Promise<string> | undefined;
  const budget = new CreditBudget(options.creditBudget);
  const stats = emptyStats(options.creditBudget);
  const timeScale = options.timeScale && options.timeScale > 0 ? options.timeScale : 1;
  // Node's timers fire at once past MAX_TIMER_MS (about 24.8 days): no longer wait can be kept.
  const maxWaitMs = Math.min(options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS, MAX_TIMER_MS);
  const base = target.href.replace(/\/+$/, '');
  const pacer = new Pacer({
    maxWaitMs,
    ...(options.timeScale && { timeScale: options.timeScale }),
    // Shared: an account is named as the client names it, base URL and key identity.
    ...(options.pacingUrl && {
      store: createRedisPacerStore({ url: options.pacingUrl, log: (_level, message) => log(`proxy: ${message}`) }),
      storeName: (account: string) => scheduleName(base, account),
    }),
  });
  const accounts = new Accounts(
    options,
    (fp, account, identity) =>
      log(
        `proxy: new key ${fp}, paced as ${account === identity ? 'its own account (keys of one account: --same-account)' : `account ${account}`}`,
      ),
    // The last key of an account forgotten: its schedule too, when nothing of it is pending.
    (account) => pacer.forget(account),
  );
  const har = options.harFile
    ? new HarLog(options.harFile, { name: '@videogen/contract-tests pacing proxy', version: '1.0.0' })
    : undefined;
  const scrub = (s: string) => accounts.scrub(s);
  const ctx: ProxyContext = {
    target,
    pacer,
    accounts,
    budget,
    upstream: new Upstream(target, { ca: options.ca }),
    // What happens to each request, recorded by its observers: the statistics, the HAR, the log.
    observe: observeAll([
      statsObserver(stats),
      ...(har ? [harObserver(har, scrub)] : []),
      logObserver(log, scrub, maxWaitMs),
      ...(options.observers ?? []),
    ]),
    maxWaitMs,
    timeoutMs: Math.min(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, MAX_TIMER_MS),
    body: {
      idleMs: Math.min(options.bodyTimeoutMs ?? BODY_LIMITS.idleMs, MAX_TIMER_MS),
      totalMs: Math.min(options.bodyDeadlineMs ?? BODY_LIMITS.totalMs, MAX_TIMER_MS),
    },
    timeScale,
    maxBodyBytes: maxRequestBytes(),
    tmpDir: () => (tmp ??= mkdtemp(join(tmpdir(), 'videogen-proxy-'))),
    closing: closing.signal,
  };

  const active = new Set<Promise<void>>();
  const server = http.createServer((req, res) => {
    const done = handleRequest(ctx, req, res)
      .catch((err: Error) => {
        log(accounts.scrub(`proxy: internal error on ${req.method} ${redactUrl(req.url ?? '')}: ${err?.stack ?? err}`));
        sendAnswer(
          res,
          proxyAnswer(
            'PROXY_INTERNAL_ERROR',
            `The pacing proxy failed on this request: ${accounts.scrub(String(err?.message ?? err))}`,
          ),
        );
      })
      .finally(() => active.delete(done));
    active.add(done);
  });
  /** An answer written on the raw socket (no request object exists), counted like the others. */
  const rawAnswer = (socket: Duplex, code: ProxyErrorCode, message: string, reason: string) => {
    // Nobody else listens on this socket: a reset by the caller must not become an uncaught error.
    socket.on('error', () => socket.destroy());
    stats.requests++;
    count(stats.answered, PROXY_ERRORS[code]);
    count(stats.ownAnswers, code);
    log(`proxy: answered ${PROXY_ERRORS[code]} ${code}: ${message}`);
    sendRawAnswer(socket as Socket, proxyAnswer(code, message), reason);
  };
  server.on('connect', (_req, socket) =>
    rawAnswer(
      socket,
      'PROXY_METHOD_NOT_ALLOWED',
      `CONNECT is not supported: the pacing proxy must see each request to pace it. Set the tool's base URL to the proxy's URL (${url}) instead of using it as an HTTPS proxy.`,
      'Method Not Allowed',
    ),
  );
  server.on('upgrade', (_req, socket) =>
    rawAnswer(
      socket,
      'PROXY_INVALID_REQUEST',
      'Protocol upgrades are not supported: the interface is plain HTTP requests.',
      'Bad Request',
    ),
  );
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    if (err.code === 'HPE_HEADER_OVERFLOW')
      rawAnswer(
        socket,
        'PROXY_HEADERS_TOO_LARGE',
        'The request headers are too large.',
        'Request Header Fields Too Large',
      );
    else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT')
      rawAnswer(socket, 'PROXY_REQUEST_TIMEOUT', 'The request did not arrive in time.', 'Request Timeout');
    else
      rawAnswer(
        socket,
        'PROXY_INVALID_REQUEST',
        `The request is not valid HTTP/1.1 (${err.code ?? err.message}).`,
        'Bad Request',
      );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port, address, family } = server.address() as AddressInfo;
  const origin = `http://${family === 'IPv6' ? `[${address}]` : address}:${port}`;
  const url = origin + target.pathname.replace(/\/+$/, '');

  let closed: Promise<void> | undefined;
  return {
    url,
    origin,
    port,
    target: target.href.replace(/\/+$/, ''),
    stats: () => ({
      ...structuredClone(stats),
      credits: { ...stats.credits, spent: budget.spent, inFlight: budget.inFlight, refused: budget.refused },
      waitedMs: pacer.stats.waitedMs,
      keys: {
        held: accounts.size,
        forgotten: accounts.forgotten,
        ...(pacer.store instanceof MemoryPacerStore && { pacedAccounts: pacer.store.size }),
      },
    }),
    har: () => har?.har(),
    fingerprints: () => accounts.fingerprints(),
    close: () =>
      (closed ??= (async () => {
        closing.abort();
        server.close();
        await Promise.race([Promise.allSettled([...active]), sleep(CLOSE_GRACE_MS)]);
        server.closeAllConnections();
        ctx.upstream.close();
        await pacer.close();
        har?.write();
        if (tmp) await rm(await tmp, { recursive: true, force: true });
      })()),
  };
}
