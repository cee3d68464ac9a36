// One trace per video, from the generate that created it to the relay's delivery: the application's
// client, a relay and a receiver in this process, OpenTelemetry's SDK with its in-memory exporter
// registered as the application would (the client and the relay depend on @opentelemetry/api only).
import { SpanKind, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { createClient } from '@videogen/client';
import { FIXTURES, type RunningSandbox, SANDBOX_KEYS } from '@videogen/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRelay } from '../src/index.js';
import { fastRelayOptions, fastSandbox, type Receiver, startReceiver, tempDir, until } from './helpers.js';

const exporter = new InMemorySpanExporter();
let sb: RunningSandbox;
let receiver: Receiver;

beforeAll(async () => {
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  sb = await fastSandbox();
  receiver = await startReceiver();
});
afterAll(async () => {
  trace.disable();
  await receiver?.close();
  await sb?.close();
});

const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;

it('runs one trace from the generate to the webhook, whose traceparent names the delivery', async () => {
  const relay = await createRelay({
    ...fastRelayOptions({ receiverUrl: receiver.url, name: 'traced', baseUrl: sb.baseUrl }),
    stateFile: `${tempDir('tracing')}/state.json`,
    listIntervalMs: 60_000,
    logLevel: 'off',
  });
  // The relay's first listing done before the create: otherwise it may find the video before the announce
  // does (the client and the relay share this process's pacer), and the polls begin in the relay's own trace.
  await until(async () => (await relay.status()).counts.lists > 0, 'the first listing');
  const client = createClient({ apiKey: SANDBOX_KEYS.acme, baseUrl: sb.baseUrl, relayUrl: relay.url });
  const { video_id } = await client.videos.generate({ video_setting_id: FIXTURES.acme.settings.text, text: 'Traced' });
  const delivery = await until(() => receiver.deliveries.find((d) => d.path === '/traced'), 'the delivery');
  await until(() => exporter.getFinishedSpans().some((s) => s.name.startsWith('relay.deliver')), 'the deliver span');
  await relay.stop();

  const spans = exporter.getFinishedSpans();
  const generate = spans.find((s) => s.name === 'videos.generate');
  if (!generate) throw new Error(`no videos.generate span in ${spans.map((s) => s.name)}`);
  const traceId = generate.spanContext().traceId;
  const inTrace = spans.filter((s) => s.spanContext().traceId === traceId);
  const named = (name: string) => inTrace.filter((s) => s.name === name);
  const id = generate.spanContext().spanId;

  expect(generate.attributes['videogen.video_id']).toBe(video_id);
  expect(generate.kind).toBe(SpanKind.INTERNAL);
  // Under the generate: its requests (the setting read, the create, the announce to the relay).
  const create = named('POST /v1/videos/generate/')[0];
  expect(parentOf(create as ReadableSpan)).toBe(id);
  expect(create?.kind).toBe(SpanKind.CLIENT);
  expect(create?.attributes).toMatchObject({
    'http.request.method': 'POST',
    'url.template': '/v1/videos/generate/',
    'http.response.status_code': 200,
    'server.address': '127.0.0.1',
  });
  const announce = inTrace.find((s) => s.name === 'POST' && String(s.attributes['url.full']).endsWith('/announce'));
  expect(parentOf(announce as ReadableSpan)).toBe(id);
  // The relay's status reads: each a relay.poll of the video's trace, with the client's GET under it.
  const polls = named('relay.poll');
  expect(polls.length).toBeGreaterThan(0);
  for (const p of polls) {
    expect(parentOf(p)).toBe(id);
    const get = inTrace.find((s) => parentOf(s) === p.spanContext().spanId && s.kind === SpanKind.CLIENT);
    expect(get?.name).toBe('GET /v1/videos/{video_id}/');
    expect(get?.attributes['url.full']).toBe(`${sb.baseUrl}/videos/${video_id}/`);
  }
  // The delivery: a relay.deliver of the video's trace, its POST under it; the webhook's traceparent is that POST.
  const deliver = named('relay.deliver video.completed')[0];
  expect(parentOf(deliver as ReadableSpan)).toBe(id);
  expect(deliver?.attributes).toMatchObject({
    'webhook.id': delivery.headers['webhook-id'],
    'videogen.delivery.attempt': 1,
    'videogen.delivery.outcome': 'delivered',
  });
  const post = inTrace.find((s) => parentOf(s) === deliver?.spanContext().spanId);
  expect(post?.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.response.status_code': 200 });
  expect(delivery.headers.traceparent).toBe(`00-${traceId}-${post?.spanContext().spanId}-01`);
});
