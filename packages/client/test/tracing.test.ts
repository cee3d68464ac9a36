// Traces through @opentelemetry/api: no span at all while the application registers no tracer provider;
// with OpenTelemetry's SDK and its in-memory exporter, one CLIENT span per HTTP attempt with the stable
// HTTP client semantic conventions, a span per wait on the pacer and for a running slot, and the flows'
// spans, against the sandbox in process.
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { createSandbox, FIXTURES, MAGIC, SANDBOX_KEYS } from '@videogen/sandbox';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { activeTracer, contextFromTraceHeaders, createClient, NotFoundError, traceHeaders } from '../src/index.js';

const sb = await createSandbox();
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const client = () =>
  createClient({ apiKey: SANDBOX_KEYS.acme, baseUrl: sb.baseUrl, fetch: sb.fetch, clock: sb.clock, plan: 'business' });
const { settings, videos } = FIXTURES.acme;
afterAll(async () => {
  trace.disable();
  await sb.close();
});
beforeEach(async () => {
  await sb.reset();
  exporter.reset();
});

const spans = () => exporter.getFinishedSpans();
const parentOf = (s: ReadableSpan | undefined) => s?.parentSpanContext?.spanId;

describe('without a tracer provider', () => {
  it('makes no span and sends as before', async () => {
    trace.disable();
    expect(activeTracer()).toBeUndefined();
    expect((await client().videos.get(videos.convertible)).status).toBe('completed');
    trace.setGlobalTracerProvider(provider);
    expect(spans()).toEqual([]);
    expect(activeTracer()).toBeDefined();
  });
});

