// The contract, read at run time from @videogen/openapi: nothing here restates a schema.
import { createAjv, decisionsOf, deref, listOperations, loadSpec, validatorFor, type OpenApiDocument, type Operation } from '@videogen/openapi';

export interface Contract {
  spec: OpenApiDocument;
  ajv: ReturnType<typeof createAjv>;
  operations: Operation[];
  /** Validate a value against `#/components/schemas/NAME`; returns problems. */
  validate(schemaName: string, value: unknown): string[];
  /** The enum (or const) of `error_code` in the schema of a declared response, when there is one. */
  documentedErrorCodes(operationId: string, status: number): string[] | undefined;
  enumOf(schemaName: string): string[];
  /**
   * The DECISIONS.md entries behind an expectation: the status `status` of `operationId` (its declared
   * response's x-decision), or, with `code`, that error code (x-enumDecisions of ErrorCode, else the
   * response's). Undefined when the interface itself states it.
   */
  decisionFor(operationId: string | undefined, status: number, code?: string): number[] | undefined;
  /** The decisions behind the error codes of a response where this document closed them. */
  codeDecision(codes: string[]): number[] | undefined;
}

let cached: Contract | undefined;

export function loadContract(): Contract {
  if (cached) return cached;
  const spec = loadSpec();
  const ajv = createAjv(spec);
  const operations = listOperations(spec);
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
  const enumDecisions: Record<string, number[]> = spec.components.schemas.ErrorCode?.['x-enumDecisions'] ?? {};
  const decisionFor = (operationId: string | undefined, status: number, code?: string) => {
    if (code && enumDecisions[code]) return enumDecisions[code];
    const op = operations.find((o) => o.operationId === operationId);
    const declared = op?.operation.responses?.[String(status)];
    return declared ? (decisionsOf(declared) ?? decisionsOf(deref(spec, declared))) : undefined;
  };
  const codeDecision = (codes: string[]) => {
    const all = [...new Set(codes.flatMap((c) => enumDecisions[c] ?? []))];
    return codes.every((c) => enumDecisions[c]) && all.length ? all : undefined;
  };
  cached = { spec, ajv, operations, validate, documentedErrorCodes, enumOf, decisionFor, codeDecision };
  return cached;
}
