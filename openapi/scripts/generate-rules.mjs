// Generates rules/src/generated/constants.ts from the bundled document (dist/openapi.json, written by
// scripts/bundle.mjs): every number and list of the spec's x-* extensions and enums that code needs.
// `node scripts/generate-rules.mjs --check` writes nothing and exits 1 when the file is stale.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { listOperations } from '../lib/index.js';
import { writeOrCheck } from './generated-file.mjs';

const specFile = fileURLToPath(new URL('../dist/openapi.json', import.meta.url));
const outFile = fileURLToPath(new URL('../rules/src/generated/constants.ts', import.meta.url));
const spec = JSON.parse(readFileSync(specFile, 'utf8'));
const S = spec.components.schemas;
const fail = (msg) => {
  console.error(`generate-rules: ${msg}`);
  process.exit(1);
};

const ops = listOperations(spec);
const rateLimits = {};
for (const { operationId, operation: op } of ops) {
  const r = op['x-rate-limit'];
  if (!r) fail(`${operationId} has no x-rate-limit`);
  const entry = { requests: r.requests, windowMs: r.window_seconds * 1000 };
  const seen = rateLimits[r.class];
  if (seen && (seen.requests !== entry.requests || seen.windowMs !== entry.windowMs))
    fail(`class ${r.class} has two limits`);
  rateLimits[r.class] = entry;
}
const operations = ops.map(({ operationId, method, path, operation: op }) => ({
  operationId,
  method,
  path,
  rateClass: op['x-rate-limit'].class,
  startsVideo: Boolean(op['x-concurrency-limit']),
}));
const limits = [
  ...new Set(
    ops.filter((o) => o.operation['x-concurrency-limit']).map((o) => o.operation['x-concurrency-limit'].max_running),
  ),
];
if (limits.length !== 1) fail(`expected one x-concurrency-limit.max_running, found ${limits}`);
const polling = ops.find((o) => o.operation['x-polling'])?.operation['x-polling'];
if (!polling) fail('no operation has x-polling');

// x-retry-policy: rules are read in order; a rule with error_code narrows its status.
const rules = spec['x-retry-policy'].rules;
const rule = (status) => rules.find((r) => r.status === status && !r.error_code);
const r5xx = rule('5XX');
const r503 = rule('503');
const r429 = rule('429');
const retryPolicy = {
  maxRetries: r5xx.max_retries,
  backoff: r5xx.backoff,
  serviceUnavailableDelayMs: [r503.wait_seconds.min * 1000, r503.wait_seconds.max * 1000],
  rateLimitWait: r429.wait,
  // [status, error_code] pairs that are never retried although their status is.
  noRetry: rules.filter((r) => r.error_code && r.retry === false).map((r) => [Number(r.status), r.error_code]),
};

const gen = S.GenerateVideoRequest;
const upl = gen['x-upload-limits'];
const encoding = spec.paths['/videos/generate/'].post.requestBody.content['multipart/form-data'].encoding;
// One content type per file field: the spec's only type, or application/octet-stream when it is allowed.
const contentTypes = Object.fromEntries(
  Object.entries(encoding).map(([f, e]) => {
    const list = e.contentType.split(',').map((s) => s.trim());
    return [
      f,
      list.length === 1 ? list[0] : list.includes('application/octet-stream') ? 'application/octet-stream' : list[0],
    ];
  }),
);
const uploadLimits = Object.fromEntries(
  Object.entries(upl.fields).map(([f, v]) => [
    f,
    {
      extensions: v.extensions,
      maxBytes: v.max_bytes,
      ...(v.max_items ? { maxItems: v.max_items } : {}),
      contentType: contentTypes[f],
    },
  ]),
);
const languageNames = Object.fromEntries(
  S.Language.enum.map((code) => [code, S.Language['x-enumDescriptions']?.[code]]),
);
const unnamed = S.Language.enum.filter((code) => !languageNames[code]);
if (unnamed.length) fail(`x-enumDescriptions of Language has no name for: ${unnamed.join(', ')}`);

// Every error_code a conversion may answer with (the enums/consts of createConversion's responses).
const deref = (n) =>
  n?.$ref
    ? deref(
        n.$ref
          .split('/')
          .slice(1)
          .reduce((o, k) => o[k], spec),
      )
    : n;
