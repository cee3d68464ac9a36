// `videogen-contract proxy --target URL …`: starts the pacing proxy, prints its URL, logs one line per
// request on stderr, and on Ctrl-C (or `signal`) closes, writes the HAR and prints what it did.
import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { ALLOW_HTTP_VARIABLE, allowedHttpHosts, BODY_LIMITS, operationById } from '@videogen/openapi/rules';
import { PACING_URL_VARIABLE, redisUrlProblem } from '@videogen/pacer-redis';
import { checkProxyTarget } from './preflight.ts';
import { isLoopbackAddress, startPacingProxy, targetUrl, type PacingProxyOptions } from './server.ts';
import type { PacingProxyStats } from './stats.ts';

/** What the preflight asks the target (proxy/preflight.ts, through the suite's): the settings list. */
const PROBE = `${operationById('listVideoSettings').method} ${operationById('listVideoSettings').path}`;

export const PROXY_USAGE = `usage: videogen-contract proxy --target URL [options]

A local HTTP proxy in front of TARGET for any tool (newman, Redocly respect, Schemathesis, curl, a
browser): it spaces every request per account and rate class as the interface's limits require
(8.1), holds generations and conversions while the account runs its maximum of videos (8.2), waits
out 429 and 503 and sends the request again (7.1), refuses generations and conversions beyond a
credit budget, and records the traffic for \`videogen-contract --har FILE\`. Point the tool's base URL
at the URL it prints.

  --target URL          the service, including /v1: https://staging.example/v1, http://127.0.0.1:4010/v1
                        (http only on loopback, or to a host --allow-http names)
  --port N              port to listen on (default 0: a free port, printed)
  --host ADDRESS        address to listen on (default 127.0.0.1; another one must be named by
                        --allow-http: tools would send their keys over the network in the clear, and
                        whoever reaches it spends your account's limits and credits)
  --allow-http HOST     plain HTTP to or from this host too (default ${ALLOW_HTTP_VARIABLE}, comma-separated;
                        .lab.example: every host under it; *: any); repeat for several
  --har FILE            record every exchange with the target as HAR 1.2, keys redacted
  --credit-budget N     answer 403 PROXY_CREDIT_BUDGET_EXCEEDED to generations and conversions once N
                        were accepted (all keys together); default CONTRACT_CREDIT_BUDGET, else none
  --max-wait SECONDS    the longest the proxy holds one request (pacing, 429 and 503 waits) before it
                        passes the target's last answer through unchanged (default 900)
  --timeout SECONDS     how long to wait for the target's answer once a request is sent (default 120)
  --body-timeout SECONDS  the target's answer body stalls when less than 1 KiB arrives in this long
                        (default ${BODY_LIMITS.idleMs / 1000}): the attempt ends and the account's queue moves on
  --body-deadline SECONDS  the target's whole answer body within this long of its headers (default ${BODY_LIMITS.totalMs / 1000})
  --time-scale N        the target runs N times faster than real time (a sandbox started with
                        --time-scale N); learned from RateLimit-Policy when the target sends it
  --same-account FP,FP  keys of one account, by the fingerprints the proxy prints (key:0123456789ab),
                        or longer prefixes of the key's SHA-256 (sha256sum of the key, up to 64 hex
                        digits): they share the account's limits (5.5); repeat for several accounts
  --one-account         every key shares one account's limits (safe when you do not know)
  --ca FILE             CA certificate(s) (PEM) trusted for an HTTPS target besides the default roots
  --pacing-url URL      share the schedule on Redis with every other proxy, suite run and client
                        pacing the same accounts (redis://, rediss://, a node of a Redis Cluster, or
                        redis-sentinel://host:26379#primary); default VIDEO_API_PACING_URL
  --quiet               no line per request on stderr
  --no-preflight        listen without first asking the target ${PROBE} (no key): by default
                        a target that cannot be reached or is not the API stops the command (exit 2)
  --help                this text

Every answer the proxy makes itself is the interface's error envelope {error_code, error} with an
error_code starting PROXY_ and the header x-videogen-proxy; the target's answers never carry it.
`;

export interface ProxyCommandIO {
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  env?: NodeJS.ProcessEnv;
  /** Stops the proxy (default: SIGINT or SIGTERM). */
  signal?: AbortSignal;
  /** Called once the proxy listens (tests). */
  onListening?: (url: string) => void;
}

