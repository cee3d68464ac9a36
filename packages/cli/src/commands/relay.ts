import type { Command } from 'commander';
import { WEBHOOK_SECRET_VARIABLE } from '@videogen/client';
// Types only: the relay (and its Redis client) loads when the command runs, not with every other command.
import type { DeadLetter, RelayLogRecord } from '@videogen/relay';
import { DEFAULTS } from '@videogen/relay/defaults';
import { parseSeconds, type Invocation } from '../context.js';
import { CliError, usageError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { interruptible } from '../interrupt.js';
import { createOutput, table } from '../output.js';
import { formatDuration } from '../progress.js';

interface RelayFlags {
  forwardTo?: string;
  listen?: string;
  state?: string;
  redis?: string;
  pollInterval?: number;
  listInterval?: number;
  maxListPages?: number;
  retrySchedule?: number[];
  deliveryTimeout?: number;
  lease?: number;
  concurrency?: number;
  backfill?: number;
  watchExpiry?: number;
  failed?: boolean;
  replay?: string[];
}

const seconds = (ms: number) => ms / 1000;
const ms = (s: number | undefined) => (s === undefined ? undefined : Math.round(s * 1000));

/** `0,5,300,1800`: one wait in seconds per attempt, the first one's included. */
function parseSchedule(value: string): number[] {
  const waits = value.split(',').map((v) => Number(v.trim()));
  if (waits.length === 0 || waits.some((w) => !Number.isFinite(w) || w < 0))
    throw usageError(`--retry-schedule is a comma list of seconds, one per attempt (0,5,300,…), not "${value}".`);
  return waits;
}

/** Seconds, 0 included (`--backfill 0`: only the videos made from now on). */
function parseSecondsOrZero(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < 0 || value.trim() === '')
      throw usageError(`${name} must be a number of seconds, 0 or more, not "${value}".`);
    return n;
  };
}

function parseCount(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1)
      throw usageError(`${name} must be a whole number of at least 1, not "${value}".`);
    return n;
  };
}

/**
 * `videogen relay`: completion webhooks for the account. Runs until stopped (Ctrl-C, SIGTERM); with
 * `--failed` or `--replay ID` it reads or changes the relay's state and exits.
 */
