// fast-check arbitraries derived from the bundled document at run time, per operation: path ids from
// the parameter's schema (format uuid), `page` from its schema (integer, minimum), conversion bodies
// from ConversionRequest's properties (their enums), multipart forms from GenerateVideoRequest's fields
// with x-valid-combinations and x-upload-limits (the rules' constants), headers and Authorization
// variants. Each case carries what the interface says of it, decided by the rules' own oracles:
// `formProblem` (4.1's combinations), `conversionProblem` (7.2's rows in the order of #25).
//
// Why derived here rather than through a JSON Schema bridge: what must be refused lives in the
// extensions (x-valid-combinations, x-upload-limits) and in 7.2's rows, which no bridge reads; a
// multipart form with binary fields is no JSON instance; and negative data needs the meaning of each
// keyword (below a minimum, outside an enum, not a UUID), not only valid instances. The bridges on the
// registry (json-schema-fast-check 0.0.6) generate valid instances of draft-07 only.
import fc from 'fast-check';
import {
  formProblem,
  GENERATE_FIELDS,
  UPLOAD_LIMITS,
  VALID_COMBINATIONS,
  type ConversionSource,
} from '@videogen/openapi/rules';
import { deref, type SchemaObject } from '@videogen/openapi';
import type { Contract } from '../engine/contract.ts';
import type { Auth, Profile, TargetConfig } from '../shapes.ts';
import { UUID } from '../scenarios/videos.ts';
import type { CaseBody, Expectation, FormPart, GeneratedCase } from './cases.ts';
import { conversionRefusal } from './conversions.ts';

export interface GenerationContext {
  contract: Contract;
  target: TargetConfig;
  profile: Profile;
  /** Setting ids by the fields of the combination they take exactly, sorted and joined (`pdf_file+text`). */
  settings: Record<string, string>;
  /** Videos of the main account (configured or discovered), for positive reads and refused conversions. */
  videos: string[];
  /** A convertible video of the main account and its options: the 7.2 rows that depend on the source. */
  source?: { id: string; options: ConversionSource };
}

/** What one operation generates: with the main key what it must refuse and what it allows, and without a usable key. */
export interface OperationArbitraries {
  operationId: string;
  method: string;
  refused?: fc.Arbitrary<GeneratedCase>;
  conforms?: fc.Arbitrary<GeneratedCase>;
  /** POSTs the interface allows: each spends a credit when accepted (only within a credit budget). */
  spends?: fc.Arbitrary<GeneratedCase>;
  keyless?: fc.Arbitrary<GeneratedCase>;
}

const fieldsKey = (fields: readonly string[]) => [...fields].sort().join('+');

/** A valid combination's key for `settings`, with its optional fields (text + image_files has a setting of its own). */
export function combinationKeys(): string[] {
  return VALID_COMBINATIONS.flatMap(([fields, optional]) => {
    const base = fieldsKey(fields);
    return optional.length ? [base, fieldsKey([...fields, ...optional])] : [base];
  });
}

/** Text that URLs and headers carry without a transport reading it as something else (no control character). */
const printable = (s: string) => ![...s].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f);

