// The contract, read at run time from @videogen/openapi: nothing here restates a schema.
import { createAjv, deref, listOperations, loadSpec, validatorFor, type OpenApiDocument, type Operation } from '@videogen/openapi';
import type { RateClass } from './pacer.ts';

export interface Contract {
  spec: OpenApiDocument;
  ajv: ReturnType<typeof createAjv>;
  operations: Operation[];
  /** Rate-limit classes as the spec states them (`x-rate-limit`). */
  classes: Record<string, RateClass>;
  /** Validate a value against `#/components/schemas/NAME`; returns problems. */
  validate(schemaName: string, value: unknown): string[];
  /** The enum (or const) of `error_code` in the schema of a declared response, when there is one. */
  documentedErrorCodes(operationId: string, status: number): string[] | undefined;
  enumOf(schemaName: string): string[];
}

let cached: Contract | undefined;

export function loadContract(): Contract {
  if (cached) return cached;
  const spec = loadSpec();
  const ajv = createAjv(spec);
  const operations = listOperations(spec);
  const classes: Record<string, RateClass> = {};
  for (const op of operations) {
    const rl = op.operation['x-rate-limit'];
    if (rl) classes[rl.class] = { limit: rl.requests, windowMs: rl.window_seconds * 1000 };
  }
  const validate = (name: string, value: unknown) => {
    const v = validatorFor(ajv, `#/components/schemas/${name}`);
    return v(value) ? [] : (v.errors ?? []).map((e) => `${name}${e.instancePath} ${e.message}`);
  };
  // Walk $ref / allOf to the narrowest statement about error_code.
  const codesIn = (schema: any, depth = 0): string[] | undefined => {
    if (!schema || depth > 10) return undefined;
    const s = deref<any>(spec, schema);
    let found: string[] | undefined;
    const p = s?.properties?.error_code;
    if (p) {
      const d = deref<any>(spec, p);
      if (Array.isArray(d.enum)) found = d.enum;
      else if (d.const !== undefined) found = [d.const];
    }
    for (const part of s?.allOf ?? []) {
      const inner = codesIn(part, depth + 1);
      if (inner) found = found ? found.filter((c) => inner.includes(c)) : inner;
    }
    return found;
  };
  const documentedErrorCodes = (operationId: string, status: number) => {
    const op = operations.find((o) => o.operationId === operationId);
    const resp = op && deref<any>(spec, op.operation.responses?.[String(status)]);
    const schema = resp?.content?.['application/json']?.schema;
    return schema ? codesIn(schema) : undefined;
  };
  const enumOf = (name: string) => (spec.components.schemas[name]?.enum ?? []) as string[];
  cached = { spec, ajv, operations, classes, validate, documentedErrorCodes, enumOf };
  return cached;
}
