// The boundary phase's requests, derived from the document at run time, each with its oracle: for every
// parameter and body field the document declares, the values at its edges (edges.ts) and what the
// interface says of them (the schema, the rules' formProblem and conversionProblem, UPLOAD_LIMITS):
// refused (a 4xx in the envelope, never a success or a 5xx), allowed (whatever answers conforms), or
// accepted (a success, then followed to a terminal status: a credit each, only in the full profile).
//
// Deterministic: the same document, target and fixtures give the same requests in the same order.
// Dense: a request carries one class of input per field, and a refused request carries valid values of
// the other fields (every language rides with an aspect ratio the service must refuse), so that the
// phase sends every value and near miss in fewer requests than one each; a failing request is shrunk
// to its parts, one class each (BoundaryCase.parts), so a failure names the one class that fails.
import { ASPECT_RATIOS, conversionProblem, type ConversionSource, UPLOAD_LIMITS } from '@videogen/openapi/rules';
import { deref, type SchemaObject } from '@videogen/openapi';
import type { Contract } from '../engine/contract.ts';
import type { Profile, TargetConfig } from '../shapes.ts';
import { combinationKeys } from './arbitraries.ts';
import type { CaseBody, Expectation, FormPart, GeneratedCase } from './cases.ts';
import { conversionRefusal } from './conversions.ts';
import { enumEdges, integerEdges, nearMisses, otherTypes, shapeOf, stringEdges, type Edge } from './edges.ts';
import {
  extensionsOf,
  formVerdict,
  MAX_IMAGES,
  maxBytesOf,
  UPLOAD_PLANS,
  type FileField,
  type FormContext,
  type UploadPlan,
} from './form-oracle.ts';

/** `edge`: always sent; `value`: the other enum values and combinations, sent when the target's pace leaves room. */
export type Tier = 'edge' | 'value';

export interface BoundaryCase {
  /** The classes of input it carries, `field: class` (`page: 2^31`). */
  classes: string[];
  tier: Tier;
  case: GeneratedCase;
  /** Smaller requests, one class each, that a failure of this one is shrunk to. */
  parts: BoundaryCase[];
  /** The key it goes with: another account's shows that plan's upload limits. */
  account: 'main' | 'other';
  /** An upload of megabytes: only against a sandbox or within a credit budget. */
  heavy?: boolean;
}

/** What the phase knows of the target before it builds its requests. */
export interface BoundaryContext {
  contract: Contract;
  target: Pick<TargetConfig, 'kind' | 'stateful'>;
  profile: Profile;
  /** Setting ids by the fields of the combination they take exactly, sorted and joined (`pdf_file+text`). */
  settings: Record<string, string>;
  /** Videos of the main account (a known id for reads, a source for refused conversions). */
  videos: string[];
  /** A convertible video and its options (the rows of 7.2 that depend on the source; the accepted conversion). */
  source?: { id: string; options: ConversionSource };
  /** The plan of each account's key, when the run knows it (CONTRACT_ACCOUNT_PLAN, the sandbox's accounts). */
  plans: { main?: UploadPlan; other?: UploadPlan };
  /** A key of another account (its plan's upload limits). */
  otherKey: boolean;
  /** Uploads at and past the plans' limits (megabytes): only against a sandbox or within a credit budget. */
  sizes: boolean;
}

/** Ids no service has: fixed, so that the phase sends the same requests on every run. */
export const UNKNOWN_SETTING = 'b0a1d000-0000-4000-8000-00000000000e';
export const UNKNOWN_VIDEO = 'b0a1d000-0000-4000-8000-00000000000f';
export const NIL_UUID = '00000000-0000-0000-0000-000000000000';

const refused = (statuses: number[], why: string, extra: Partial<Extract<Expectation, { kind: 'refused' }>> = {}) =>
  ({ kind: 'refused', statuses, why, ...extra }) as const;
const conforms = (why: string): Expectation => ({ kind: 'conforms', why });

function single(
  operationId: string,
  classes: string[],
  tier: Tier,
  c: Omit<GeneratedCase, 'operationId' | 'auth' | 'headers'> & Partial<Pick<GeneratedCase, 'auth' | 'headers'>>,
  extra: Partial<BoundaryCase> = {},
): BoundaryCase {
  return {
    classes,
    tier,
    case: { operationId, auth: 'key', headers: {}, ...c },
    parts: [],
    account: 'main',
    ...extra,
  };
}