/** A path id the interface says is no UUID (4.3: "string (UUID)"): answered 400 or 404 (DECISIONS #11). */
const malformedId = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_~-]{1,40}$/).filter((s) => !UUID.test(s)),
  fc.uuid().map((u) => u.slice(0, -1)),
  fc.uuid().map((u) => `${u}0`),
  fc.uuid().map((u) => `g${u.slice(1)}`),
  fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 8 })
    .filter((s) => printable(s) && s.trim() === s && s !== '.' && s !== '..' && !/[/\\?#%]/.test(s) && !UUID.test(s)),
);

/** Values of Accept a JSON API answers JSON to, and an id of the client's own: header variants that change nothing. */
const headerVariants = fc.record(
  {
    accept: fc.constantFrom('application/json', '*/*', 'application/json, */*;q=0.5', 'application/*'),
    'x-request-id': fc.stringMatching(/^[a-z0-9-]{4,24}$/),
  },
  { requiredKeys: [] },
);

/** An Authorization the service cannot accept (5.4: 401 or 403; 401 is our choice, #29). */
function badAuth(checksKeys: boolean): fc.Arbitrary<Auth> {
  const token = fc.stringMatching(/^[A-Za-z0-9._~+-]{8,48}$/);
  const variants: fc.Arbitrary<Auth>[] = [
    fc.constant('none' as const),
    token.map((t) => ({
      header: `Basic ${Buffer.from(`contract:${t}`).toString('base64')}`,
      label: 'a Basic credential',
    })),
    fc
      .constantFrom('Bearer', 'Token', 'bearer-', 'Bearer\t')
      .map((h) => ({ header: h, label: `Authorization ${JSON.stringify(h)}` })),
  ];
  // A mock that checks only that a bearer token is there accepts any token.
  if (checksKeys) variants.push(token.map((t) => ({ header: `Bearer contract-${t}`, label: 'an unknown key' })));
  return fc.oneof(...variants);
}

const refused = (statuses: number[], why: string, extra: Partial<Extract<Expectation, { kind: 'refused' }>> = {}) =>
  ({ kind: 'refused', statuses, why, ...extra }) as const;

const asCase = (
  operationId: string,
  parts: {
    path?: Record<string, string>;
    query?: Record<string, string>;
    headers?: Record<string, string | undefined>;
  },
  auth: Auth,
  expect: Expectation,
  body?: CaseBody,
): GeneratedCase => ({
  operationId,
  path: parts.path ?? {},
  query: parts.query ?? {},
  headers: Object.fromEntries(
    Object.entries(parts.headers ?? {}).filter((e): e is [string, string] => e[1] !== undefined),
  ),
  auth,
  ...(body && { body }),
  expect,
});

/** An integer query parameter (`page`): its schema's minimum and the values below it, or not integers. */
function integerParameter(schema: SchemaObject | undefined) {
  const min = typeof schema?.minimum === 'number' && Number.isInteger(schema.minimum) ? schema.minimum : 0;
  const valid = fc.integer({ min, max: min + 1000 }).map(String);
  const invalid = fc.oneof(
    fc.integer({ min: min - 1000, max: min - 1 }).map((n) => ({ value: String(n), why: `below the minimum ${min}` })),
    fc
      .tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 1, max: 99 }))
      .map(([i, f]) => ({ value: `${i}.${f}`, why: 'not an integer' })),
    fc.stringMatching(/^[A-Za-z]{1,8}$/).map((v) => ({ value: v, why: 'not a number' })),
    fc.stringMatching(/^[0-9]{1,3}[A-Za-z]{1,3}$/).map((v) => ({ value: v, why: 'not an integer' })),
  );
  return { valid, invalid };
}

/** The ConversionRequest's property values: its enum's values, other strings, and values of another type. */
function propertyValues(schema: SchemaObject, contract: Contract) {
  const resolved = deref<SchemaObject | undefined>(contract.spec, schema);
  // (The enums of ConversionRequest's properties are strings: languages, aspect ratios.)
  const allowed = Array.isArray(resolved?.enum) ? (resolved.enum as string[]) : [];
  const valid = allowed.length ? fc.constantFrom(...allowed) : fc.string({ minLength: 1, maxLength: 8 });
  const otherString = fc
    .oneof(
      fc.string({ unit: 'grapheme', maxLength: 12 }),
      // Near misses: a value of the enum in another case, or with a space.
      ...(allowed.length
        ? [fc.constantFrom(...allowed).map((v) => v.toUpperCase()), fc.constantFrom(...allowed).map((v) => ` ${v}`)]
        : []),
    )
    .filter((v) => !allowed.includes(v));
  const otherType = fc.oneof(
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    allowed.length ? fc.array(fc.constantFrom(...allowed), { maxLength: 2 }) : fc.constant([]),
  );
  return { allowed, valid, otherString, otherType };
}

