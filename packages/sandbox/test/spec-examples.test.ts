// Examples are sandbox fixtures: a tool that sends the document's examples to the sandbox
// (Portman, newman, respect, a reader with curl) gets a success, every id an example names is one the
// sandbox knows, the document's links chain on real answers, and every error example is what the
// sandbox answers for the matching bad request. Everything is read from the document: ids, parameters,
// bodies and links; the only table here says how to provoke each error example.
import { openAsBlob } from 'node:fs';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  deref,
  linkParameters,
  listOperations,
  loadSpec,
  type LinkObject,
  type Operation,
  type ResponseObject,
} from '@videogen/openapi';
import { FIXTURES, MAGIC, SANDBOX_KEYS } from '../src/index.js';
import { call, manualClock, sandbox, type Answer } from './helpers.js';

const spec = loadSpec();
const ops = Object.fromEntries(listOperations(spec).map((o) => [o.operationId, o]));
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const KEY = SANDBOX_KEYS.acme; // the documented key; examples name its account's fixtures

// Time moves only when a step says so: one minute before each fresh request frees every rate window
// (10 s) and finishes every generation (30 s), so nothing waits and no limit is met unless provoked.
const clock = manualClock();
const sb = await sandbox({ now: clock.now });
const fresh = () => clock.advance(60_000);

/** A request as a tool builds it from the document: the parameters' examples and one body example. */
interface ExampleRequest {
  op: Operation;
  name: string;
  pathParams: Record<string, string>;
  query: Record<string, string>;
  body?: { json: unknown } | { form: Record<string, string> };
}

function paramsOf(op: Operation, where: string) {
  return Object.fromEntries(
    op.parameters.filter((p) => p.in === where && p.example !== undefined).map((p) => [p.name, String(p.example)]),
  );
}

/** Every request the examples of an operation make: one per body example, or one without a body. */
function exampleRequests(op: Operation): ExampleRequest[] {
  const base = { op, pathParams: paramsOf(op, 'path'), query: paramsOf(op, 'query') };
  const content = deref(spec, op.operation.requestBody)?.content;
  if (!content) return [{ ...base, name: 'parameters' }];
  const out: ExampleRequest[] = [];
  for (const [type, media] of Object.entries<any>(content)) {
    const examples = media.examples
      ? Object.entries<any>(media.examples).map(([n, e]) => [n, e.value] as const)
      : [['schema example', deref(spec, media.schema).example] as const];
    for (const [name, value] of examples)
      out.push({ ...base, name, body: type === 'multipart/form-data' ? { form: value } : { json: value } });
  }
  return out;
}

function urlOf(r: Pick<ExampleRequest, 'op' | 'pathParams' | 'query'>) {
  const path = r.op.path.replace(/\{([^}]+)\}/g, (_, n) => encodeURIComponent(r.pathParams[n]));
  const query = new URLSearchParams(r.query).toString();
  return path + (query ? `?${query}` : '');
}

function formData(fields: Record<string, string>) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return fd;
}

/** Send a request with an account's key (the documented one by default; null: no Authorization header). */
async function send(r: ExampleRequest, key: string | null = KEY): Promise<Answer & { sent: string }> {
  const body = r.body && ('json' in r.body ? { json: r.body.json } : { form: formData(r.body.form) });
  const answer = await call(sb, r.op.method, urlOf(r), { key: key ?? undefined, ...body });
  return { ...answer, sent: `${r.op.method} ${urlOf(r)} ${JSON.stringify(r.body ?? '')}` };
}

/** Every value of the document that sits under `example` or `examples`, with where it is. */
function exampleValues(node: unknown, path: string[] = [], out: Array<{ where: string; value: unknown }> = []) {
  if (Array.isArray(node)) for (const [i, v] of node.entries()) exampleValues(v, [...path, String(i)], out);
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      if (k === 'example') out.push({ where: [...path, k].join('.'), value: v });
      else if (k === 'examples' && v && typeof v === 'object' && !Array.isArray(v))
        for (const [n, e] of Object.entries<any>(v)) out.push({ where: [...path, k, n].join('.'), value: e?.value });
      else exampleValues(v, [...path, k], out);
    }
  return out;
}
const isErrorBody = (v: unknown) => !!v && typeof v === 'object' && 'error_code' in v;
const idsIn = (v: unknown) => [...new Set(JSON.stringify(v).match(UUID) ?? [])];

