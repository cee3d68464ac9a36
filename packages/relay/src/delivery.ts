// One delivery attempt of an event: Standard Webhooks 1.0 headers signed with every secret in force (the
// `standardwebhooks` package's HMAC-SHA256, `v1,` signatures separated by spaces, so that a receiver
// holding either secret of a rotation verifies), a POST of the fixed body with a deadline, the trace
// context of the attempt's span (W3C `traceparent`). Any 2xx is delivered; anything else, a redirect
// included (a webhook endpoint that moved must be reconfigured, not followed), or no answer in time is a
// failed attempt, retried on the schedule.
import { type Context, context, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import { endHttpSpan, startHttpSpan, traceHeaders } from '@videogen/client';
import { Webhook } from 'standardwebhooks';
import type { PendingEvent } from './store.js';

export { DELIVERY_TIMEOUT_MS, RETRY_SCHEDULE_MS } from './defaults.js';

/** How much of a refusal's body is kept for `--failed` (a receiver's error message). */
const ERROR_BODY_CHARS = 200;

export interface DeliveryTarget {
  url: string;
  /** The secrets to sign with (`whsec_…`): every one, so that a rotation loses no delivery. */
  secrets: string[];
  timeoutMs: number;
  userAgent: string;
  tracer?: Tracer;
}

export interface AttemptOutcome {
  ok: boolean;
  status?: number;
  /** Why it failed, in words (`503: <body>`, `timeout after 15000 ms`, `connection refused`). */
  error?: string;
  ms: number;
}

/** The `webhook-signature` header: one `v1,<base64>` per secret, separated by spaces. */
export function signatures(secrets: string[], id: string, at: Date, body: string): string {
  return secrets.map((s) => new Webhook(s).sign(id, at, body)).join(' ');
}

/**
 * One attempt. `parent` is the video's trace: the attempt is an INTERNAL `relay.deliver` span with the
 * POST a CLIENT span under it, whose context goes out in the `traceparent` header.
 */
export async function attempt(
  target: DeliveryTarget,
  event: PendingEvent,
  videoId: string,
  parent: Context | undefined,
): Promise<AttemptOutcome> {
  const base = parent ?? context.active();
  const deliver = target.tracer?.startSpan(
    `relay.deliver ${event.type}`,
    {
      kind: SpanKind.PRODUCER,
      attributes: {
        'webhook.id': event.id,
        'videogen.event.type': event.type,
        'videogen.video_id': videoId,
        'videogen.delivery.attempt': event.attempts + 1,
      },
    },
    base,
  );
  const ctx = deliver ? trace.setSpan(base, deliver) : base;
  const post = startHttpSpan({ method: 'POST', url: target.url, resendCount: event.attempts }, ctx, target.tracer);
  const at = new Date();
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': target.userAgent,
    'webhook-id': event.id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures(target.secrets, event.id, at, event.body),
    ...traceHeaders(post ? trace.setSpan(ctx, post) : ctx),
  };
  const started = performance.now();
  let outcome: AttemptOutcome;
  try {
    const res = await fetch(target.url, {
      method: 'POST',
      headers,
      body: event.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(target.timeoutMs),
    });
    const ms = performance.now() - started;
    endHttpSpan(post, { status: res.status });
    if (res.ok) {
      await res.body?.cancel();
      outcome = { ok: true, status: res.status, ms };
    } else {
      const text = await readSome(res);
      outcome = { ok: false, status: res.status, ms, error: `${res.status}${text ? `: ${text}` : ''}` };
    }
  } catch (e) {
    const ms = performance.now() - started;
    const timedOut = (e as Error)?.name === 'TimeoutError';
    endHttpSpan(post, { failure: timedOut ? 'timeout' : 'network' });
    const cause = (e as { cause?: { code?: string; message?: string } })?.cause;
    outcome = {
      ok: false,
      ms,
      error: timedOut
        ? `no answer within ${target.timeoutMs} ms`
        : `no answer: ${cause?.code ?? cause?.message ?? (e as Error)?.message}`,
    };
  }
  if (deliver) {
    deliver.setAttribute('videogen.delivery.outcome', outcome.ok ? 'delivered' : 'failed');
    if (!outcome.ok) deliver.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error });
    deliver.end();
  }
  return outcome;
}

/** The first characters of a refusal's body, on one line (the rest is not read). */
async function readSome(res: Response): Promise<string> {
  try {
    const reader = res.body?.getReader();
    if (!reader) return '';
    const { value } = await reader.read();
    await reader.cancel();
    return new TextDecoder()
      .decode(value ?? new Uint8Array())
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, ERROR_BODY_CHARS);
  } catch {
    return '';
  }
}