export function operationArbitraries(ctx: GenerationContext): OperationArbitraries[] {
  return ctx.contract.operations.map((op) => {
    const pathParams = op.parameters.filter((p) => p.in === 'path');
    const queryParams = op.parameters.filter((p) => p.in === 'query');
    const content = op.operation.requestBody?.content ?? {};
    const json = content['application/json']?.schema;
    const form = content['multipart/form-data']?.schema;
    const posting = op.method !== 'GET';
    const stateful = ctx.target.stateful;
    // Two lanes with the key: what must be refused, and what is allowed (a failure ends its lane only).
    const keyed: fc.Arbitrary<GeneratedCase>[] = [];
    const allowed: fc.Arbitrary<GeneratedCase>[] = [];

    // Path ids: malformed (400 or 404, #11), unknown (404 NOT_FOUND), known (a success conforms).
    const idParam = pathParams.find(
      (p) => deref<SchemaObject | undefined>(ctx.contract.spec, p.schema)?.format === 'uuid',
    );
    const idName: string | undefined = idParam?.name;
    const knownIds = ctx.videos;
    // A request whose only fault is the id: a body the interface allows (conversions: a valid target).
    const body = json ? conversionBodies(ctx, json, op.operationId, idName) : undefined;
    const validBody: fc.Arbitrary<CaseBody | undefined> = body ? body.valid : fc.constant(undefined);
    if (idName) {
      keyed.push(
        fc
          .record({ id: malformedId, headers: headerVariants, body: validBody })
          .map((r) =>
            asCase(
              op.operationId,
              { path: { [idName]: r.id }, headers: r.headers },
              'key',
              refused([400, 404], `${idName} ${JSON.stringify(r.id)} is not a UUID`),
              r.body,
            ),
          ),
      );
      if (stateful)
        keyed.push(
          fc
            .record({ id: fc.uuid(), headers: headerVariants, body: validBody })
            .map((r) =>
              asCase(
                op.operationId,
                { path: { [idName]: r.id }, headers: r.headers },
                'key',
                refused([404], `no video ${r.id}`, { codes: ['NOT_FOUND'] }),
                r.body,
              ),
            ),
        );
      if (!posting && knownIds.length)
        allowed.push(
          fc.record({ id: fc.constantFrom(...knownIds), headers: headerVariants }).map((r) =>
            asCase(op.operationId, { path: { [idName]: r.id }, headers: r.headers }, 'key', {
              kind: 'conforms',
              why: `a video of the account (${r.id})`,
            }),
          ),
        );
    }
    // Query parameters: an integer (page) valid or not; absent.
    for (const q of queryParams) {
      const schema = deref<SchemaObject | undefined>(ctx.contract.spec, q.schema);
      if (schema?.type !== 'integer') continue;
      const { valid, invalid } = integerParameter(schema);
      keyed.push(
        fc
          .record({ v: invalid, headers: headerVariants })
          .map((r) =>
            asCase(
              op.operationId,
              { query: { [q.name]: r.v.value }, headers: r.headers },
              'key',
              refused([400], `${q.name}=${JSON.stringify(r.v.value)} is ${r.v.why}`),
            ),
          ),
      );
      allowed.push(
        fc.record({ v: fc.option(valid, { nil: undefined }), headers: headerVariants }).map((r) =>
          asCase(op.operationId, { query: r.v === undefined ? {} : { [q.name]: r.v }, headers: r.headers }, 'key', {
            kind: 'conforms',
            why: r.v === undefined ? `no ${q.name}` : `${q.name}=${r.v}`,
          }),
        ),
      );
    }
    if (!idName && !queryParams.length && !posting)
      allowed.push(
        headerVariants.map((h) =>
          asCase(op.operationId, { headers: h }, 'key', { kind: 'conforms', why: 'header variants' }),
        ),
      );
    // Bodies a conforming target refuses, on a video of the account (the rows of 7.2 that depend on it).
    if (body) keyed.push(...body.refused);
    if (form) keyed.push(...formCases(ctx, op.operationId));

    // Without a usable key: every operation refuses (5.4), whatever else the request holds.
    const keylessShape = fc.record({
      auth: badAuth(ctx.target.checksKeys),
      id: knownIds.length ? fc.constantFrom(...knownIds) : fc.uuid(),
      body: form ? validForm(ctx) : validBody,
    });
    const keyless = keylessShape.map((r) =>
      asCase(
        op.operationId,
        { path: idName ? { [idName]: r.id } : {} },
        r.auth,
        refused([401, 403], 'without a usable key', { preferred: 401 }),
        r.body,
      ),
    );
    return {
      operationId: op.operationId,
      method: op.method,
      refused: keyed.length ? fc.oneof(...keyed) : undefined,
      conforms: allowed.length && !posting ? fc.oneof(...allowed) : undefined,
      spends: posting
        ? form
          ? creditForms(ctx, op.operationId)
          : body && idName
            ? body.accepted
            : undefined
        : undefined,
      keyless,
    };
  });
}

