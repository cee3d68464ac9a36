// OpenTelemetry, through @opentelemetry/api only: the client bundles no SDK. While the application has
// registered no tracer provider, `activeTracer()` says so and the client makes no span at all (one
// lookup of the global provider per attempt: the per-call cost is measured by the client's bench).
//
// Spans: one CLIENT span per HTTP attempt, with the stable HTTP client semantic conventions; an INTERNAL
// span for each wait on the pacer (`videogen.pacer.wait`) and on a running slot (`videogen.slot.wait`);
// an INTERNAL span around the flows that make a video (`videos.generate`, `conversions.create`) and that
// wait for one (`waitForVideo`, `download`). The context of a create's span is what a relay carries to
// its webhook (W3C `traceparent`), so that one trace runs from the generate to the delivery.
import {
  type Attributes,
  type Context,
  context,
  isSpanContextValid,
  propagation,
  ProxyTracerProvider,
  type Span,
  type SpanContext,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Tracer,
} from '@opentelemetry/api';
import { BASE_PATH, redactUrl } from '@videogen/openapi/rules';

export type { Context, Span } from '@opentelemetry/api';

const NAME = '@videogen/client';
let proxy: Tracer | undefined;

/**
 * The client's tracer while the application has a tracer provider registered; undefined otherwise (then
 * no span is made). A provider registered later is seen from the next call on.
 */
export function activeTracer(name = NAME): Tracer | undefined {
  const provider = trace.getTracerProvider();
  // The API's own proxy until an SDK registers: with no delegate there is nobody to record.
  if (provider instanceof ProxyTracerProvider && provider.getDelegateTracer(name) === undefined) return undefined;
  if (name !== NAME) return trace.getTracer(name);
  return (proxy ??= trace.getTracer(NAME));
}

/** An INTERNAL span for one of the client's flows under `parent` (default: the active context), if tracing. */
export function startFlowSpan(name: string, parent?: Context, attributes?: Attributes): Span | undefined {
  return activeTracer()?.startSpan(name, { kind: SpanKind.INTERNAL, attributes }, parent ?? context.active());
}

/** The context whose parent is `span` (or `parent` itself without a span): the flow's requests are its children. */
export const withSpan = (span: Span | undefined, parent?: Context): Context | undefined =>
  span ? trace.setSpan(parent ?? context.active(), span) : parent;

/** Ends a flow's span: an error sets its status and `error.type` (the error's class name). */
export function endFlowSpan(span: Span | undefined, error?: unknown): void {
  if (!span) return;
  if (error !== undefined) {
    const type = (error as { name?: unknown })?.name;
    span.setAttribute('error.type', typeof type === 'string' ? type : '_OTHER');
    span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
  }
  span.end();
}

/** Runs `fn` inside a flow's span (when tracing), which ends when its promise settles. */
export async function inFlowSpan<T>(
  name: string,
  parent: Context | undefined,
  fn: (ctx: Context | undefined, span: Span | undefined) => Promise<T>,
): Promise<T> {
  const span = startFlowSpan(name, parent);
  try {
    const out = await fn(withSpan(span, parent), span);
    endFlowSpan(span);
    return out;
  } catch (e) {
    endFlowSpan(span, e);
    throw e;
  }
}

/** One HTTP attempt, as the stable HTTP client semantic conventions name it. */
export interface HttpAttempt {
  method: string;
  url: string;
  /**
   * The operation's path template (`/videos/{video_id}/`, the document's) when the URL is the API's:
   * `url.template` is the absolute path's template (`/v1/videos/{video_id}/`), and the span is named after it.
   */
  template?: string;
  /** 0 for the first attempt; 1 and more for the requests sent again (`http.request.resend_count`). */
  resendCount: number;
}

/** The absolute path template of an API URL: its path up to the base path (`/v1`), then the operation's. */
export function absoluteTemplate(url: string, template: string): string {
  const { pathname } = new URL(url);
  const at = pathname.indexOf(`${BASE_PATH}/`);
  return (at >= 0 ? pathname.slice(0, at + BASE_PATH.length) : '') + template;
}

/**
 * The CLIENT span of one HTTP attempt (`GET /v1/videos/{video_id}/`), its request attributes given at
 * its start (samplers read them), or undefined when nothing records. `using`: another tracer (a relay's).
 */