/** `page` on the query: its edges, one request each (class B), and the value given twice. */
function queryCases(operationId: string, name: string, schema: SchemaObject): BoundaryCase[] {
  const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  const { allowed, refused: out, open } = integerEdges(min, max);
  const q = (v: string | string[]) => ({ [name]: v }) as Record<string, string | string[]>;
  const why = (e: Edge) => `${name}=${JSON.stringify(e.value)} (${e.cls})`;
  return [
    ...allowed.map((e) =>
      single(operationId, [`${name}: ${e.cls}`], 'edge', { path: {}, query: q(e.value), expect: conforms(why(e)) }),
    ),
    ...out.map((e) =>
      single(operationId, [`${name}: ${e.cls}`], 'edge', {
        path: {},
        query: q(e.value),
        expect: refused([400], `${why(e)} is outside the schema`),
      }),
    ),
    ...open.map((e) =>
      single(operationId, [`${name}: ${e.cls}`], 'edge', { path: {}, query: q(e.value), expect: conforms(why(e)) }),
    ),
    single(operationId, [`${name}: given twice`], 'edge', {
      path: {},
      query: q([String(min ?? 1), String((min ?? 1) + 1)]),
      expect: conforms(`${name} given twice`),
    }),
  ];
}

/** A path id (format uuid): known, unknown, the nil UUID, in another case, malformed in every way an id can be. */
function pathIdCases(ctx: BoundaryContext, operationId: string, name: string, posting: boolean, body?: CaseBody) {
  const known = ctx.videos[0];
  const out: BoundaryCase[] = [];
  const at = (id: string, cls: string, expect: Expectation, tier: Tier = 'edge') =>
    out.push(single(operationId, [`${name}: ${cls}`], tier, { path: { [name]: id }, query: {}, expect, body }));
  const malformed = (why: string) => refused([400, 404], `${name} ${why} is not a UUID (DECISIONS #11: 400 or 404)`);
  if (ctx.target.stateful)
    at(UNKNOWN_VIDEO, 'unknown', refused([404], `no video ${UNKNOWN_VIDEO}`, { codes: ['NOT_FOUND'] }));
  // A POST sends its path's edges only where it must: the GETs of the same path carry the rest.
  if (posting) return out;
  if (ctx.target.stateful)
    at(NIL_UUID, 'the nil UUID', refused([400, 404], `${name} ${NIL_UUID}: no video (a UUID of no version)`));
  if (known) {
    at(known, 'a video of the account', conforms(`a video of the account (${known})`));
    // A UUID is read case-insensitively (RFC 9562); a service may not: either answer conforms.
    at(known.toUpperCase(), 'upper case', conforms(`${known.toUpperCase()} (upper case)`));
    at(known.replace(/-/g, ''), 'without hyphens', conforms(`${known} without its hyphens`));
    at(` ${known} `, 'surrounding spaces', conforms(`${known} with surrounding spaces`));
    at(`${known}0`, 'one character too many', malformed(`${known}0`));
    at(`ü${known.slice(1)}`, 'non-ASCII', malformed(`ü${known.slice(1)}`));
  }
  at('a', 'one character', malformed('"a"'));
  at('a'.repeat(1000), 'very long (1000 characters)', malformed('of 1000 characters'));
  at('null', 'another JSON type', malformed('"null"'));
  return out;
}