export function registerRelay(program: Command, invocation: Invocation): void {
  program
    .command('relay')
    .description(
      'Watch every video of the account and POST each terminal state (video.completed, video.failed, video.expired) to --forward-to as a signed Standard Webhooks delivery, retried, then dead-lettered. Several relays share the work through Redis (VIDEO_API_PACING_URL or --redis); one alone keeps its state in --state.',
    )
    .option('--forward-to <url>', 'the receiver: every event is POSTed there')
    .option(
      '--listen <[host:]port>',
      'accept announces from the client here (VIDEO_RELAY_URL=http://host:port), and GET /healthz',
    )
    .option('--state <file>', `the state of a relay without Redis (default ${DEFAULTS.stateFile})`)
    .option('--redis <url>', 'share the work with other relays on this Redis (default: $VIDEO_API_PACING_URL)')
    .option(
      '--poll-interval <seconds>',
      `between two status reads of a running video (default ${seconds(DEFAULTS.pollIntervalMs)})`,
      parseSeconds('--poll-interval'),
    )
    .option(
      '--list-interval <seconds>',
      `between two listings that find videos nobody announced (default ${seconds(DEFAULTS.listIntervalMs)})`,
      parseSeconds('--list-interval'),
    )
    .option(
      '--max-list-pages <n>',
      `pages one listing reads at most when the list's order does not say where new videos are (default ${DEFAULTS.maxListPages})`,
      parseCount('--max-list-pages'),
    )
    .option(
      '--retry-schedule <seconds,…>',
      `waits before each attempt, the first included (default ${DEFAULTS.retryScheduleMs.map(seconds).join(',')})`,
      parseSchedule,
    )
    .option(
      '--delivery-timeout <seconds>',
      `how long the receiver has to answer (default ${seconds(DEFAULTS.deliveryTimeoutMs)})`,
      parseSeconds('--delivery-timeout'),
    )
    .option(
      '--lease <seconds>',
      `how long a video worked on stays this relay's without renewal: a dead relay's videos move on after it (default ${seconds(DEFAULTS.leaseMs)})`,
      parseSeconds('--lease'),
    )
    .option(
      '--concurrency <n>',
      `videos worked on at once (default ${DEFAULTS.concurrency})`,
      parseCount('--concurrency'),
    )
    .option(
      '--backfill <seconds>',
      `on a first start, also watch videos created this long before (default ${seconds(DEFAULTS.backfillMs)})`,
      parseSecondsOrZero('--backfill'),
    )
    .option(
      '--watch-expiry <seconds>',
      'read each completed video again this often until it expires, to send video.expired (default: off)',
      parseSeconds('--watch-expiry'),
    )
    .option('--failed', 'list the dead-lettered events and exit')
    .option('--replay <event-id...>', 'requeue dead-lettered events (webhook ids from --failed) and exit')
    .addHelpText(
      'after',
      `
Environment:
  ${WEBHOOK_SECRET_VARIABLE}  whsec_… signing secret; several separated by spaces during a rotation
  VIDEO_API_PACING_URL  redis:// URL shared with the account's processes: pacing, and the relays' work
Deliveries carry webhook-id (the same on every retry), webhook-timestamp and webhook-signature:
verify them with verifyWebhook of @videogen/client, or any Standard Webhooks or Svix library.`,
    )
    .action(async (flags: RelayFlags) => {
      const opts = invocation.options;
      const out = createOutput(Boolean(opts.json));
      const apiKey = process.env.VIDEO_API_KEY;
      if (!apiKey)
        throw new CliError(
          "VIDEO_API_KEY is not set: export VIDEO_API_KEY=<your API key> (the relay polls the account's videos with it).",
          EXIT.AUTH,
          'NO_API_KEY',
        );
      const baseUrl = opts.baseUrl ?? (process.env.VIDEO_API_BASE_URL || undefined);
      const where = { apiKey, baseUrl, redisUrl: flags.redis, stateFile: flags.state };
      const relayModule = await import('@videogen/relay');
      if (flags.failed || flags.replay) return admin(relayModule, flags, where, out);
      if (!flags.forwardTo) throw usageError('relay needs --forward-to URL: where every event is POSTed.');
      const json = Boolean(opts.json);
      const logger = (r: RelayLogRecord) => {
        if (json) process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...r })}\n`);
        else if (!opts.quiet || r.level === 'error' || r.level === 'warn') process.stderr.write(`relay: ${r.msg}\n`);
      };
      let relay: Awaited<ReturnType<typeof relayModule.createRelay>>;
      try {
        relay = await relayModule.createRelay({
          ...where,
          forwardTo: flags.forwardTo,
          ...(flags.listen !== undefined && { listen: flags.listen }),
          pollIntervalMs: ms(flags.pollInterval),
          listIntervalMs: ms(flags.listInterval),
          maxListPages: flags.maxListPages,
          retryScheduleMs: flags.retrySchedule?.map((s) => s * 1000),
          deliveryTimeoutMs: ms(flags.deliveryTimeout),
          leaseMs: ms(flags.lease),
          concurrency: flags.concurrency,
          backfillMs: ms(flags.backfill),
          watchExpiryMs: ms(flags.watchExpiry),
          logger,
          client: {
            timeoutMs: ms(opts.requestTimeout),
            bodyTimeoutMs: ms(opts.bodyTimeout),
            bodyDeadlineMs: ms(opts.bodyDeadline),
          },
        });
      } catch (e) {
        // Options that cannot work (no secret, a bad URL): the fix is in the command line or the environment.
        if (e instanceof TypeError) throw usageError(e.message);
        throw e;
      }
      await interruptible(async (signal) => {
        const stopped = new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => resolve(), { once: true }),
        );
        await Promise.race([relay.done, stopped]);
        await relay.stop();
      });
    });
}

/** `--failed` and `--replay`: read or change the state, whether a relay runs on it or not. */
async function admin(
  { openStore, replay }: typeof import('@videogen/relay'),
  flags: RelayFlags,
  where: { apiKey: string; baseUrl?: string; redisUrl?: string; stateFile?: string },
  out: ReturnType<typeof createOutput>,
): Promise<void> {
  const store = openStore(where);
  try {
    if (flags.replay) {
      const results: Array<{ event: string; result: string }> = [];
      for (const id of flags.replay) {
        // A relay working on that video holds it a moment: the replay waits for it (at most a lease).
        results.push({ event: id, result: await replay(store, id, { leaseMs: DEFAULTS.leaseMs }) });
      }
      out.result(results, () =>
        results
          .map((r) =>
            r.result === 'requeued'
              ? `${r.event}: requeued; a running relay delivers it now (same webhook-id)`
              : r.result === 'unknown'
                ? `${r.event}: no such dead-lettered event (see videogen relay --failed)`
                : `${r.event}: its video is being worked on by a relay; try again`,
          )
          .join('\n'),
      );
      if (results.some((r) => r.result !== 'requeued'))
        throw new CliError(
          `${results.filter((r) => r.result !== 'requeued').length} event(s) not requeued`,
          EXIT.NOT_FOUND,
          'NOT_REQUEUED',
        );
      return;
    }
    const dead = await store.failed();
    out.result(dead, () => describeFailed(dead, store.where));
  } finally {
    await store.close();
  }
}

function describeFailed(dead: DeadLetter[], where: string): string {
  if (dead.length === 0) return `No dead-lettered event (state at ${where}).`;
  return [
    table(
      ['EVENT', 'TYPE', 'VIDEO', 'ATTEMPTS', 'GAVE UP', 'LAST ERROR'],
      dead.map((d) => [
        d.event.id,
        d.event.type,
        d.video_id,
        String(d.event.attempts),
        `${formatDuration(Date.now() - d.failedAt)} ago`,
        d.event.lastError ?? '-',
      ]),
    ),
    '',
    `Requeue one with: videogen relay --replay ${dead[0]?.event.id}`,
  ].join('\n');
}
