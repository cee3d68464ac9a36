// The events a relay makes: one per terminal state of a video, its `webhook-id` derived from the account,
// the video and the type (so every relay, every retry and every replay of one event carries the same id,
// and no two events share one), and its body fixed when it is made (a Standard Webhooks thin payload:
// `{ type, timestamp, data }`, the client's typed WebhookEvent).
import { createHash } from 'node:crypto';
import type { Video, WebhookEvent, WebhookEventType } from '@videogen/client';
import type { PendingEvent } from './store.js';

/** The terminal states (2.1; DECISIONS 3: `expired` is terminal too) and the event each makes. */
export const EVENT_OF: Partial<Record<Video['status'], WebhookEventType>> = {
  completed: 'video.completed',
  failed: 'video.failed',
  expired: 'video.expired',
};

/**
 * The event's `webhook-id`: `msg_` and 32 hex digits of SHA-256 over the account, the video and the type.
 * The same event has the same id whichever relay makes it, however often (a relay that lost its state
 * makes it again with the same id: a receiver that deduplicates on it sees it once).
 */
export function eventId(account: string, videoId: string, type: WebhookEventType): string {
  return `msg_${createHash('sha256').update(`${account}\n${videoId}\n${type}`).digest('hex').slice(0, 32)}`;
}

/**
 * When a presigned download URL stops working, read from the URL itself where its form says (the
 * interface says only that it expires, 2.1): AWS SigV4 (`X-Amz-Date` + `X-Amz-Expires`), Google Cloud
 * Storage V4 (`X-Goog-Date` + `X-Goog-Expires`), Azure SAS (`se`), CloudFront and S3 SigV2 (`Expires`,
 * seconds), and a plain `expires` (seconds, or milliseconds as the sandbox signs). Undefined otherwise.
 */
export function downloadUrlExpiry(url: string): Date | undefined {
  let q: URLSearchParams;
  try {
    q = new URL(url).searchParams;
  } catch {
    return undefined;
  }
  const get = (name: string) => {
    for (const [k, v] of q) if (k.toLowerCase() === name.toLowerCase()) return v;
    return undefined;
  };
  const basic = (stamp: string | undefined) => {
    // 20260127T093000Z
    const m = stamp && /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(stamp);
    return m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) : undefined;
  };
  for (const [date, expires] of [
    ['X-Amz-Date', 'X-Amz-Expires'],
    ['X-Goog-Date', 'X-Goog-Expires'],
  ]) {
    const start = basic(get(date));
    const seconds = Number(get(expires));
    if (start !== undefined && Number.isFinite(seconds) && seconds > 0) return new Date(start + seconds * 1000);
  }
  const se = get('se');
  if (se && get('sig')) {
    const t = Date.parse(se);
    if (Number.isFinite(t)) return new Date(t);
  }
  const plain = get('expires');
  if (plain && /^\d{9,16}$/.test(plain)) {
    const n = Number(plain);
    // Seconds until the year 33658; milliseconds after.
    return new Date(n < 1e12 ? n * 1000 : n);
  }
  return undefined;
}

/** What a video's event says, from the status view the relay read. */
export function eventPayload(type: WebhookEventType, video: Video, at: Date, source?: string): WebhookEvent {
  const base = { video_id: video.video_id, ...(source && { source_video_id: source }) };
  const timestamp = at.toISOString();
  switch (type) {
    case 'video.completed':
      return {
        type,
        timestamp,
        data: {
          ...base,
          status: 'completed',
          download_url: video.download_url,
          download_url_expires_at: downloadUrlExpiry(video.download_url)?.toISOString() ?? null,
          copyright: video.copyright,
        },
      };
    case 'video.failed':
      return { type, timestamp, data: { ...base, status: 'failed' } };
    case 'video.expired':
      return { type, timestamp, data: { ...base, status: 'expired' } };
  }
}

/** A new event for a video, due now. */
export function makeEvent(
  account: string,
  type: WebhookEventType,
  video: Video,
  now: number,
  source?: string,
): PendingEvent {
  return {
    id: eventId(account, video.video_id, type),
    type,
    body: JSON.stringify(eventPayload(type, video, new Date(now), source)),
    attempts: 0,
    nextAt: now,
    madeAt: now,
  };
}