/** A conversion body's property: its enum values (edge and rest) and their near misses, and the other edges. */
function propertyEdges(values: readonly string[]) {
  const { edge, rest } = enumEdges(values);
  // Near misses by shape: every kind (case, spaces, typo) of the first value, and of each other edge
  // value the kinds whose result differs in shape (a mixed case, a region code's typo).
  const seen = new Set<string>();
  const misses = (list: readonly string[]) =>
    list.flatMap((v) =>
      nearMisses(v, values).filter((m) => {
        // Spaces are one class whatever the value; a case or a typo differs with the value's shape.
        const key = m.cls === 'surrounding spaces' ? m.cls : `${m.cls}|${shapeOf(m.value)}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      }),
    );
  // Not every near miss of every value: one of `fi` differs from one of `fr` in nothing a parser sees.
  return { edge, rest, edgeMisses: misses(edge) };
}

type Item = { value: unknown; cls: string; valid: boolean };

/**
 * Rows of a two-or-more-field body: each row one item per field, at least one of them one the service
 * must refuse, so that no row is accepted (no credit) and every valid value still rides in one.
 */
function pairRows(
  fields: string[],
  items: Record<string, { valid: Item[]; invalid: Item[] }>,
): Array<Record<string, Item>> {
  if (!fields.length) return [];
  const seqs = fields.map((f, i) =>
    // Invalid first in the first field, valid first in the others: a valid value meets an invalid one.
    i === 0 ? [...items[f].invalid, ...items[f].valid] : [...items[f].valid, ...items[f].invalid],
  );
  const rows = Math.max(...seqs.map((s) => s.length));
  const out: Array<Record<string, Item>> = [];
  for (let r = 0; r < rows; r++) {
    const row: Record<string, Item> = {};
    fields.forEach((f, i) => {
      const s = seqs[i];
      if (s.length) row[f] = s[r % s.length];
    });
    if (Object.values(row).every((x) => x.valid)) {
      // Every item valid: the last field takes one of its near misses instead.
      const f = fields[fields.length - 1];
      const inv = items[f].invalid;
      if (inv.length) row[f] = inv[r % inv.length];
      else continue;
    }
    out.push(row);
  }
  return out;
}

function conversionCases(
  ctx: BoundaryContext,
  operationId: string,
  idName: string,
  schema: SchemaObject,
): BoundaryCase[] {
  const resolved = deref<SchemaObject | undefined>(ctx.contract.spec, schema);
  const props = resolved?.properties ?? {};
  const fields = Object.keys(props);
  const sourceId = ctx.source?.id ?? ctx.videos[0];
  if (!ctx.target.stateful || !sourceId || !fields.length) return [];
  const options = ctx.source?.id === sourceId ? ctx.source.options : undefined;
  const enums = Object.fromEntries(
    fields.map((f) => {
      const s = deref<SchemaObject | undefined>(ctx.contract.spec, props[f]);
      return [f, Array.isArray(s?.enum) ? (s.enum as string[]).filter((v) => typeof v === 'string') : []];
    }),
  );
  const edges = Object.fromEntries(fields.map((f) => [f, propertyEdges(enums[f])]));
  const make = (
    tier: Tier,
    body: Record<string, unknown>,
    classes: string[],
    extra: { raw?: string; reading?: Record<string, unknown> } = {},
  ): BoundaryCase => {
    // A body read two ways (a property given twice): a refusal of either reading fits.
    const readings = [body, ...(extra.reading ? [extra.reading] : [])].map((b) => conversionRefusal(b, options));
    const refusal = readings.every(Boolean)
      ? readings.reduce((a, b) =>
          a && b
            ? {
                codes: [...new Set([...a.codes, ...b.codes])],
                others: [...new Set([...a.others, ...b.others])],
                why: a.why,
              }
            : a,
        )
      : undefined;
    const wrongType = fields.some((f) => body[f] !== undefined && typeof body[f] !== 'string');
    const allNull = fields.every((f) => body[f] === null);
    const expect: Expectation = refusal
      ? refused([400], `${extra.raw ?? JSON.stringify(body)}: ${refusal.why}`, {
          // null for every target may be read as no target at all (7.2 CONVERT_TARGET_REQUIRED).
          codes: [...refusal.codes, ...(allNull ? ['CONVERT_TARGET_REQUIRED'] : [])],
          alsoUnder: {
            codes: [...refusal.others, ...(wrongType ? ['INVALID_REQUEST'] : [])],
            decision: wrongType ? [25, 10] : [25],
          },
        })
      : conforms(JSON.stringify(body));
    const caseBody: CaseBody = extra.raw
      ? { kind: 'raw', text: extra.raw, contentType: 'application/json' }
      : { kind: 'json', value: body };
    return single(operationId, classes, tier, { path: { [idName]: sourceId }, query: {}, body: caseBody, expect });
  };
  /** A row's request, with one part per class it carries (the field alone with the others left out, when still refused). */
  const rowCase = (tier: Tier, row: Record<string, Item>, more: Record<string, unknown> = {}, moreClass?: string) => {
    const body: Record<string, unknown> = { ...more };
    for (const [f, item] of Object.entries(row)) body[f] = item.value;
    const classes = Object.entries(row).map(([f, item]) => `${f}: ${item.cls}`);
    if (moreClass) classes.push(moreClass);
    const c = make(tier, body, classes);
    for (const [f, item] of Object.entries(row))
      if (!item.valid && classes.length > 1) c.parts.push(make(tier, { [f]: item.value }, [`${f}: ${item.cls}`]));
    return c;
  };
  const out: BoundaryCase[] = [];
  for (const tier of ['edge', 'value'] as Tier[]) {
    const items = Object.fromEntries(
      fields.map((f) => {
        const e = edges[f];
        const values = tier === 'edge' ? e.edge : e.rest;
        // The value tier's values ride with the same near misses, sent again.
        const misses = e.edgeMisses;
        const position = (v: string) =>
          v === enums[f][0] ? 'the first value' : v === enums[f][enums[f].length - 1] ? 'the last value' : `value ${v}`;
        return [
          f,
          {
            valid: values.map((v) => ({ value: v, cls: position(v), valid: true })),
            invalid: misses.map((m) => ({
              value: m.value,
              cls: `${m.cls} (${JSON.stringify(m.value)})`,
              valid: false,
            })),
          },
        ];
      }),
    );
    const rows = pairRows(fields, items);
    // The first row carries a property the schema does not name (allowed: the schema leaves it open).
    for (const [i, row] of rows.entries())
      out.push(
        i === 0 && tier === 'edge'
          ? rowCase(tier, row, { boundary_note: 'x' }, 'an unknown field')
          : rowCase(tier, row),
      );
  }
  // Other JSON types and string edges, the fields side by side (edge tier: the first two of each).
  const first = (f: string) => enums[f][0] ?? 'x';
  const types = Object.fromEntries(fields.map((f) => [f, otherTypes(first(f))]));
  const strings = Object.fromEntries(fields.map((f) => [f, stringEdges(first(f), 10_000)]));
  const rowsOf = (lists: Record<string, Edge<unknown>[]>, shift: number) => {
    const n = Math.max(...fields.map((f) => lists[f].length));
    return Array.from({ length: n }, (_, k) =>
      Object.fromEntries(
        fields.map((f, i) => {
          const e = lists[f][(k + i * shift) % lists[f].length];
          return [f, { value: e.value, cls: e.cls, valid: false }];
        }),
      ),
    );
  };
  for (const [k, row] of rowsOf(types, 1).entries()) out.push(rowCase(k < 2 ? 'edge' : 'value', row));
  rowsOf(strings, 0).forEach((row) => {
    const one = Object.values(row)[0]?.cls === 'one character';
    out.push(rowCase(one ? 'value' : 'edge', row));
  });
  // A property given twice: whichever occurrence a parser keeps, the body is refused.
  const [f0, f1] = fields;
  const miss0 = edges[f0]?.edgeMisses[0]?.value;
  const valid0 = enums[f0]?.[0];
  const miss1 = f1 ? edges[f1]?.edgeMisses[0]?.value : undefined;
  // (The other property's near miss keeps the reading that takes the valid value refused.)
  if (miss0 !== undefined && valid0 !== undefined && f1 && miss1 !== undefined) {
    const raw = `{${JSON.stringify(f0)}:${JSON.stringify(miss0)},${JSON.stringify(f0)}:${JSON.stringify(valid0)},${JSON.stringify(f1)}:${JSON.stringify(miss1)}}`;
    const c = make('edge', { [f0]: miss0, [f1]: miss1 }, [`${f0}: given twice`], {
      raw,
      reading: { [f0]: valid0, [f1]: miss1 },
    });
    out.push(c);
  }
  return out;
}

/** The unknown setting that refuses a form whatever else it holds (the missing one on a target that keeps no state). */
function vehicle(ctx: BoundaryContext): FormPart[] {
  return ctx.target.stateful ? [{ name: 'video_setting_id', value: UNKNOWN_SETTING }] : [];
}

const file = (name: string, filename: string, size = 64, fill = 0x20): FormPart => ({
  name,
  file: { filename, type: typeOf(name), size, fill },
});
const typeOf = (field: string) =>
  (UPLOAD_LIMITS as Record<string, { contentType?: string }>)[field]?.contentType ?? 'application/octet-stream';

function formContext(ctx: BoundaryContext, account: 'main' | 'other'): FormContext {
  const settings = new Map<string, readonly string[]>();
  for (const [key, id] of Object.entries(ctx.settings)) settings.set(id.toLowerCase(), key.split('+'));
  const plan = account === 'main' ? ctx.plans.main : ctx.plans.other;
  return { settings, stateful: ctx.target.stateful, ...(plan && { plan }) };
}

/** A form's case, its oracle from the rules (formVerdict): refused, or (no fault at all) accepted. */
function formCase(
  ctx: BoundaryContext,
  operationId: string,
  classes: string[],
  tier: Tier,
  parts: FormPart[],
  extra: Partial<BoundaryCase> = {},
): BoundaryCase {
  const account = extra.account ?? 'main';
  const v = formVerdict(parts, formContext(ctx, account));
  const what = classes.join(', ');
  const expect: Expectation = v.faults.length
    ? refused([400], `${what}: ${v.faults.join(', ')}`, { codes: v.codes })
    : v.decided.length
      ? refused([400], `${what}: ${v.decided.map((d) => d.why).join(', ')}`, {
          codes: v.codes,
          decided: [...new Set(v.decided.flatMap((d) => d.decision))],
        })
      : { kind: 'accepted', why: what };
  return single(operationId, classes, tier, { path: {}, query: {}, body: { kind: 'form', parts }, expect }, extra);
}

/** Extensions of each file field, on every plan the run may meet (the account's, else all of them). */
function fieldExtensions(field: FileField, plan?: UploadPlan): string[] {
  return [...new Set(plan ? extensionsOf(field, plan) : UPLOAD_PLANS.flatMap((p) => extensionsOf(field, p)))];
}

function generationCases(ctx: BoundaryContext, operationId: string): BoundaryCase[] {
  const v = vehicle(ctx);
  const out: BoundaryCase[] = [];
  const push = (
    classes: string[],
    tier: Tier,
    parts: FormPart[],
    shrinkTo: Array<[string, FormPart[]]> = [],
    extra: Partial<BoundaryCase> = {},
  ) => {
    const c = formCase(ctx, operationId, classes, tier, parts, extra);
    for (const [cls, p] of shrinkTo) c.parts.push(formCase(ctx, operationId, [cls], tier, p, extra));
    out.push(c);
  };
  const plan = ctx.plans.main;
  // Images: the most a form takes, every extension, a non-ASCII name; the text at one character.
  const imageExts = fieldExtensions('image_files', plan);
  const images = Array.from({ length: MAX_IMAGES }, (_, i) =>
    file('image_files', `${i === 1 ? 'vidéo-動画-' : 'boundary-'}${i + 1}${imageExts[i % imageExts.length]}`),
  );
  const plainImages = images.map((p, i) =>
    i === 1 ? file('image_files', `boundary-2${imageExts[1 % imageExts.length]}`) : p,
  );
  push(
    [
      'text: one character',
      `image_files: ${MAX_IMAGES} (the most)`,
      ...imageExts.map((e) => `image_files: extension ${e}`),
      'file name: non-ASCII',
    ],
    'edge',
    [...v, { name: 'text', value: 'a' }, ...images],
    [
      ['text: one character', [...v, { name: 'text', value: 'a' }]],
      [`image_files: ${MAX_IMAGES} (the most)`, [...v, { name: 'text', value: 'boundary' }, ...plainImages]],
      ...imageExts.map(
        (e) =>
          [
            `image_files: extension ${e}`,
            [...v, { name: 'text', value: 'boundary' }, file('image_files', `boundary${e}`)],
          ] as [string, FormPart[]],
      ),
      ['file name: non-ASCII', [...v, { name: 'text', value: 'boundary' }, images[1]]],
    ],
  );
  // A field given twice, an empty text, a part the form does not name.
  push(
    ['video_setting_id: given twice', 'text: empty', 'an unknown field'],
    'edge',
    [...v, ...v, { name: 'text', value: '' }, { name: 'boundary_note', value: 'x' }],
    [
      ['video_setting_id: given twice', [...v, ...v, { name: 'text', value: 'boundary' }]],
      ['text: empty', [...v, { name: 'text', value: '' }]],
      ['an unknown field', [...v, { name: 'text', value: 'boundary' }, { name: 'boundary_note', value: 'x' }]],
    ],
  );
  // A text past any limit a service plausibly has, in non-ASCII characters, with a PDF.
  const [, , long, nonAscii] = stringEdges('Explain the tides. ', 1_000_000);
  const longNonAscii = nonAscii.value.repeat(Math.ceil(1_000_000 / nonAscii.value.length)).slice(0, 1_000_000);
  push(
    ['text: very long (1,000,000 characters)', 'text: non-ASCII', 'pdf_file: extension .pdf'],
    'edge',
    [...v, { name: 'text', value: longNonAscii }, file('pdf_file', 'boundary.pdf')],
    [
      ['text: very long (1,000,000 characters)', [...v, { name: 'text', value: long.value }]],
      ['text: non-ASCII', [...v, { name: 'text', value: nonAscii.value }]],
    ],
  );
  // Every extension of the other file fields, side by side in forms of no valid combination (each
  // field once per form), the first with an empty file and the second with an extension in capitals.
  const fields: FileField[] = (Object.keys(UPLOAD_LIMITS) as FileField[]).filter((f) => f !== 'image_files');
  const lists = fields.map((f) => ({ f, exts: fieldExtensions(f, plan) }));
  const forms = Math.max(...lists.map((l) => l.exts.length));
  for (let k = 0; k < forms; k++) {
    // The last form goes without its setting (the one required field missing): refused for that alone.
    const missing = k === forms - 1 && v.length > 0;
    const parts: FormPart[] = missing ? [] : [...v];
    const classes: string[] = missing ? ['video_setting_id: missing'] : [];
    const shrink: Array<[string, FormPart[]]> = missing
      ? [['video_setting_id: missing', [{ name: 'text', value: 'boundary' }]]]
      : [];
    for (const { f, exts } of lists) {
      if (k >= exts.length && k > 1) continue;
      let name = `boundary${exts[k % exts.length]}`;
      let size = 64;
      let cls = `${f}: extension ${exts[k % exts.length]}`;
      if (k === 0 && f === lists[0].f) {
        size = 0;
        cls = `${f}: an empty file`;
      } else if (k === 1 && f === lists[0].f) {
        name = name.replace(/\.[^.]+$/, (e) => e.toUpperCase());
        cls = `${f}: extension in capitals`;
      }
      const part = file(f, name, size);
      parts.push(part);
      classes.push(cls);
      shrink.push([cls, [...v, part]]);
    }
    push(classes, 'edge', parts, shrink);
  }
  // The value tier: each valid combination of 4.1 with each extension of its files, one form each (the
  // images of a form all its extensions at once); refused by the setting.
  for (const key of combinationKeys()) {
    const fieldsOf = key.split('+');
    const fileFields = fieldsOf.filter((f): f is FileField => f !== 'text');
    const exts = fileFields.map((f) => fieldExtensions(f, plan));
    const forms = Math.max(1, ...fileFields.map((f, i) => (f === 'image_files' ? 1 : exts[i].length)));
    for (let k = 0; k < forms; k++) {
      const parts: FormPart[] = [...v];
      const classes = [`combination ${fieldsOf.join(' + ')}`];
      if (fieldsOf.includes('text')) parts.push({ name: 'text', value: 'boundary' });
      fileFields.forEach((f, i) => {
        if (f === 'image_files') {
          for (const [j, e] of exts[i].entries()) parts.push(file(f, `boundary-${j + 1}${e}`));
          classes.push(`${f}: every extension`);
        } else {
          const e = exts[i][k % exts[i].length];
          parts.push(file(f, `boundary${e}`));
          classes.push(`${f}: extension ${e}`);
        }
      });
      push(classes, 'value', parts);
    }
  }
  // A known setting's id in capitals and with spaces, on a form of no valid combination (refused whatever the id).
  const someSetting = Object.values(ctx.settings)[0];
  if (someSetting) {
    push(['video_setting_id: upper case'], 'value', [
      { name: 'video_setting_id', value: someSetting.toUpperCase() },
      { name: 'text', value: 'boundary' },
      file('audio_file', 'boundary.mp3'),
    ]);
    push(['video_setting_id: surrounding spaces'], 'value', [
      { name: 'video_setting_id', value: ` ${someSetting} ` },
      { name: 'text', value: 'boundary' },
      file('audio_file', 'boundary.mp3'),
    ]);
  }
  if (ctx.sizes) out.push(...sizeCases(ctx, operationId));
  return out;
}

/** The file sizes at and one byte past each limit of each plan the run knows (the account's, another account's). */
function sizeCases(ctx: BoundaryContext, operationId: string): BoundaryCase[] {
  const out: BoundaryCase[] = [];
  const accounts: Array<{ account: 'main' | 'other'; plans: UploadPlan[] }> = [
    { account: 'main', plans: ctx.plans.main ? [ctx.plans.main] : [...UPLOAD_PLANS] },
  ];
  if (ctx.otherKey && ctx.plans.other && ctx.plans.other !== ctx.plans.main)
    accounts.push({ account: 'other', plans: [ctx.plans.other] });
  // Each limit once per account, and a field's limit that every plan shares (10 MB an image) once.
  const shared = new Set<string>();
  for (const { account, plans } of accounts) {
    const done = new Set<number>();
    for (const plan of plans)
      for (const field of Object.keys(UPLOAD_LIMITS) as FileField[]) {
        const limit = maxBytesOf(field, plan);
        const everyPlan = UPLOAD_PLANS.every((p) => maxBytesOf(field, p) === limit);
        if (done.has(limit) || (everyPlan && shared.has(field))) continue;
        done.add(limit);
        if (everyPlan) shared.add(field);
        const ext = extensionsOf(field)[0];
        for (const [size, cls] of [
          [limit, `size at the ${plan} plan's limit (${limit} bytes)`],
          [limit + 1, `size one byte past the ${plan} plan's limit`],
        ] as const) {
          const parts: FormPart[] = [...vehicle(ctx)];
          if (field === 'image_files') parts.push({ name: 'text', value: 'boundary' });
          parts.push(file(field, `boundary${ext}`, size, 0));
          out.push(formCase(ctx, operationId, [`${field}: ${cls}`], 'edge', parts, { account, heavy: true }));
        }
      }
  }
  return out;
}