export function startHttpSpan(a: HttpAttempt, parent?: Context, using = activeTracer()): Span | undefined {
  if (!using) return undefined;
  const u = new URL(a.url);
  const template = a.template === undefined ? undefined : absoluteTemplate(a.url, a.template);
  const attributes: Attributes = {
    'http.request.method': a.method,
    // Redacted as every URL the client prints: user, password and every query value (a presigned address).
    'url.full': redactUrl(a.url),
    'server.address': u.hostname.replace(/^\[|\]$/g, ''),
    'server.port': Number(u.port) || (u.protocol === 'https:' ? 443 : 80),
  };
  if (template) attributes['url.template'] = template;
  if (a.resendCount > 0) attributes['http.request.resend_count'] = a.resendCount;
  return using.startSpan(
    template ? `${a.method} ${template}` : a.method,
    { kind: SpanKind.CLIENT, attributes },
    parent ?? context.active(),
  );
}

/**
 * Ends an attempt's span with what it met: the status (an error from 400 on: `error.type` is the status
 * code), or, without an answer, `error.type` the failure (`timeout`, `body-timeout`, `dropped`…).
 */
export function endHttpSpan(span: Span | undefined, outcome: { status?: number; failure?: string }): void {
  if (!span) return;
  const { status, failure } = outcome;
  if (status !== undefined) span.setAttribute('http.response.status_code', status);
  const errorType = status !== undefined ? (status >= 400 ? String(status) : undefined) : (failure ?? '_OTHER');
  if (errorType) {
    span.setAttribute('error.type', errorType);
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

/** A wait that is over, from `start` to `end` (ms since the epoch), as an INTERNAL span. */
export function recordWait(
  name: string,
  parent: Context | undefined,
  start: number,
  end: number,
  attributes: Attributes,
): void {
  activeTracer()
    ?.startSpan(name, { kind: SpanKind.INTERNAL, startTime: start, attributes }, parent ?? context.active())
    .end(end);
}

/**
 * The W3C Trace Context of a context's span (`traceparent`, and `tracestate` when it has one), as
 * headers: what a create hands a relay so that the video's webhook continues the create's trace. The
 * application's own propagator is asked first (it may carry more); `traceparent` is written from the
 * span itself when no propagator wrote it (none registered). Empty when the context holds no valid span.
 */
export function traceHeaders(ctx: Context | undefined): Record<string, string> {
  const carrier: Record<string, string> = {};
  if (!ctx) return carrier;
  propagation.inject(ctx, carrier);
  const sc = trace.getSpanContext(ctx);
  if (!carrier.traceparent && sc && isSpanContextValid(sc)) {
    carrier.traceparent = formatTraceparent(sc);
    const state = sc.traceState?.serialize();
    if (state) carrier.tracestate = state;
  }
  return carrier;
}

/** `00-<trace id>-<span id>-<flags>` (W3C Trace Context, version 00). */
export function formatTraceparent(sc: SpanContext): string {
  const sampled = (sc.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED;
  return `00-${sc.traceId}-${sc.spanId}-${sampled ? '01' : '00'}`;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * The context that `traceparent` (and `tracestate`) headers name, as a remote parent: the application's
 * propagator is asked first; without one, `traceparent` is read as W3C Trace Context says. Headers that
 * name no valid span give `base` unchanged.
 */
export function contextFromTraceHeaders(
  headers: { traceparent?: string; tracestate?: string },
  base: Context = context.active(),
): Context {
  const extracted = propagation.extract(base, headers);
  if (trace.getSpanContext(extracted) !== trace.getSpanContext(base)) return extracted;
  const m = headers.traceparent ? TRACEPARENT.exec(headers.traceparent.trim().toLowerCase()) : null;
  // Version ff is invalid; version 00 has nothing after the flags.
  if (!m || m[1] === 'ff' || (m[1] === '00' && m[5])) return base;
  const sc: SpanContext = {
    traceId: m[2] as string,
    spanId: m[3] as string,
    traceFlags: Number.parseInt(m[4] as string, 16) & TraceFlags.SAMPLED,
    isRemote: true,
  };
  return isSpanContextValid(sc) ? trace.setSpanContext(base, sc) : base;
}
