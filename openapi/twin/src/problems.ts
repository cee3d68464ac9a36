// Ajv (JSON Schema 2020-12) on the twin schema, its errors said as a field and a reason:
// `behaviours["rate_limit.A.style"].value: must be one of sliding, fixed, even, token-bucket (got "burst")`.
import { createRequire } from 'node:module';
import type AjvModule from 'ajv/dist/2020.js';
import type { ErrorObject } from 'ajv/dist/2020.js';
import type formatsModule from 'ajv-formats';

/** One problem of a twin file: the field (a JavaScript-like path) and the reason. */
export interface TwinProblem {
  path: string;
  reason: string;
}

// ajv and ajv-formats are CommonJS with a `default` beside module.exports. Required by the first
// validator, not on import: the contract suite's bin imports this module at every start.
const require = createRequire(import.meta.url);

/** Headers whose values are credentials (the schema accepts them only redacted). */
const CREDENTIAL_HEADER = /^(authorization|cookie|x-api-key)$/i;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `/behaviours/rate_limit.A.style/value` → `behaviours["rate_limit.A.style"].value`. */
function pathOf(pointer: string, extra?: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) parts.push(extra);
  let out = '';
  for (const p of parts) {
    if (/^\d+$/.test(p)) out += `[${p}]`;
    else if (IDENTIFIER.test(p)) out += out ? `.${p}` : p;
    else out += `[${JSON.stringify(p)}]`;
  }
  return out || '(file)';
}

const shown = (v: unknown) => {
  const text = JSON.stringify(v);
  return text === undefined ? String(v) : text.length > 80 ? `${text.slice(0, 80)}…` : text;
};

function problemOf(e: ErrorObject, data: unknown): TwinProblem | undefined {
  const at = (pointer: string) =>
    pointer
      .split('/')
      .slice(1)
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), data);
  const got = () => ` (got ${shown(at(e.instancePath))})`;
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    // The branch that failed reports its own errors; these only say that a branch failed.
    case 'if':
    case 'oneOf':
    case 'anyOf':
    case 'allOf':
      return undefined;
    case 'required':
      return { path: pathOf(e.instancePath, String(params.missingProperty)), reason: 'is missing' };
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const name = String(params.additionalProperty ?? params.unevaluatedProperty);
      const inBehaviours = e.instancePath === '/behaviours';
      return {
        path: pathOf(e.instancePath, name),
        reason: inBehaviours
          ? 'is not a behaviour of this format (a typo, or a key of a newer format)'
          : 'is not a field here',
      };
    }
    case 'enum':
      return {
        path: pathOf(e.instancePath),
        reason: `must be one of ${(params.allowedValues as unknown[]).map(shown).join(', ')}${got()}`,
      };
    case 'const':
      return { path: pathOf(e.instancePath), reason: `must be ${shown(params.allowedValue)}${got()}` };
    case 'pattern':
      // A credential is never echoed, even a wrong one.
      if (CREDENTIAL_HEADER.test(e.instancePath.split('/').pop() ?? ''))
        return { path: pathOf(e.instancePath), reason: 'must be "[redacted]": a key never travels in a twin' };
      return { path: pathOf(e.instancePath), reason: `${e.message ?? 'is not valid'}${got()}` };
    case 'discriminator':
      return {
        path: pathOf(e.instancePath, String(params.tag)),
        reason:
          params.error === 'mapping'
            ? `is not one of the forms of this field${shown(at(`${e.instancePath}/${params.tag}`)) === 'undefined' ? '' : ` (got ${shown(at(`${e.instancePath}/${params.tag}`))})`}`
            : 'is missing (it says which form the value takes)',
      };
    default:
      return { path: pathOf(e.instancePath), reason: `${e.message ?? 'is not valid'}${got()}` };
  }
}

/** A validator of data against `schema`: the problems, or none. */
export function validatorOf(schema: Record<string, unknown>): (data: unknown) => TwinProblem[] {
  const Ajv2020 = (require('ajv/dist/2020.js') as { default: typeof AjvModule.default }).default;
  const addFormats = (require('ajv-formats') as { default: typeof formatsModule.default }).default;
  const ajv = new Ajv2020({
    strict: true,
    strictTypes: false,
    strictRequired: false,
    allErrors: true,
    discriminator: true,
  });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  return (data) => {
    if (validate(data)) return [];
    const seen = new Set<string>();
    const out: TwinProblem[] = [];
    for (const e of validate.errors ?? []) {
      const p = problemOf(e, data);
      if (!p) continue;
      const key = `${p.path}\n${p.reason}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(p);
    }
    // Never "invalid" without a reason: a failure of only wrapping keywords is said as it is.
    if (!out.length) out.push({ path: '(file)', reason: validate.errors?.[0]?.message ?? 'is not valid' });
    return out;
  };
}