class UsageError extends Error {}

function positiveNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!(n > 0) || !Number.isFinite(n))
    throw new UsageError(`${name} must be a positive number, got ${JSON.stringify(value)}`);
  return n;
}

const OPTIONS = {
  target: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  har: { type: 'string' },
  'credit-budget': { type: 'string' },
  'max-wait': { type: 'string' },
  timeout: { type: 'string' },
  'body-timeout': { type: 'string' },
  'body-deadline': { type: 'string' },
  'time-scale': { type: 'string' },
  'allow-http': { type: 'string', multiple: true },
  'same-account': { type: 'string', multiple: true },
  'one-account': { type: 'boolean' },
  ca: { type: 'string', multiple: true },
  'pacing-url': { type: 'string' },
  quiet: { type: 'boolean' },
  'no-preflight': { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

const parseProxyArgs = (args: string[]) => parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: false });

/** The options of a command line (exported for the tests). */
export function proxyOptions(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): (PacingProxyOptions & { quiet: boolean; preflight: boolean }) | 'help' {
  let values: ReturnType<typeof parseProxyArgs>['values'];
  try {
    ({ values } = parseProxyArgs(argv));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) return 'help';
  if (!values.target) throw new UsageError('--target URL is required (the service, including /v1)');
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be 0–65535, got ${JSON.stringify(values.port)}`);
  const budgetText = values['credit-budget'] ?? env.CONTRACT_CREDIT_BUDGET;
  let creditBudget: number | undefined;
  if (budgetText !== undefined && budgetText !== '') {
    creditBudget = Number(budgetText);
    if (!Number.isInteger(creditBudget) || creditBudget < 0)
      throw new UsageError(`--credit-budget must be a whole number ≥ 0, got ${JSON.stringify(budgetText)}`);
  }
  const maxWait = positiveNumber('--max-wait', values['max-wait']);
  const timeout = positiveNumber('--timeout', values.timeout);
  const bodyTimeout = positiveNumber('--body-timeout', values['body-timeout']);
  const bodyDeadline = positiveNumber('--body-deadline', values['body-deadline']);
  const sameAccount = (values['same-account'] ?? []).map((group: string) => {
    const fps = group
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const fp of fps)
      if (!/^(key:|sha256:)?[0-9a-f]{12,64}$/i.test(fp))
        throw new UsageError(
          `--same-account takes fingerprints as the proxy prints them (key:0123456789ab), or longer prefixes of the key's SHA-256, got ${JSON.stringify(fp)}`,
        );
    return fps;
  });
  const ca = (values.ca ?? []).map((file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (err) {
      throw new UsageError(`--ca ${file}: ${(err as Error).message}`);
    }
  });
  const pacingUrl = values['pacing-url'] ?? (env[PACING_URL_VARIABLE] || undefined);
  const pacingProblem = pacingUrl && redisUrlProblem(pacingUrl);
  if (pacingProblem) throw new UsageError(pacingProblem);
  const allowHttp = allowedHttpHosts(
    values['allow-http']?.length ? values['allow-http'].join(',') : env[ALLOW_HTTP_VARIABLE],
  );
  return {
    target: values.target,
    port,
    ...(allowHttp.length && { allowHttpHosts: allowHttp }),
    ...(pacingUrl && { pacingUrl }),
    ...(values.host && { host: values.host }),
    ...(values.har && { harFile: values.har }),
    ...(creditBudget !== undefined && { creditBudget }),
    ...(maxWait !== undefined && { maxWaitMs: maxWait * 1000 }),
    ...(timeout !== undefined && { timeoutMs: timeout * 1000 }),
    ...(bodyTimeout !== undefined && { bodyTimeoutMs: bodyTimeout * 1000 }),
    ...(bodyDeadline !== undefined && { bodyDeadlineMs: bodyDeadline * 1000 }),
    ...(values['time-scale'] !== undefined && { timeScale: positiveNumber('--time-scale', values['time-scale']) }),
    ...(sameAccount.length && { sameAccount }),
    ...(values['one-account'] && { oneAccount: true }),
    ...(ca.length && { ca }),
    quiet: !!values.quiet,
    preflight: !values['no-preflight'],
  };
}

/**
 * Runs the command; resolves with the exit code (0 after a clean stop, 2 for a usage error or a target
 * that cannot be reached or is not the API, 1 when it cannot start).
 */