/**
 * Every boundary request a conforming target refuses or answers without creating anything, per
 * operation (GET only in read-only; the POSTs from no-credit on).
 */
export function boundaryCases(ctx: BoundaryContext): BoundaryCase[] {
  const out: BoundaryCase[] = [];
  for (const op of ctx.contract.operations) {
    const posting = op.method !== 'GET';
    if (posting && ctx.profile === 'read-only') continue;
    const content = op.operation.requestBody?.content ?? {};
    const json = content['application/json']?.schema;
    const form = content['multipart/form-data']?.schema;
    const id = op.parameters.find(
      (p) => p.in === 'path' && deref<SchemaObject | undefined>(ctx.contract.spec, p.schema)?.format === 'uuid',
    );
    for (const q of op.parameters.filter((p) => p.in === 'query')) {
      const schema = deref<SchemaObject | undefined>(ctx.contract.spec, q.schema);
      if (schema?.type === 'integer') out.push(...queryCases(op.operationId, q.name, schema));
    }
    if (id) {
      // A POST's id with a body the source would take: refused for the id alone.
      const body: CaseBody | undefined = json ? { kind: 'json', value: validTarget(ctx, json) } : undefined;
      out.push(...pathIdCases(ctx, op.operationId, id.name, posting, body));
    }
    if (json && id) out.push(...conversionCases(ctx, op.operationId, id.name, json));
    if (form) out.push(...generationCases(ctx, op.operationId));
  }
  return out;
}

