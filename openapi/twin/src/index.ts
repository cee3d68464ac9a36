// @videogen/openapi/twin: the twin file format (twin/schema.yaml, generated into ./generated/), its
// validator, its reader and the built-in twins. A twin says how one target answers wherever the
// interface is silent; the sandbox answers like it (`createSandbox({ twin })`), the contract suite
// writes one from a target (`videogen-contract calibrate`). Node only (it reads files).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { BEHAVIOUR_KEYS, type BehaviourKey } from './generated/keys.js';
import type { Provenance, TwinFile } from './generated/types.js';
import { interfaceValue } from './interface-values.js';
import { validatorOf, type TwinProblem } from './problems.js';

export * from './generated/types.js';

/** The JSON Schema 2020-12 of a twin file: `@videogen/openapi/twin.schema.json`, as published. */
export const TWIN_SCHEMA: Record<string, unknown> = JSON.parse(
  readFileSync(createRequire(import.meta.url).resolve('@videogen/openapi/twin.schema.json'), 'utf8'),
);
export { BEHAVIOUR_KEYS, type BehaviourKey };
export { interfaceValue, INTERFACE_SECTIONS } from './interface-values.js';
export type { TwinProblem };

/** The format's major version this reader reads (`twin_version`). */
export const TWIN_VERSION = 1;
/** The schema's `$id` (also the `$schema` a twin file may name). */
export const TWIN_SCHEMA_ID = TWIN_SCHEMA.$id as string;

/** The behaviours of a twin file, by dotted key. */
export type Behaviours = TwinFile['behaviours'];
/** The value of one behaviour. */
export type ValueOf<K extends BehaviourKey> = Exclude<Behaviours[K]['value'], undefined>;
/** A behaviour once read: its value is always there (taken from the document when the interface states it). */
export interface ResolvedBehaviour<V> {
  value: V;
  provenance: Provenance;
}
/** A twin as `parseTwin` and `readTwin` give it: a valid file, every value filled in. */
export type Twin = Omit<TwinFile, 'behaviours'> & {
  behaviours: { [K in BehaviourKey]: ResolvedBehaviour<ValueOf<K>> };
};

/** A twin file that cannot be read: every problem names the field (`behaviours["paging.past_end"].value`) and the reason. */
export class TwinError extends Error {
  constructor(
    /** Where the twin came from (a file name, or `twin` for an object). */
    readonly source: string,
    readonly problems: TwinProblem[],
  ) {
    const shown = problems.slice(0, 20).map((p) => `  ${p.path}: ${p.reason}`);
    if (problems.length > shown.length) shown.push(`  … and ${problems.length - shown.length} more`);
    super(`${source} is not a valid twin (format ${TWIN_VERSION}):\n${shown.join('\n')}`);
    this.name = 'TwinError';
  }
}

// Compiled on first use: a process that reads only the built-in twins compiles nothing.
let validate: ((data: unknown) => TwinProblem[]) | undefined;

/**
 * Every problem of a would-be twin file against the schema, each naming its field and the reason;
 * empty when the file is valid. A file of another major version gets that one problem only.
 */
export function validateTwin(data: unknown): TwinProblem[] {
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    return [{ path: '(file)', reason: 'must be a JSON object (a twin file)' }];
  const version = (data as { twin_version?: unknown }).twin_version;
  if (version === undefined)
    return [
      { path: 'twin_version', reason: `is missing: a twin file says its format (twin_version: ${TWIN_VERSION})` },
    ];
  if (version !== TWIN_VERSION) {
    const newer = typeof version === 'number' && version > TWIN_VERSION;
    return [
      {
        path: 'twin_version',
        reason: `this reader reads twin format ${TWIN_VERSION}, not ${JSON.stringify(version)}${newer ? ' (written by a newer tool: upgrade @videogen/openapi)' : ''}`,
      },
    ];
  }
  const problems = (validate ??= validatorOf(TWIN_SCHEMA))(data);
  if (problems.length) return problems;
  return semanticProblems(data as TwinFile);
}

