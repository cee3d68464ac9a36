// Fuzz: 10,000+ generated requests, valid and invalid, built from the document's parameters and
// schemas with fast-check, plus malformed bytes over raw TCP. No 5xx except the documented
// UNKNOWN_ERROR, every answer of a spec operation valid against the document, and the server alive.
import net from 'node:net';
import fc from 'fast-check';
import pMap from 'p-map';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkResponse, createAjv, listOperations, loadSpec, matchOperation } from '@videogen/openapi';
import { FIXTURES, MAGIC, SANDBOX_KEYS, startSandbox, type RunningSandbox } from '../src/index.js';

const spec = loadSpec();
const ajv = createAjv(spec);
const schemas = spec.components.schemas;
const operations = listOperations(spec);
const limits = (schemas.GenerateVideoRequest['x-upload-limits'] as { fields: Record<string, any> }).fields;
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000);
const RAW = 300;

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    validateResponses: true,
    rateLimits: false, // reach past the rate limits; test/limits.test.ts covers them
    timeScale: 1000, // generations finish in 30 ms, so the concurrency limit does not hide the rest
    accounts: [{ name: 'fuzz', plan: 'business', credits: 1e9, keys: ['sandbox-key-fuzz'] }],
  });
});
afterAll(async () => {
  await sb?.close();
});

// ---- arbitraries from the document ----
const uuid = fc.uuid();
const anyText = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }));
const enumOf = (name: string) => fc.constantFrom(...(schemas[name].enum as string[]));
const keyArb = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.constantFrom(...Object.values(SANDBOX_KEYS), 'sandbox-key-fuzz').map((k) => `Bearer ${k}`),
  },
  { weight: 1, arbitrary: fc.constantFrom(undefined, '', 'Bearer', 'Bearer nope', 'Basic eDp5') },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }).filter((s) => /^[\x20-\x7e]*$/.test(s)) },
);
const seededVideo = fc.constantFrom(...Object.values(FIXTURES).flatMap((f) => Object.values(f.videos)));
const videoIdArb = fc.oneof(
  { weight: 6, arbitrary: seededVideo },
  { weight: 2, arbitrary: uuid },
  { weight: 2, arbitrary: anyText.map((s) => encodeURIComponent(s) || 'x') },
);
const paramValue = (p: any) =>
  p.schema?.type === 'integer'
    ? fc.oneof(
        fc.integer({ min: p.schema.minimum ?? 0, max: 5 }).map(String),
        fc.integer().map(String),
        anyText.map(encodeURIComponent),
      )
    : fc.oneof(uuid, anyText.map(encodeURIComponent));
const conversionBody = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record(
      { language: fc.oneof(enumOf('Language'), anyText), aspect_ratio: fc.oneof(enumOf('AspectRatio'), anyText) },
      { requiredKeys: [] },
    ),
  },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);
const settingArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...Object.values(FIXTURES).flatMap((f) => Object.values(f.settings))) },
  { weight: 1, arbitrary: uuid },
  { weight: 1, arbitrary: anyText },
);
const fileFieldNames = Object.keys(limits);
const extensionArb = fc.oneof(
  fc.constantFrom(
    ...new Set(Object.values(limits).flatMap((l: any) => [...l.extensions.personal, ...l.extensions.business])),
  ),
  fc.constantFrom('.exe', '.PDF', '', '.mp4.txt'),
);
const fileArb = fc.record({
  field: fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...fileFieldNames) },
    { weight: 1, arbitrary: fc.constantFrom('text', 'other') },
  ),
  name: fc
    .tuple(
      fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(MAGIC.fail, MAGIC.realAvatar, MAGIC.unknownError)),
      extensionArb,
    )
    .map(([b, e]) => b + e),
  size: fc.integer({ min: 0, max: 2048 }),
});
const generateForm = fc.record(
  {
    video_setting_id: settingArb,
    text: fc.oneof(
      anyText,
      fc.constantFrom(
        MAGIC.fail,
        MAGIC.expire,
        MAGIC.unknownError,
        MAGIC.voices(['en']),
        '[sandbox:voices=zz]',
        MAGIC.aspectRatio('1:1'),
        '[sandbox:aspect-ratio=3:1]',
      ),
    ),
    files: fc.array(fileArb, { maxLength: 12 }),
  },
  { requiredKeys: [] },
);

interface Req {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | FormData;
}

/** One operation's requests. Built once per operation, not per sample: a new fc.string() costs a millisecond. */
const requestOf = (op: (typeof operations)[number]): fc.Arbitrary<Req> =>
  fc
    .record({
      auth: keyArb,
      params: fc.record(
        Object.fromEntries(op.parameters.map((p: any) => [p.name, p.name === 'video_id' ? videoIdArb : paramValue(p)])),
        { requiredKeys: op.parameters.filter((p: any) => p.required).map((p: any) => p.name) as never[] },
      ),
      conv: conversionBody,
      rawBody: fc.oneof(fc.constant(undefined), anyText),
      contentType: fc.constantFrom('application/json', 'text/plain', 'multipart/form-data; boundary=zz', undefined),
      form: generateForm,
    })
    .map(({ auth, params, conv, rawBody, contentType, form }) => {
      const p = params as Record<string, string>;
      let path = op.path.replace(/\{([^}]+)\}/g, (_m, n) => p[n] ?? 'missing');
      const query = op.parameters
        .filter((x: any) => x.in === 'query' && p[x.name] !== undefined)
        .map((x: any) => `${x.name}=${p[x.name]}`);
      if (query.length) path += `?${query.join('&')}`;
      const headers: Record<string, string> = {};
      if (auth !== undefined) headers.authorization = auth;
      let body: string | FormData | undefined;
      if (op.operationId === 'createConversion') {
        body = rawBody !== undefined && contentType !== 'application/json' ? rawBody : JSON.stringify(conv);
        if (contentType) headers['content-type'] = contentType;
      } else if (op.operationId === 'generateVideo') {
        if (rawBody !== undefined && contentType !== undefined) {
          body = rawBody;
          headers['content-type'] = contentType;
        } else {
          const fd = new FormData();
          if (form.video_setting_id !== undefined) fd.append('video_setting_id', form.video_setting_id);
          if (form.text !== undefined) fd.append('text', form.text);
          for (const f of form.files ?? []) fd.append(f.field, new Blob([new Uint8Array(f.size)]), f.name);
          body = fd;
        }
      }
      return { method: op.method, path: `/v1${path}`, headers, body };
    });
