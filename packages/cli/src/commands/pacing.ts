import type { Command } from 'commander';
import type { ScheduleSnapshot } from '@videogen/client';
import { MAX_RUNNING, pacingReason, RATE_LIMITS, type RateClass } from '@videogen/openapi/rules';
import { createContext, type Invocation } from '../context.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { table } from '../output.js';
import { formatDuration } from '../progress.js';

/**
 * `videogen pacing`: the account's pacing schedule, to see why a replica waits. With
 * VIDEO_API_PACING_URL it is what every process of the account shares on Redis; without, this
 * command's own schedule is empty, and the output says where the schedule would be.
 */
export function registerPacing(program: Command, invocation: Invocation): void {
  program
    .command('pacing')
    .description(
      "Show the account's pacing schedule shared through VIDEO_API_PACING_URL: requests in flight and the server's waits per rate class, the videos holding running slots, the requests waiting and what for. Sends no request to the service.",
    )
    .action(async () => {
      const ctx = await createContext(invocation);
      let schedule: ScheduleSnapshot;
      try {
        schedule = await ctx.client.schedule();
      } catch (err) {
        // Redis unreachable: the account's schedule cannot be read; this process's own would mislead.
        throw new CliError((err as Error).message, EXIT.ERROR, 'PACING_UNAVAILABLE');
      }
      ctx.out.result(schedule, () => describe(schedule));
    });
}

function describe(s: ScheduleSnapshot): string {
  const lines: string[] = [];
  if (s.scope === 'process')
    lines.push(
      'Not shared: VIDEO_API_PACING_URL is unset, so each process paces alone and this one has sent nothing.',
      'Set VIDEO_API_PACING_URL to the redis:// URL your processes share to see their schedule.',
      '',
    );
  else lines.push(`Shared by ${s.processes} process${s.processes === 1 ? '' : 'es'} pacing this account lately.`, '');
  lines.push(
    table(
      ['CLASS', 'IN FLIGHT', 'LAST ANSWER', 'SERVER SAID WAIT', 'SLOWDOWN', 'POLICY READ'],
      (Object.keys(RATE_LIMITS) as RateClass[]).map((c) => {
        const k = s.classes[c];
        return [
          c,
          String(k.inFlight),
          k.lastAnswerAgoMs === undefined ? '-' : `${formatDuration(k.lastAnswerAgoMs)} ago`,
          k.blockedForMs > 0 ? formatDuration(k.blockedForMs) : '-',
          k.slowdown === 1 ? '-' : `×${Number(k.slowdown.toFixed(2))}`,
          k.learned ? `${k.learned.limit} per ${formatDuration(k.learned.windowMs)}` : '-',
        ];
      }),
    ),
    '',
  );
  const held = s.running.length + s.startsInFlight;
  lines.push(
    `Running slots: ${held} of ${MAX_RUNNING} held${s.startsInFlight ? ` (${s.startsInFlight} by a start not answered yet)` : ''}.`,
  );
  for (const r of s.running)
    lines.push(
      `  ${r.videoId}${r.lapsesInMs === undefined ? '' : `  free in ${formatDuration(r.lapsesInMs)} at the latest, or when seen finished`}`,
    );
  if (s.fullForMs > 0) lines.push(`The service answered 503: no start for ${formatDuration(s.fullForMs)} more.`);
  // Who waits, and for what: the requests the pacers hold now (every process's, when shared).
  const waiting = s.waiting ?? [];
  lines.push(
    '',
    `Waiting: ${waiting.length ? `${waiting.length} request${waiting.length === 1 ? '' : 's'}` : 'none'}.`,
  );
  if (waiting.length)
    lines.push(
      table(
        ['CLASS', 'REQUEST', 'WAITING FOR', 'SINCE'],
        waiting.map((w) => [
          w.rateClass,
          w.startsVideo ? 'a video start' : 'a read',
          pacingReason(w.reason, w.rateClass, s.classes[w.rateClass].learned),
          `${formatDuration(w.forMs)} ago`,
        ]),
      ),
    );
  return lines.join('\n');
}