/** What the schema cannot say: a value the interface states is the document's; numbers in their order. */
function semanticProblems(file: TwinFile): TwinProblem[] {
  const problems: TwinProblem[] = [];
  const behaviours = file.behaviours as Record<string, { value?: unknown; provenance: Provenance }>;
  for (const key of BEHAVIOUR_KEYS) {
    const at = `behaviours[${JSON.stringify(key)}].value`;
    const value = behaviours[key].value as Record<string, unknown> | undefined;
    if (value?.family === 'lognormal') {
      const { p50, p95, min, max } = value as { p50: number; p95: number; min?: number; max?: number };
      if (p95 < p50) problems.push({ path: `${at}.p95`, reason: `must be at least p50 (${p50}), got ${p95}` });
      if (min !== undefined && max !== undefined && max < min)
        problems.push({ path: `${at}.max`, reason: `must be at least min (${min}), got ${max}` });
    }
    const expires = (value?.expires ?? undefined) as { form?: string; issued?: string } | undefined;
    if (key === 'download.query' && expires?.form === 'ttl_seconds' && !expires.issued)
      problems.push({
        path: `${at}.expires.issued`,
        reason: 'is missing: a lifetime in seconds needs the signing instant',
      });
    const { provenance } = behaviours[key];
    if (provenance.source !== 'interface') continue;
    const stated = interfaceValue(key);
    if (stated === undefined)
      problems.push({ path: at, reason: 'is required: the interface states no value for this behaviour' });
    else if (value !== undefined && JSON.stringify(value) !== JSON.stringify(stated))
      problems.push({
        path: at,
        reason: `the interface states ${JSON.stringify(stated)} (section ${provenance.section}), not ${JSON.stringify(value)}: leave the value out, or give its provenance`,
      });
  }
  return problems;
}

/**
 * A twin from its JSON text or its parsed object: validated (a `TwinError` naming each field and reason
 * otherwise), the values the interface states filled in from the document. The object is not changed.
 */
export function parseTwin(input: unknown, options: { source?: string } = {}): Twin {
  const source = options.source ?? 'twin';
  let data = input;
  if (typeof input === 'string') {
    try {
      data = JSON.parse(input);
    } catch (err) {
      throw new TwinError(source, [{ path: '(file)', reason: `is not JSON: ${(err as Error).message}` }]);
    }
  }
  const problems = validateTwin(data);
  if (problems.length) throw new TwinError(source, problems);
  return resolved(data as TwinFile);
}

/** A copy of a valid file with the values the interface states filled in. */
function resolved(data: TwinFile): Twin {
  const file = structuredClone(data);
  const behaviours = file.behaviours as Record<string, { value?: unknown }>;
  for (const key of BEHAVIOUR_KEYS) behaviours[key].value ??= interfaceValue(key);
  return file as Twin;
}

/** A twin file read from disk (`TwinError` naming the file, the field and the reason when it is not valid). */
export function readTwin(path: string | URL): Twin {
  const source = path instanceof URL ? fileURLToPath(path) : path;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new TwinError(source, [{ path: '(file)', reason: `cannot be read: ${(err as Error).message}` }]);
  }
  return parseTwin(text, { source });
}

/** The built-in twins: `default` (our decisions, the OpenAPI document) and `alternative` (other honest choices). */
export const BUILTIN_TWINS = ['default', 'alternative'] as const;
export type BuiltinTwinName = (typeof BUILTIN_TWINS)[number];

export function isBuiltinTwin(name: unknown): name is BuiltinTwinName {
  return typeof name === 'string' && (BUILTIN_TWINS as readonly string[]).includes(name);
}

/** The file of a built-in twin (also published as `@videogen/openapi/twins/<name>.twin.json`). */
export function builtinTwinPath(name: BuiltinTwinName): string {
  if (!isBuiltinTwin(name)) throw new TypeError(`no built-in twin ${String(name)}: ${BUILTIN_TWINS.join(', ')}`);
  return fileURLToPath(new URL(`../../twin/builtin/${name}.twin.json`, import.meta.url));
}

const builtins = new Map<BuiltinTwinName, Twin>();
/**
 * A built-in twin, read once per process (do not change it: it is shared). Its file is validated by this
 * package's tests, so reading it compiles no schema (the sandbox reads one at every start).
 */
export function builtinTwin(name: BuiltinTwinName): Twin {
  let twin = builtins.get(name);
  if (!twin) builtins.set(name, (twin = resolved(JSON.parse(readFileSync(builtinTwinPath(name), 'utf8')))));
  return twin;
}