const requestArbs = new Map(operations.map((op) => [op, requestOf(op)]));
const specRequest: fc.Arbitrary<Req> = fc
  .constantFrom(...operations)
  .chain((op) => requestArbs.get(op) ?? requestOf(op));
const offSpecRequest: fc.Arbitrary<Req> = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
  path: fc.oneof(
    fc.constantFrom('/v1/videos/', '/v1/video-settings/', '/v1/', '/docs', '/downloads/x.mp4', '/v1/videos/generate/'),
    anyText.map((s) => `/v1/${encodeURIComponent(s)}`),
  ),
  headers: keyArb.map((k): Record<string, string> => (k ? { authorization: k } : {})),
});
const requestArb = fc.oneof({ weight: 9, arbitrary: specRequest }, { weight: 1, arbitrary: offSpecRequest });

it(`survives ${REQUESTS} generated requests with no undocumented 5xx and no contract violation`, async () => {
  const requests = fc.sample(requestArb, { numRuns: REQUESTS, seed: Number(process.env.FUZZ_SEED ?? 20261121) });
  const problems: string[] = [];
  const statuses = new Map<number, number>();
  await pMap(
    requests,
    async (r) => {
      const res = await fetch(sb.origin + r.path, {
        method: r.method,
        headers: r.headers,
        body: r.method === 'GET' || r.method === 'HEAD' ? undefined : r.body,
        redirect: 'error',
      });
      const text = await res.text();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      let body: any = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON
      }
      const where = `${r.method} ${r.path}`;
      if (
        res.status >= 500 &&
        !(res.status === 500 && body?.error_code === 'UNKNOWN_ERROR' && !/sandbox bug/.test(body.error))
      )
        problems.push(`${where} → ${res.status} ${text.slice(0, 200)}`);
      if (res.status >= 400 && (typeof body?.error_code !== 'string' || typeof body?.error !== 'string'))
        problems.push(`${where} → ${res.status} without the envelope: ${text.slice(0, 200)}`);
      const op = r.path.startsWith('/v1/') ? matchOperation(spec, r.method, r.path.slice(3).split('?')[0]) : undefined;
      if (op) {
        for (const p of checkResponse(ajv, spec, op.operation, {
          status: res.status,
          contentType: res.headers.get('content-type'),
          body,
          headers: res.headers,
        }))
          problems.push(`${where}: ${p.message}`);
      }
    },
    { concurrency: 8 },
  );
  console.log(
    `fuzz: ${requests.length} HTTP requests; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
  );
  expect(problems.slice(0, 20)).toEqual([]);
  expect(sb.violations).toEqual([]);
  expect(statuses.get(200) ?? 0).toBeGreaterThan(REQUESTS / 10);
  expect([...statuses.keys()].some((s) => s >= 400 && s < 500)).toBe(true);
}, 120_000);

it(`survives ${RAW} malformed byte streams over raw TCP`, async () => {
  const valid = `GET /v1/videos/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${SANDBOX_KEYS.acme}\r\n\r\n`;
  const mutated = fc
    .tuple(fc.integer({ min: 0, max: valid.length - 1 }), fc.uint8Array({ minLength: 1, maxLength: 8 }))
    .map(([at, bytes]) =>
      Buffer.concat([Buffer.from(valid.slice(0, at)), Buffer.from(bytes), Buffer.from(valid.slice(at))]),
    );
  const arb = fc.oneof(
    fc.uint8Array({ minLength: 1, maxLength: 300 }).map((b) => Buffer.from(b)),
    mutated,
  );
  const inputs = fc.sample(arb, { numRuns: RAW, seed: 7 });
  const bad: string[] = [];
  await pMap(
    inputs,
    async (bytes) => {
      const answer = await new Promise<string>((resolve) => {
        const s = net.connect(sb.port, '127.0.0.1');
        let out = '';
        const t = setTimeout(() => (s.destroy(), resolve(out)), 500);
        s.on('data', (d) => (out += d.toString('latin1')));
        s.on('error', () => undefined);
        s.on('close', () => (clearTimeout(t), resolve(out)));
        s.end(bytes);
      });
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? 0);
      if (status >= 500) bad.push(`${JSON.stringify(bytes.toString('latin1')).slice(0, 80)} → ${answer.slice(0, 120)}`);
    },
    { concurrency: 8 },
  );
  expect(bad).toEqual([]);
  const alive = await fetch(`${sb.baseUrl}/videos/`, { headers: { authorization: `Bearer ${SANDBOX_KEYS.acme}` } });
  expect(alive.status).toBe(200);
  expect(sb.violations).toEqual([]);
});