/** Conversion bodies: valid targets (for a request whose fault is elsewhere) and the refused ones, per row of 7.2. */
function conversionBodies(
  ctx: GenerationContext,
  schema: SchemaObject,
  operationId: string,
  idName: string | undefined,
) {
  const resolved = deref<SchemaObject | undefined>(ctx.contract.spec, schema);
  const props = resolved?.properties ?? {};
  const names = Object.keys(props);
  const values = Object.fromEntries(names.map((n) => [n, propertyValues(props[n], ctx.contract)]));
  const validTarget = fc
    .record(Object.fromEntries(names.map((n) => [n, values[n].valid])), { requiredKeys: [] })
    .filter((t) => Object.keys(t).length > 0);
  const valid: fc.Arbitrary<CaseBody | undefined> = validTarget.map((value) => ({ kind: 'json', value }));
  const refusedCases: fc.Arbitrary<GeneratedCase>[] = [];
  const sourceId = ctx.source?.id ?? ctx.videos[0];
  if (sourceId && idName && ctx.target.stateful) {
    const source = ctx.source?.options;
    // Any value of each property (or none), and now and then a property the schema does not name.
    const anyValue = (n: string) => fc.oneof(values[n].valid, values[n].otherString, values[n].otherType);
    const target = fc.record(
      {
        ...Object.fromEntries(names.map((n) => [n, anyValue(n)])),
        note: fc.string({ maxLength: 12 }),
      },
      { requiredKeys: [] },
    );
    refusedCases.push(
      fc
        .record({ t: target, headers: headerVariants })
        .map((r) => ({ r, refusal: conversionRefusal(r.t as Record<string, unknown>, source) }))
        // Only what 7.2 refuses whatever the service: a target it accepts would spend a credit.
        .filter((x): x is typeof x & { refusal: NonNullable<typeof x.refusal> } => x.refusal !== undefined)
        .map(({ r, refusal }) => {
          const t = r.t as Record<string, unknown>;
          const wrongType = names.some((n) => t[n] !== undefined && typeof t[n] !== 'string');
          return asCase(
            operationId,
            { path: { [idName]: sourceId }, headers: r.headers },
            'key',
            refused([400], `${JSON.stringify(t)}: ${refusal.why}`, {
              codes: refusal.codes,
              // Another row that applies too: the order of the rows is our decision (#25); a value of
              // another type read as a malformed body is #10's INVALID_REQUEST.
              alsoUnder: {
                codes: [...refusal.others, ...(wrongType ? ['INVALID_REQUEST'] : [])],
                decision: wrongType ? [25, 10] : [25],
              },
            }),
            { kind: 'json', value: t },
          );
        }),
      // A body that is no JSON object (#10: 400 INVALID_REQUEST).
      fc
        .record({
          text: fc.oneof(
            fc.json().filter((j) => {
              const v = JSON.parse(j);
              return v === null || typeof v !== 'object' || Array.isArray(v);
            }),
            fc.constantFrom('{', '{"language":', 'language=en', ''),
          ),
          headers: headerVariants,
        })
        .map((r) =>
          asCase(
            operationId,
            { path: { [idName]: sourceId }, headers: r.headers },
            'key',
            refused([400], `the body ${JSON.stringify(r.text)} is no JSON object`, { codes: ['INVALID_REQUEST'] }),
            {
              kind: 'raw',
              text: r.text,
              contentType: 'application/json',
            },
          ),
        ),
    );
  }
  // Targets the source accepts (a credit each): what its options allow, every combination of the two.
  const { source } = ctx;
  const accepted =
    source && idName && ctx.target.stateful
      ? fc
          .record(
            {
              language: fc.constantFrom(...source.options.available_languages, ...(values.language?.allowed ?? [])),
              aspect_ratio: fc.constantFrom(...(values.aspect_ratio?.allowed ?? [])),
            },
            { requiredKeys: [] },
          )
          .filter((t) => conversionRefusal(t, source.options) === undefined)
          .map((t) =>
            asCase(
              operationId,
              { path: { [idName]: source.id } },
              'key',
              { kind: 'conforms', why: `a conversion to ${JSON.stringify(t)}` },
              {
                kind: 'json',
                value: t,
              },
            ),
          )
      : undefined;
  return { valid, refused: refusedCases, accepted };
}

/** Extensions a field accepts on every plan (the Free plan is read as Personal: x-upload-limits), and on any plan. */
function extensions(field: string) {
  const limits = (UPLOAD_LIMITS as Record<string, { extensions: Record<string, readonly string[]> }>)[field];
  const plans = Object.values(limits?.extensions ?? {});
  const everywhere = plans.length ? plans.reduce((a, b) => a.filter((x) => b.includes(x))) : [];
  const anywhere = [...new Set(plans.flat())];
  return { everywhere: [...everywhere], anywhere };
}