export async function proxyCommand(argv: string[], io: ProxyCommandIO = {}): Promise<number> {
  const out = io.stdout ?? ((t: string) => void process.stdout.write(t));
  const err = io.stderr ?? ((t: string) => void process.stderr.write(t));
  let options: ReturnType<typeof proxyOptions>;
  try {
    options = proxyOptions(argv, io.env ?? process.env);
  } catch (e) {
    if (!(e instanceof UsageError) && !(e instanceof TypeError)) throw e;
    err(`videogen-contract proxy: ${e.message}\n\n${PROXY_USAGE}`);
    return 2;
  }
  if (options === 'help') {
    out(PROXY_USAGE);
    return 0;
  }
  const { quiet, preflight: check, ...rest } = options;
  if (check) {
    let target: URL;
    try {
      target = targetUrl(rest.target, rest.allowHttpHosts);
    } catch (e) {
      err(`videogen-contract proxy: ${(e as Error).message}\n`);
      return 2;
    }
    // Before listening: a target that cannot be reached or is not the API is the operator's to fix.
    const result = await checkProxyTarget(target, { ca: rest.ca });
    if (!result.ok) {
      err(`videogen-contract proxy: ${result.message}\n`);
      return 2;
    }
    if (!quiet) for (const note of result.notes) err(`proxy: preflight: ${note}\n`);
  }
  let proxy: Awaited<ReturnType<typeof startPacingProxy>>;
  try {
    proxy = await startPacingProxy({
      ...rest,
      log: (line) =>
        quiet && !/^proxy: (new key|internal error|shared pacing)/.test(line) ? undefined : err(line + '\n'),
    });
  } catch (e) {
    err(`videogen-contract proxy: ${(e as Error).message}\n`);
    return e instanceof TypeError ? 2 : 1;
  }
  out(`Pacing proxy for ${proxy.target}\n  listening on ${proxy.url}  (point your tool's base URL here)\n`);
  if (rest.host && !isLoopbackAddress(rest.host))
    err(`warning: listening on ${rest.host}: anyone who reaches this port spends your account's limits and credits\n`);
  if (rest.creditBudget !== undefined) out(`  credit budget: ${rest.creditBudget} generations and conversions\n`);
  if (rest.harFile) out(`  recording to ${rest.harFile} (check it with: videogen-contract --har ${rest.harFile})\n`);
  out('  Ctrl-C to stop\n');
  io.onListening?.(proxy.url);

  const stop = new AbortController();
  const onSignal = () => stop.abort();
  if (io.signal) io.signal.addEventListener('abort', onSignal, { once: true });
  else {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }
  if (!stop.signal.aborted && !io.signal?.aborted) await once(stop.signal, 'abort');
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  await proxy.close();
  out(summary(proxy.stats()) + (rest.harFile ? `HAR written to ${rest.harFile}\n` : ''));
  return 0;
}

/** What the proxy did, in one paragraph. */
export function summary(s: PacingProxyStats): string {
  const statuses = (m: Record<string, number>) =>
    Object.entries(m)
      .map(([k, v]) => `${k}×${v}`)
      .join(' ') || 'none';
  const resent = s.resent.rateLimit + s.resent.unavailable + s.resent.serverError + s.resent.network;
  return (
    [
      `Pacing proxy: ${s.requests} requests; answered ${statuses(s.answered)}; held ${Math.round(s.waitedMs / 100) / 10} s in all.`,
      `  target answered ${statuses(s.upstream.answered)}${s.upstream.failed ? `, ${s.upstream.failed} attempts without answer` : ''}; sent again: ${resent}` +
        ` (429: ${s.resent.rateLimit}, 503: ${s.resent.unavailable}, other 5xx: ${s.resent.serverError}, network: ${s.resent.network}); POST 5xx not sent again: ${s.notResent}.`,
      `  credits spent: ${s.credits.spent}${s.credits.budget !== undefined ? ` of ${s.credits.budget}, ${s.credits.refused} refused` : ''}; starts held for a running slot: ${s.heldForConcurrency}; status reads by the proxy: ${s.statusReads}.`,
      `  callers that left before being sent: ${s.abandoned}, while the target answered: ${s.left}; keys held: ${s.keys.held}, forgotten: ${s.keys.forgotten}.`,
    ].join('\n') + '\n'
  );
}