/** A conversion target a convertible source takes (for a request whose only fault is elsewhere). */
function validTarget(ctx: BoundaryContext, schema: SchemaObject): Record<string, unknown> {
  const props = deref<SchemaObject | undefined>(ctx.contract.spec, schema)?.properties ?? {};
  for (const name of Object.keys(props)) {
    const s = deref<SchemaObject | undefined>(ctx.contract.spec, props[name]);
    const values = Array.isArray(s?.enum) ? (s.enum as string[]) : [];
    const other = values.find((v) => conversionProblem({ [name]: v }, ctx.source?.options) === undefined);
    if (other) return { [name]: other };
  }
  return {};
}

/** The most credits the phase's accepted requests spend (the full profile's default run: DECISIONS of the suite, README). */
export const POSITIVE_CREDITS = 3;

/**
 * Requests at the edges the interface says are valid, each a credit when accepted (the full profile,
 * within the run's credit budget), followed to a terminal status: the most images with every extension
 * and non-ASCII text and names; a file at exactly the plan's limit (when uploads of that size may be
 * sent) or the plan's last extension of video; a conversion to the last language and the last aspect
 * ratio the source offers.
 */
export function positiveCases(ctx: BoundaryContext): BoundaryCase[] {
  const out: BoundaryCase[] = [];
  const has = (id: string) => ctx.contract.operations.some((o) => o.operationId === id);
  const generate = has('generateVideo') ? 'generateVideo' : undefined;
  const convert = has('createConversion') ? 'createConversion' : undefined;
  const plan = ctx.plans.main;
  const images = ctx.settings[['image_files', 'text'].sort().join('+')];
  if (generate && images) {
    const exts = fieldExtensions('image_files', plan).filter((e) => extensionsOf('image_files').includes(e));
    const parts: FormPart[] = [
      { name: 'video_setting_id', value: images },
      { name: 'text', value: 'Vidéo 動画 فيديو 🎬: explain the tides in one minute.' },
      ...Array.from({ length: MAX_IMAGES }, (_, i) =>
        file('image_files', `${i === 0 ? 'vidéo-動画' : 'boundary'}-${i + 1}${exts[i % exts.length]}`),
      ),
    ];
    out.push(
      formCase(
        ctx,
        generate,
        [
          `image_files: ${MAX_IMAGES} (the most)`,
          'image_files: every extension',
          'text: non-ASCII',
          'file name: non-ASCII',
        ],
        'edge',
        parts,
      ),
    );
  }
  const pdf = ctx.settings.pdf_file;
  const video = ctx.settings.video_file;
  if (generate && ctx.sizes && plan && pdf) {
    const limit = maxBytesOf('pdf_file', plan);
    out.push(
      formCase(
        ctx,
        generate,
        [`pdf_file: size at the ${plan} plan's limit (${limit} bytes)`],
        'edge',
        [{ name: 'video_setting_id', value: pdf }, file('pdf_file', 'boundary-at-the-limit.pdf', limit, 0)],
        { heavy: true },
      ),
    );
  } else if (generate && video) {
    const exts = extensionsOf('video_file', plan);
    const last = exts[exts.length - 1];
    out.push(
      formCase(ctx, generate, [`video_file: extension ${last} (the plan's last)`, 'file name: non-ASCII'], 'edge', [
        { name: 'video_setting_id', value: video },
        file('video_file', `vidéo-動画${last}`),
      ]),
    );
  }
  const source = ctx.source;
  if (convert && source?.options.is_convertible && ctx.target.stateful) {
    const o = source.options;
    const language = [...o.available_languages].reverse().find((l) => l !== o.current_language);
    const ratio = [...ASPECT_RATIOS].reverse().find((r) => r !== o.current_aspect_ratio);
    const body = { ...(language && { language }), ...(ratio && { aspect_ratio: ratio }) };
    if (Object.keys(body).length && conversionProblem(body, o) === undefined)
      out.push(
        single(convert, ['language: the last the source offers', 'aspect_ratio: the last value'], 'edge', {
          path: { video_id: source.id },
          query: {},
          body: { kind: 'json', value: body },
          expect: { kind: 'accepted', why: `a conversion to ${JSON.stringify(body)}` },
        }),
      );
  }
  return out.slice(0, POSITIVE_CREDITS);
}