/** Extensions no field of the interface takes, as a tool might upload by mistake. */
const STRAY_EXTENSIONS = ['.txt', '.exe', '.zip', '.gif', '.docx', '.html', '.csv', '.json', '.bin', '.svg'];

const MAX_ITEMS = (UPLOAD_LIMITS.image_files as { maxItems: number }).maxItems;

/** A file part: a name of the field's own extension or of one it never takes, a small size. */
function filePart(field: string, wrong: boolean): fc.Arbitrary<FormPart & { wrong: boolean }> {
  const { everywhere, anywhere } = extensions(field);
  const ext = wrong
    ? fc.constantFrom(...STRAY_EXTENSIONS.filter((e) => !anywhere.some((a) => a.toLowerCase() === e.toLowerCase())))
    : fc.constantFrom(...everywhere);
  const type =
    (UPLOAD_LIMITS as Record<string, { contentType?: string }>)[field]?.contentType ?? 'application/octet-stream';
  return fc
    .record({
      base: fc.oneof(
        fc.stringMatching(/^[A-Za-z0-9 _().-]{1,24}$/),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).filter((s) => printable(s) && !/["\\/]/.test(s)),
      ),
      ext,
      size: fc.integer({ min: 0, max: 2048 }),
      fill: fc.integer({ min: 0, max: 255 }),
    })
    .map((r) => ({ name: field, file: { filename: `${r.base}${r.ext}`, type, size: r.size, fill: r.fill }, wrong }));
}

type SettingChoice =
  | { kind: 'fixture' }
  | { kind: 'missing' }
  | { kind: 'malformed'; value: string }
  | { kind: 'unknown'; value: string };

/** A valid form (for a request whose fault is elsewhere: the key): a valid combination with its setting when known. */
function validForm(ctx: GenerationContext): fc.Arbitrary<CaseBody | undefined> {
  const keys = combinationKeys().filter((k) => ctx.target.kind !== 'prism' || !k.includes('image_files'));
  return fc
    .record({ key: fc.constantFrom(...keys), text: fc.string({ minLength: 1, maxLength: 40 }), unknown: fc.uuid() })
    .chain(({ key, text, unknown }) => {
      const fields = key.split('+');
      const files = fields.filter((f) => f !== 'text').map((f) => filePart(f, false));
      return fc.tuple(...files).map((parts) => ({
        kind: 'form' as const,
        parts: [
          { name: 'video_setting_id', value: ctx.settings[key] ?? unknown },
          ...(fields.includes('text') ? [{ name: 'text', value: text }] : []),
          ...parts.map(({ wrong: _w, ...p }) => p),
        ],
      }));
    });
}

/** Generation forms the interface allows, each with the setting of its combination the run knows: a credit each when accepted. */
function creditForms(ctx: GenerationContext, operationId: string): fc.Arbitrary<GeneratedCase> | undefined {
  const keys = combinationKeys().filter(
    (k) => ctx.settings[k] && (ctx.target.kind !== 'prism' || !k.includes('image_files')),
  );
  if (!keys.length) return undefined;
  return fc
    .record({
      key: fc.constantFrom(...keys),
      text: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 200 }).filter((t) => t.trim().length > 0),
      images: fc.integer({ min: 1, max: MAX_ITEMS }),
      shuffle: fc.boolean(),
    })
    .chain((r) => {
      const fields = r.key.split('+');
      const files = fields
        .filter((f) => f !== 'text')
        .flatMap((f) => Array.from({ length: f === 'image_files' ? r.images : 1 }, () => f));
      return fc.tuple(fc.constant(r), fc.tuple(...files.map((f) => filePart(f, false))));
    })
    .map(([r, files]) => {
      const fields = r.key.split('+');
      const parts: FormPart[] = [{ name: 'video_setting_id', value: ctx.settings[r.key] }];
      if (fields.includes('text')) parts.push({ name: 'text', value: r.text });
      parts.push(...files.map(({ wrong: _w, ...p }) => p));
      if (r.shuffle) parts.reverse();
      return asCase(
        operationId,
        {},
        'key',
        { kind: 'conforms', why: `a valid form: ${fields.join(' + ')}` },
        { kind: 'form', parts },
      );
    });
}

/**
 * Generation forms the interface says must be refused: fields that are no valid combination (4.1), no
 * or a malformed or an unknown setting, a file of an extension its field never takes, more images than
 * the limit. Never one that only our reading of a setting's request_fields refuses (#26: a credit if
 * accepted), nor a valid one (a credit).
 */