describe('the requests the document’s examples make', () => {
  const requests = listOperations(spec).flatMap(exampleRequests);

  it('cover every operation', () => {
    expect(new Set(requests.map((r) => r.op.operationId))).toEqual(new Set(Object.keys(ops)));
  });

  it.each(requests.map((r) => [`${r.op.operationId} (${r.name})`, r] as const))(
    '%s answers 2xx, and its links lead to 2xx',
    async (_n, r) => {
      fresh();
      const a = await send(r);
      expect(a.status, `${a.sent} → ${a.text}`).toBeGreaterThanOrEqual(200);
      expect(a.status, `${a.sent} → ${a.text}`).toBeLessThan(300);
      // Follow each link of the answer as a workflow tool does, with the target's own example body.
      const declared = deref<ResponseObject | undefined>(spec, r.op.operation.responses[String(a.status)]);
      for (const [name, l] of Object.entries<any>(declared?.links ?? {})) {
        const link = deref<LinkObject>(spec, l);
        const target = ops[link.operationId as string];
        const pathParams = linkParameters(link, { body: a.body, pathParams: r.pathParams }) as Record<string, string>;
        fresh();
        const next = await send({ ...exampleRequests(target)[0], pathParams });
        expect(next.status, `link ${name} of ${r.op.operationId}: ${next.sent} → ${next.text}`).toBe(200);
      }
    },
  );
});

describe('every id an example names', () => {
  const success = exampleValues(spec).filter((e) => !isErrorBody(e.value));
  const ids = [...new Set(success.flatMap((e) => idsIn(e.value)))];

  async function all(path: string): Promise<any[]> {
    const items: any[] = [];
    for (let page = 1; ; page++) {
      fresh();
      const a = await call(sb, 'GET', `${path}?page=${page}`, { key: KEY });
      expect(a.status).toBe(200);
      items.push(...a.body.results);
      if (!a.body.has_next) return items;
    }
  }

  it('is a video the sandbox answers or a setting it lists, for the documented key', async () => {
    expect(ids.length).toBeGreaterThan(3);
    const settings = new Set((await all('/video-settings/')).map((s) => s.video_setting_id));
    for (const id of ids) {
      if (settings.has(id)) continue;
      fresh();
      const a = await call(sb, 'GET', `/videos/${id}/`, { key: KEY });
      expect(a.status, `the examples name ${id}, which the sandbox does not know`).toBe(200);
    }
  });

  it('shows the fixture as the sandbox has it (a setting’s fields and title, a video’s prompt)', async () => {
    const settings = new Map((await all('/video-settings/')).map((s) => [s.video_setting_id, s]));
    const videos = new Map((await all('/videos/')).map((v) => [v.video_id, v]));
    let compared = 0;
    const visit = (v: unknown): void => {
      if (Array.isArray(v)) {
        for (const item of v) visit(item);
        return;
      }
      if (!v || typeof v !== 'object') return;
      const o = v as Record<string, any>;
      if (o.video_setting_id && o.request_fields) {
        expect({ title: o.title, request_fields: o.request_fields }).toEqual({
          title: settings.get(o.video_setting_id)?.title,
          request_fields: settings.get(o.video_setting_id)?.request_fields,
        });
        compared++;
      }
      if (o.video_id && o.prompt) {
        expect(o.prompt).toBe(videos.get(o.video_id)?.prompt);
        compared++;
      }
      Object.values(o).forEach(visit);
    };
    for (const e of success) visit(e.value);
    expect(compared).toBeGreaterThan(3);
  });
});

