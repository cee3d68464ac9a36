// Before a start (a generation or a conversion): are the account's running slots (8.2: MAX_RUNNING,
// shared by generations and conversions) all held? The answer is read from the account's pacing schedule
// (client.schedule(): this process's, or every process's with VIDEO_API_PACING_URL), not by sending the
// start and meeting 503. A slot the schedule still counts may belong to a video that has finished since:
// its status is read first (a class-B request, which frees the slot in the schedule when it is over).
import type { ScheduleSnapshot, VideoClient } from '@videogen/client';
import { MAX_RUNNING } from '@videogen/openapi/rules';
import { ToolProblem } from './answers.js';

const held = (s: ScheduleSnapshot) => s.running.length + s.startsInFlight;
const full = (s: ScheduleSnapshot) => held(s) >= MAX_RUNNING || s.fullForMs > 0;

/**
 * Throws a SLOTS_BUSY problem when the account cannot start a video now; else returns. Without a schedule
 * to read (a client given `pacing: false`, or a shared schedule whose Redis does not answer: the client
 * then paces alone), the start is sent and the service's answer decides.
 */
export async function ensureFreeSlot(client: VideoClient, signal?: AbortSignal): Promise<void> {
  let schedule = await client.schedule().catch(() => undefined);
  if (!schedule || !full(schedule)) return;
  const statuses = new Map<string, string>();
  for (const { videoId } of schedule.running) {
    const video = await client.videos.get(videoId, { signal }).catch(() => undefined);
    if (video) statuses.set(videoId, video.status);
  }
  schedule = await client.schedule().catch(() => undefined);
  if (!schedule || !full(schedule)) return;
  throw busy(schedule, statuses);
}

function busy(s: ScheduleSnapshot, statuses: Map<string, string>): ToolProblem {
  const running = s.running.map((r) => ({
    video_id: r.videoId,
    ...(statuses.has(r.videoId) && { status: statuses.get(r.videoId) }),
  }));
  const ids = running.map((r) => r.video_id);
  const fullFor = Math.ceil(s.fullForMs / 1000);
  const what =
    s.fullForMs > 0 && held(s) < MAX_RUNNING
      ? `The service answered 503 SIMULTANEOUS_GENERATE_LIMIT to a start of this account: it runs ${MAX_RUNNING} videos started elsewhere, and asks for no start for ${fullFor} s more.`
      : `All ${MAX_RUNNING} running slots of the account are busy${ids.length ? `: ${ids.join(' and ')}` : ''}${s.startsInFlight ? ` (${s.startsInFlight} held by a start not answered yet)` : ''}.`;
  const next = ids.length
    ? `call wait_for_video with video_id ${ids[0]} (it answers when the video finishes), then start again.`
    : `wait ${Math.max(fullFor, 1)} s, then start again.`;
  return new ToolProblem(
    'SLOTS_BUSY',
    `${what} Nothing was sent: a start now would be refused with 503 SIMULTANEOUS_GENERATE_LIMIT. A slot frees when one of the running videos finishes.`,
    next,
    {
      running,
      max_running: MAX_RUNNING,
      ...(s.fullForMs > 0 && { retry_after_seconds: fullFor }),
      schedule_scope: s.scope,
    },
  );
}