// The envelope's own error_code (every code the document knows) says nothing about one status: skipped.
const ENVELOPE = '#/components/schemas/ErrorBody';
const codesOf = (schema) => {
  if (schema?.$ref === ENVELOPE) return [];
  const s = deref(schema);
  if (!s) return [];
  // An opened code is `anyOf: [{ $ref: <an enum of the known codes> }, { type: string }]`: its known
  // codes are the enum branch's.
  const known = (c) => {
    const d = deref(c);
    return d.enum ?? (d.const ? [d.const] : (d.anyOf ?? []).flatMap(known));
  };
  const own = s.properties?.error_code ? known(deref(s.properties.error_code)) : [];
  return [...own, ...(s.allOf ?? []).flatMap(codesOf)];
};
const conversionCodes = {};
for (const [status, res] of Object.entries(spec.paths['/videos/{video_id}/conversions/'].post.responses)) {
  const schema = deref(res).content?.['application/json']?.schema;
  for (const code of codesOf(schema)) (conversionCodes[code] ??= []).push(Number(status) || status);
}
// Path parameters as the document types them (every operation's, one schema per name): the rules check a
// value against them before a client puts it in a path. Only `type` and `format` are carried; a keyword
// the rules would not check fails here, so that a change of the document is not silently half-enforced.
const pathParameters = {};
for (const { operationId, parameters } of ops) {
  for (const p of parameters.filter((p) => p.in === 'path')) {
    const { type, format, ...rest } = deref(p.schema) ?? {};
    const unchecked = Object.keys(rest).filter((k) => !['description', 'example', 'examples'].includes(k));
    if (type !== 'string' || unchecked.length)
      fail(
        `path parameter ${p.name} of ${operationId}: only a string with a format is checked (has ${unchecked.join(', ') || type})`,
      );
    const entry = { type, ...(format && { format }) };
    const seen = pathParameters[p.name];
    if (seen && JSON.stringify(seen) !== JSON.stringify(entry)) fail(`path parameter ${p.name} is typed two ways`);
    pathParameters[p.name] = entry;
  }
}
const pageSize = S.PageEnvelope.properties.items_per_page.const;
if (!Number.isInteger(pageSize)) fail('PageEnvelope.items_per_page has no const');
const production = spec.servers.find((s) => s.url.startsWith('https:')).url;
const basePath = new URL(production).pathname.replace(/\/$/, '');

const j = (v) => JSON.stringify(v);
const out = `// generated, do not edit: written by openapi/scripts/generate-rules.mjs from openapi/dist/openapi.json
// (spec ${spec.info.version}). Change openapi/openapi.yaml, then \`npm run build -w @videogen/openapi\`.
/* eslint-disable */

/** x-rate-limit classes, per account. */
export const RATE_LIMITS = ${j(rateLimits)} as const;
export type RateClass = keyof typeof RATE_LIMITS;
/** x-concurrency-limit.max_running: videos generated (or converted) in parallel per account. */
export const MAX_RUNNING = ${limits[0]};
/** components.schemas.PageEnvelope.items_per_page (fixed page size of list endpoints). */
export const PAGE_SIZE = ${pageSize};
/** x-polling of getVideo. */
export const POLLING = ${j({ intervalMs: polling.interval_seconds * 1000, timeoutMs: polling.timeout_seconds * 1000, until: polling.until })} as const;
/** x-retry-policy: retries of a 5xx, the wait on a 503 without Retry-After, the 429 wait, and the (status, code) pairs never retried. */
export const RETRY_POLICY = ${j(retryPolicy)} as const;
/** x-plans, and the plan whose upload limits each one uses (x-upload-limits.plans). */
export const PLANS = ${j(spec['x-plans'].values)} as const;
export type Plan = (typeof PLANS)[number];
export const PLAN_LIMITS_AS = ${j(upl.plans)} as const;
/** x-upload-limits of generateVideo (bytes), with the part content type from its encoding. */
export const UPLOAD_LIMITS = ${j(uploadLimits)} as const;
/** x-valid-combinations of generateVideo as [fields, optional fields] (each also with video_setting_id). */
export const VALID_COMBINATIONS = ${j(gen['x-valid-combinations'].map((c) => [c.fields, c.optional ?? []]))} as const;
/** x-valid-combinations with their input mode names. */
export const INPUT_MODES = ${j(gen['x-valid-combinations'].map((c) => ({ mode: c.mode, fields: c.fields, optional: c.optional ?? [] })))} as const;
/** components.schemas.GenerateFieldName: the form fields of generateVideo a setting may list. */
export const GENERATE_FIELDS = ${j(S.GenerateFieldName.enum)} as const;
/** components.schemas.Language (34 codes), and their English names (x-enumDescriptions). */
export const LANGUAGES = ${j(S.Language.enum)} as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = ${j(languageNames)};
/** components.schemas.AspectRatio. */
export const ASPECT_RATIOS = ${j(S.AspectRatio.enum)} as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];
/** components.schemas.VideoState. */
export const VIDEO_STATUSES = ${j(S.VideoState.enum)} as const;
export type VideoStatus = (typeof VIDEO_STATUSES)[number];
/** components.schemas.ErrorCode: every documented error code. */
export const ERROR_CODES = ${j(S.ErrorCode.enum)} as const;
/** error_code → the statuses createConversion declares it under. */
export const CONVERSION_ERROR_CODES = ${j(conversionCodes)} as const;
export type ConversionErrorCode = keyof typeof CONVERSION_ERROR_CODES;
/** The production server (servers), and the base path every operation path is relative to. */
export const PRODUCTION_BASE_URL = ${j(production)};
export const BASE_PATH = ${j(basePath)};
/** Every path parameter of the operations, as the document types it (its schema's type and format). */
export const PATH_PARAMETERS = ${j(pathParameters)} as const;
export type PathParameterName = keyof typeof PATH_PARAMETERS;
/** One entry per operation (openapi/lib listOperations): its rate class, and whether it starts a video (x-concurrency-limit). */
export const OPERATIONS = ${j(operations)} as const;
export type OperationId = (typeof OPERATIONS)[number]['operationId'];
`;

writeOrCheck(outFile, out);