// ---- error examples -------------------------------------------------------------------------------
type Provoke = (op: Operation, example: { error_code: string; error: string }) => Promise<Answer>;
const first = (op: Operation) => exampleRequests(op)[0];
const fault = async (kind: string) => {
  const a = await call(sb, 'POST', `${sb.origin}/_sandbox/faults`, { key: KEY, json: { kind } });
  expect(a.status).toBe(200);
};
const withBody = (op: Operation, json: unknown, video_id?: string): ExampleRequest => ({
  ...first(op),
  ...(video_id ? { pathParams: { video_id } } : {}),
  body: { json },
});
const generateForm = (fields: Record<string, string>): ExampleRequest => ({
  ...first(ops.generateVideo),
  body: { form: fields },
});
const settingOfExample = () =>
  (first(ops.generateVideo).body as { form: Record<string, string> }).form.video_setting_id;
const acme = FIXTURES.acme.videos;

let scratch: string | undefined;
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** A file of `size` bytes on disk, sparse, sent as a streamed Blob (no buffer of its size in memory). */
async function bigFile(size: number): Promise<Blob> {
  scratch ??= await mkdtemp(join(tmpdir(), 'spec-examples-'));
  const path = join(scratch, `f${size}`);
  await writeFile(path, '');
  await truncate(path, size);
  return openAsBlob(path);
}

/** How to provoke each error example: by `status code`, then by `operationId status code` where it differs. */
const PROVOKE: Record<string, Provoke> = {
  '401 UNAUTHORIZED': (op) => send(first(op), null),
  '400 INVALID_REQUEST': (op) =>
    op.parameters.some((p) => p.name === 'page')
      ? send({ ...first(op), query: { page: '0' } })
      : send({ ...first(op), pathParams: { video_id: 'not-a-uuid' } }),
  '404 NOT_FOUND': (op, ex) => send({ ...first(op), pathParams: { video_id: ex.error.match(UUID)![0] } }),
  '429 RATE_LIMIT_EXCEEDED': async (op) => {
    await send(first(op));
    return send(first(op)); // the same instant: over any reading of the class's limit
  },
  '503 SERVICE_UNAVAILABLE': async (op) => {
    await fault('503');
    return send(first(op));
  },
  '5XX UNKNOWN_ERROR': async (op) => {
    await fault('500');
    return send(first(op));
  },
  '413 PAYLOAD_TOO_LARGE': (op) =>
    send({ ...first(op), body: { json: { language: 'en', padding: 'x'.repeat(100_000) } } }),
  'generateVideo 400 INVALID_REQUEST': () => send(generateForm({ video_setting_id: settingOfExample() })),
  'generateVideo 400 INVALID_VIDEO_SETTING': (_op, ex) =>
    send(generateForm({ video_setting_id: ex.error.match(UUID)![0], text: 'Explain tides.' })),
  'generateVideo 400 FILE_UPLOAD_ERROR': async () => {
    // The example: a pdf_file over the Personal plan's limit (globex is the Personal account).
    const limit = (spec.components.schemas.GenerateVideoRequest['x-upload-limits'] as any).fields.pdf_file.max_bytes
      .personal;
    const fd = new FormData();
    fd.append('video_setting_id', FIXTURES.globex.settings.pdf);
    fd.append('pdf_file', await bigFile(limit + 1), 'deck.pdf');
    return call(sb, 'POST', '/videos/generate/', { key: SANDBOX_KEYS.globex, form: fd });
  },
  'generateVideo 429 INSUFFICIENT_CREDIT': () =>
    send(
      generateForm({ video_setting_id: FIXTURES.umbrella.settings.text, text: 'Explain tides.' }),
      SANDBOX_KEYS.umbrella,
    ),
  'generateVideo 503 SIMULTANEOUS_GENERATE_LIMIT': async (op) => {
    // Two generations still running (30 s each), spaced beyond class A's 5 s, then a third.
    await send(first(op));
    clock.advance(6_000);
    await send(first(op));
    clock.advance(6_000);
    return send(first(op));
  },
  'generateVideo 5XX UNKNOWN_ERROR': () =>
    send(generateForm({ video_setting_id: settingOfExample(), text: `Explain tides. ${MAGIC.unknownError}` })),
  'createConversion 400 CONVERT_TARGET_REQUIRED': (op) => send(withBody(op, {})),
  'createConversion 400 INVALID_LANGUAGE': (op) => send(withBody(op, { language: 'xx' })),
  'createConversion 400 INVALID_ASPECT_RATIO': (op) => send(withBody(op, { aspect_ratio: '5:4' })),
  'createConversion 400 LANGUAGE_NOT_SUPPORTED_BY_VOICES': (op) =>
    send(withBody(op, { language: 'th' }, acme.limitedVoices)),
  'createConversion 400 CONVERT_NO_CHANGE': (op) => send(withBody(op, { language: 'ja', aspect_ratio: '16:9' })),
  'createConversion 400 SOURCE_VIDEO_NOT_CONVERTIBLE': (op) =>
    send(withBody(op, { language: 'en' }, acme.notConvertible)),
  'createConversion 400 UNSUPPORTED_HEAVY_AVATAR': (op) => send(withBody(op, { language: 'en' }, acme.realAvatar)),
  'createConversion 400 INVALID_REQUEST': (op) => send(withBody(op, [])),
  'createConversion 403 INSUFFICIENT_CREDIT': (op) =>
    send(withBody(op, { language: 'en' }, FIXTURES.initech.videos.convertible), SANDBOX_KEYS.initech),
  'createConversion 429 INSUFFICIENT_CREDIT': (op) =>
    send(withBody(op, { language: 'en' }, FIXTURES.umbrella.videos.convertible), SANDBOX_KEYS.umbrella),
  'createConversion 500 UNKNOWN_ERROR': (op) => send(withBody(op, { language: 'en' }, acme.unknownError)),
  'createConversion 503 SIMULTANEOUS_GENERATE_LIMIT': async (op) => {
    await send(first(op));
    clock.advance(6_000);
    await send(first(op));
    clock.advance(6_000);
    return send(first(op));
  },
};
/** Error examples the sandbox cannot be made to answer, each with its reason. */
const NOT_PRODUCIBLE: Record<string, string> = {
  '403 FORBIDDEN':
    'the sandbox answers every failed authentication with 401 (DECISIONS #29) and has no key restricted to some operations',
};

