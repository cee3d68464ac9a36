// The receiving side of a relay's webhooks (@videogen/relay): the events it sends, typed, and their
// verification. The interface has no events (6: completion is learned by polling); the relay polls for
// the account and sends each video's terminal state as a Standard Webhooks 1.0 delivery. Verification
// is the `standardwebhooks` package's (HMAC-SHA256 over `id.timestamp.body`, constant-time comparison,
// a 5-minute window against replays), which runs on Node, Bun, Deno and Workers alike.
import { Webhook, WebhookVerificationError as StandardError } from 'standardwebhooks';
import type { components } from '@videogen/openapi/types';
import { WebhookVerificationError } from './errors.js';

type Video = components['schemas']['Video'];

/** The variable a relay reads its signing secrets from, and a receiver its verifying ones. */
export const WEBHOOK_SECRET_VARIABLE = 'VIDEO_WEBHOOK_SECRET';

/** The events a relay sends: one per terminal state of a video. */
export type WebhookEventType = 'video.completed' | 'video.failed' | 'video.expired';

/** What every event's `data` holds. */
export interface VideoEventData {
  video_id: string;
  /** The status the relay read (2.1). */
  status: Video['status'];
  /** A conversion's source video, when the process that created it announced it (a listing cannot tell). */
  source_video_id?: string;
}

/** A video completed: its download address, and when that address stops working when the relay can tell. */
export interface VideoCompletedEvent {
  type: 'video.completed';
  /** When the relay saw the state (ISO 8601, UTC). */
  timestamp: string;
  data: VideoEventData & {
    status: 'completed';
    /** A temporary presigned URL (2.1, 3.2). `client.download(video_id, path)` reads a fresh one. */
    download_url: string;
    /** When `download_url` expires, read from the URL itself where it says (ISO 8601), else null. */
    download_url_expires_at: string | null;
    copyright: Video['copyright'];
  };
}

export interface VideoFailedEvent {
  type: 'video.failed';
  timestamp: string;
  data: VideoEventData & { status: 'failed' };
}

export interface VideoExpiredEvent {
  type: 'video.expired';
  timestamp: string;
  data: VideoEventData & { status: 'expired' };
}

/** A delivery's payload (the request body): `{ type, timestamp, data }`. */
export type WebhookEvent = VideoCompletedEvent | VideoFailedEvent | VideoExpiredEvent;

/** A verified delivery: its payload, and its `webhook-id`, the same on every retry of the event: deduplicate on it. */
export type VerifiedWebhook = WebhookEvent & { id: string };

/** A delivery's headers as frameworks hand them: a `Headers`, Node's `IncomingHttpHeaders`, or a plain record. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/**
 * The secrets to verify with: one `whsec_…` secret, several (an array, or one string with spaces or commas
 * between them, as VIDEO_WEBHOOK_SECRET holds them during a rotation). A delivery signed with any of them passes.
 */
export function webhookSecrets(secret: string | readonly string[]): string[] {
  const list = (typeof secret === 'string' ? secret.split(/[\s,]+/) : [...secret]).filter(Boolean);
  if (list.length === 0)
    throw new WebhookVerificationError(`No webhook secret: pass one, or set ${WEBHOOK_SECRET_VARIABLE}`, {
      error_code: 'WEBHOOK_SECRET_INVALID',
    });
  return list;
}

/**
 * Verifies a delivery and returns its typed event. `body` is the request body exactly as it arrived (read
 * it as text or bytes before any JSON parser touches it: a re-serialised body does not verify), `headers`
 * the request's (`webhook-id`, `webhook-timestamp`, `webhook-signature`), `secret` one or several
 * `whsec_…` secrets. Throws a WebhookVerificationError (`error_code` says why) for anything that does not
 * verify: answer it 400 and act on nothing in it.
 */
export function verifyWebhook(
  body: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeaders,
  secret: string | readonly string[],
): VerifiedWebhook {
  const text =
    typeof body === 'string'
      ? body
      : new TextDecoder().decode(body instanceof ArrayBuffer ? new Uint8Array(body) : body);
  const h = plainHeaders(headers);
  const id = h['webhook-id'];
  if (!id || !h['webhook-timestamp'] || !h['webhook-signature'])
    throw new WebhookVerificationError(
      'Not a webhook delivery: webhook-id, webhook-timestamp or webhook-signature is missing',
      {
        error_code: 'WEBHOOK_HEADERS_MISSING',
      },
    );
  let last: unknown;
  for (const s of webhookSecrets(secret)) {
    let hook: Webhook;
    try {
      hook = new Webhook(s);
    } catch (e) {
      throw new WebhookVerificationError(`The webhook secret is not a whsec_… secret: ${(e as Error).message}`, {
        error_code: 'WEBHOOK_SECRET_INVALID',
      });
    }
    try {
      hook.verify(text, h, { jsonParse: false });
      return { ...eventOf(text), id };
    } catch (e) {
      if (e instanceof WebhookVerificationError) throw e;
      last = e;
      // A timestamp outside the window fails alike for every secret.
      if (e instanceof StandardError && /timestamp|Signature Headers/i.test(e.message)) break;
    }
  }
  const message = (last as Error)?.message ?? 'No matching signature found';
  throw new WebhookVerificationError(`The webhook does not verify: ${message}`, {
    error_code: /timestamp|Signature Headers/i.test(message)
      ? 'WEBHOOK_TIMESTAMP_OUT_OF_RANGE'
      : 'WEBHOOK_SIGNATURE_INVALID',
    cause: last,
  });
}

/** Header names in lower case, one value each (the first of a repeated header). */
function plainHeaders(headers: WebhookHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof (headers as Headers).forEach === 'function' && typeof (headers as Headers).get === 'function') {
    (headers as Headers).forEach((value, name) => {
      out[name.toLowerCase()] = value;
    });
    return out;
  }
  for (const [name, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    const v = Array.isArray(value) ? value[0] : value;
    if (v !== undefined) out[name.toLowerCase()] = v;
  }
  return out;
}

/** The payload of a verified body, checked for what every receiver relies on (`type`, `timestamp`, `data.video_id`). */
function eventOf(text: string): WebhookEvent {
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch {
    throw new WebhookVerificationError('The webhook body is not JSON', { error_code: 'WEBHOOK_PAYLOAD_INVALID' });
  }
  const e = event as { type?: unknown; timestamp?: unknown; data?: { video_id?: unknown } } | null;
  if (
    !e ||
    typeof e !== 'object' ||
    typeof e.type !== 'string' ||
    typeof e.timestamp !== 'string' ||
    typeof e.data?.video_id !== 'string'
  )
    throw new WebhookVerificationError('The webhook body is not an event: { type, timestamp, data: { video_id } }', {
      error_code: 'WEBHOOK_PAYLOAD_INVALID',
    });
  // A type this version does not know (a newer relay) is handed out as it is: switch on `type` and leave
  // the others; refusing it would have the relay retry it for hours.
  return event as WebhookEvent;
}