function formCases(ctx: GenerationContext, operationId: string): fc.Arbitrary<GeneratedCase>[] {
  const stateful = ctx.target.stateful;
  const prism = ctx.target.kind === 'prism';
  const fieldsArb = fc.subarray([...GENERATE_FIELDS].filter((f) => !prism || f !== 'image_files'));
  const setting: fc.Arbitrary<SettingChoice> = fc.oneof(
    fc.constant({ kind: 'fixture' as const }),
    fc.constant({ kind: 'missing' as const }),
    malformedId.map((value) => ({ kind: 'malformed' as const, value })),
    ...(stateful ? [fc.uuid().map((value) => ({ kind: 'unknown' as const, value }))] : []),
  );
  const knownSettings = Object.entries(ctx.settings);
  const shaped = fc
    .record({
      fields: fieldsArb,
      setting,
      text: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 120 }),
      images: fc.integer({ min: 1, max: MAX_ITEMS + 3 }),
      // Stateless mocks do not check extensions (x-upload-limits is an extension): none wrong there.
      wrongFile: stateful ? fc.option(fc.nat(), { nil: undefined }) : fc.constant(undefined),
      shuffle: fc.boolean(),
      headers: headerVariants,
    })
    .chain((r) => {
      const files = r.fields.filter((f) => f !== 'text');
      const partsOf = files.flatMap((f) => Array.from({ length: f === 'image_files' ? r.images : 1 }, () => f));
      const wrongAt = r.wrongFile === undefined || !partsOf.length ? -1 : r.wrongFile % partsOf.length;
      return fc.tuple(fc.constant(r), fc.tuple(...partsOf.map((f, i) => filePart(f, i === wrongAt))));
    });
  return [
    shaped
      .map(([r, files]) => {
        const fields = r.fields;
        const key = fieldsKey(fields);
        // The setting of exactly these fields when the run knows one, else any known one.
        const fixture = ctx.settings[key] ?? knownSettings[0]?.[1];
        const fixtureFields = ctx.settings[key] ? fields : knownSettings[0]?.[0].split('+');
        const choice: SettingChoice = r.setting.kind === 'fixture' && !fixture ? { kind: 'missing' } : r.setting;
        const codes = new Set<string>();
        const whys: string[] = [];
        let decidedOnly = true;
        const interfaceFault = (code: string, why: string) => {
          codes.add(code);
          whys.push(why);
          decidedOnly = false;
        };
        if (choice.kind === 'missing') interfaceFault('INVALID_REQUEST', 'no video_setting_id');
        if (choice.kind === 'malformed') {
          interfaceFault('INVALID_REQUEST', `video_setting_id ${JSON.stringify(choice.value)} is not a UUID`);
          codes.add('INVALID_VIDEO_SETTING');
        }
        if (choice.kind === 'unknown') interfaceFault('INVALID_VIDEO_SETTING', `no setting ${choice.value}`);
        const combination = formProblem(fields);
        if (combination)
          interfaceFault(
            'INVALID_REQUEST',
            fields.length ? `${fields.join(' + ')} is no valid combination` : 'no input field',
          );
        const wrong = files.find((x) => x.wrong);
        if (wrong) interfaceFault('FILE_UPLOAD_ERROR', `${wrong.name} named ${JSON.stringify(wrong.file?.filename)}`);
        if (fields.includes('image_files') && r.images > MAX_ITEMS)
          interfaceFault('FILE_UPLOAD_ERROR', `${r.images} image_files`);
        // A setting used with other fields (#26) adds its code; alone it is only our decision.
        if (choice.kind === 'fixture' && fixtureFields && formProblem(fields, fixtureFields))
          codes.add('INVALID_VIDEO_SETTING');
        if (decidedOnly) return undefined;
        const parts: FormPart[] = [];
        // (A fixture choice has its setting: without one the choice is 'missing'.)
        if (choice.kind === 'fixture' && fixture) parts.push({ name: 'video_setting_id', value: fixture });
        if (choice.kind === 'malformed' || choice.kind === 'unknown')
          parts.push({ name: 'video_setting_id', value: choice.value });
        if (fields.includes('text')) parts.push({ name: 'text', value: r.text });
        parts.push(...files.map(({ wrong: _w, ...p }) => p));
        if (r.shuffle) parts.reverse();
        return asCase(
          operationId,
          { headers: r.headers },
          'key',
          refused([400], whys.join(', '), { codes: [...codes] }),
          { kind: 'form', parts },
        );
      })
      .filter((c): c is GeneratedCase => c !== undefined),
  ];
}