describe('every error example is what the sandbox answers for the matching bad request', () => {
  const cases = listOperations(spec).flatMap((op) =>
    Object.entries<any>(op.operation.responses)
      .filter(([status]) => !status.startsWith('2'))
      .flatMap(([status, r]) =>
        Object.entries<any>(deref<ResponseObject>(spec, r).content?.['application/json']?.examples ?? {}).map(
          ([name, e]) => ({
            op,
            status,
            name,
            example: e.value,
          }),
        ),
      ),
  );
  const keyOf = (c: (typeof cases)[number]) => `${c.status} ${c.name}`;

  it('each has a way to provoke it, or a reason why there is none', () => {
    expect(cases.length).toBeGreaterThan(40);
    const missing = cases.filter(
      (c) => !PROVOKE[`${c.op.operationId} ${keyOf(c)}`] && !PROVOKE[keyOf(c)] && !NOT_PRODUCIBLE[keyOf(c)],
    );
    expect(missing.map((c) => `${c.op.operationId} ${keyOf(c)}`)).toEqual([]);
    const used = new Set(cases.flatMap((c) => [`${c.op.operationId} ${keyOf(c)}`, keyOf(c)]));
    expect(
      Object.keys({ ...PROVOKE, ...NOT_PRODUCIBLE }).filter((k) => !used.has(k)),
      'entries that match no example',
    ).toEqual([]);
  });

  it.each(cases.filter((c) => !NOT_PRODUCIBLE[keyOf(c)]).map((c) => [`${c.op.operationId} ${keyOf(c)}`, c] as const))(
    '%s',
    async (_n, c) => {
      fresh();
      const provoke = PROVOKE[`${c.op.operationId} ${keyOf(c)}`] ?? PROVOKE[keyOf(c)];
      const a = await provoke(c.op, c.example);
      const status = /^\dXX$/.test(c.status) ? `${String(a.status)[0]}XX` : String(a.status);
      expect({ status, error_code: a.body?.error_code }, a.text).toEqual({
        status: c.status,
        error_code: c.example.error_code,
      });
    },
    60_000,
  );
});