describe('with a tracer provider', () => {
  beforeEach(() => {
    trace.setGlobalTracerProvider(provider);
  });

  it('makes one CLIENT span per attempt, named by method and url.template, with the HTTP client conventions', async () => {
    const c = client();
    sb.faults.add('acme', { kind: '500' });
    const root = trace.getTracer('test').startSpan('handler');
    const traceContext = trace.setSpan(context.active(), root);
    await c.videos.get(videos.convertible, { traceContext });
    await expect(c.videos.get('00000000-0000-4000-8000-000000000000', { traceContext })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    root.end();
    const attempts = spans().filter((s) => s.kind === SpanKind.CLIENT);
    expect(attempts.map((s) => s.name)).toEqual([
      'GET /v1/videos/{video_id}/',
      'GET /v1/videos/{video_id}/',
      'GET /v1/videos/{video_id}/',
    ]);
    const [failed, resent, missing] = attempts;
    const host = new URL(sb.baseUrl).hostname;
    expect(failed?.attributes).toEqual({
      'http.request.method': 'GET',
      'url.full': `${sb.baseUrl}/videos/${videos.convertible}/`,
      'url.template': '/v1/videos/{video_id}/',
      'server.address': host,
      'server.port': 443,
      'http.response.status_code': 500,
      'error.type': '500',
    });
    expect(failed?.status.code).toBe(SpanStatusCode.ERROR);
    // The retry is a span of its own, counted as a resend; a success has no error.type.
    expect(resent?.attributes['http.request.resend_count']).toBe(1);
    expect(resent?.attributes['http.response.status_code']).toBe(200);
    expect(resent?.attributes['error.type']).toBeUndefined();
    expect(resent?.status.code).toBe(SpanStatusCode.UNSET);
    expect(missing?.attributes).toMatchObject({ 'http.response.status_code': 404, 'error.type': '404' });
    // All under the caller's span, given as traceContext.
    for (const s of attempts) expect(parentOf(s)).toBe(root.spanContext().spanId);
  });

  it('names an attempt without an answer by its failure, with no status code', async () => {
    sb.faults.add('acme', { kind: 'drop' });
    await client().videos.get(videos.convertible);
    const [dropped, resent] = spans().filter((s) => s.kind === SpanKind.CLIENT);
    expect(dropped?.attributes['http.response.status_code']).toBeUndefined();
    expect(dropped?.attributes['error.type']).toEqual(expect.any(String));
    expect(dropped?.status.code).toBe(SpanStatusCode.ERROR);
    expect(resent?.attributes['http.request.resend_count']).toBe(1);
  });

  it("spans the pacer's waits: the class's spacing, and a start waiting for a running slot", async () => {
    const c = client();
    await c.videos.get(videos.convertible);
    await c.videos.get(videos.convertible);
    const rate = spans().find((s) => s.name === 'videogen.pacer.wait');
    expect(rate?.attributes['videogen.rate_class']).toBe('B');
    expect(rate?.attributes['videogen.pacer.wait_ms']).toBeGreaterThan(0);

    exporter.reset();
    // Three generations at once: the account runs two; the third waits for a slot.
    await Promise.all([1, 2, 3].map((i) => c.videos.generate({ video_setting_id: settings.text, text: `Slot ${i}` })));
    const slot = spans().filter((s) => s.name === 'videogen.slot.wait');
    expect(slot.length).toBeGreaterThan(0);
    expect(slot[0]?.attributes['videogen.rate_class']).toBe('A');
    // Each wait is under its generate's span, before that generate's POST.
    const generates = spans().filter((s) => s.name === 'videos.generate');
    expect(generates).toHaveLength(3);
    expect(generates.map((g) => g.spanContext().spanId)).toContain(parentOf(slot[0]));
  });

  it("spans the flows: waitForVideo's reads and download's, whose presigned address is redacted", async () => {
    const c = client();
    const { video_id } = await c.videos.generate({ video_setting_id: settings.text, text: 'Traced flows' });
    await c.waitForVideo(video_id, { intervalMs: 5_000 });
    await c.download(video_id, join(mkdtempSync(join(tmpdir(), 'vg-trace-')), 'v.mp4'));
    const wait = spans().find((s) => s.name === 'waitForVideo');
    const reads = spans().filter((s) => parentOf(s) === wait?.spanContext().spanId && s.kind === SpanKind.CLIENT);
    expect(reads.length).toBeGreaterThan(1);
    expect(wait?.attributes['videogen.video_id']).toBe(video_id);
    const download = spans().find((s) => s.name === 'download');
    const fetched = spans().find((s) => parentOf(s) === download?.spanContext().spanId && s.name === 'GET');
    expect(fetched?.attributes['url.full']).toMatch(/\/downloads\/[^?]+\.mp4\?([^=&]+=\[redacted\]&?)+$/);
    expect(fetched?.attributes['url.template']).toBeUndefined();
  });

  it('ends a failed flow as an error, named by its error class', async () => {
    const doomed = client().generateAndWait({ video_setting_id: settings.text, text: `Doomed ${MAGIC.fail}` });
    await expect(doomed).rejects.toThrow();
    const wait = spans().find((s) => s.name === 'waitForVideo');
    expect(wait?.status.code).toBe(SpanStatusCode.ERROR);
    expect(wait?.attributes['error.type']).toBe('VideoFailedError');
  });

  it('carries a span as W3C traceparent and reads it back (the relay carries the create to the webhook)', () => {
    const span = trace.getTracer('test').startSpan('create');
    const headers = traceHeaders(trace.setSpan(context.active(), span));
    const { traceId, spanId } = span.spanContext();
    expect(headers.traceparent).toBe(`00-${traceId}-${spanId}-01`);
    const back = trace.getSpanContext(contextFromTraceHeaders(headers));
    expect(back).toMatchObject({ traceId, spanId, isRemote: true });
    for (const bad of ['00-zz', `ff-${traceId}-${spanId}-01`, `00-${'0'.repeat(32)}-${spanId}-01`])
      expect(trace.getSpanContext(contextFromTraceHeaders({ traceparent: bad }, context.active()))).toBeUndefined();
    span.end();
  });
});
