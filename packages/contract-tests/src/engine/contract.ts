// The contract, read at run time from @videogen/openapi: nothing here restates a schema. Schemas are
// found by what the interface names (error_code, error, page), not by their names in the document.
import {
  createAjv,
  decisionsOf,
  deref,
  enumDecisionsOf,
  errorCodesOf,
  listOperations,
  loadSpec,
  validatorFor,
  type OpenApiDocument,
  type Operation,
  type ResponseObject,
} from '@videogen/openapi';

export interface Contract {
  spec: OpenApiDocument;
  ajv: ReturnType<typeof createAjv>;
  operations: Operation[];
  operation(operationId: string | undefined): Operation | undefined;
  /** Problems of an error body against the envelope of 7.1 (the schema every error response uses). */
  validateEnvelope(value: unknown): string[];
  /** The enum (or const) of `error_code` in the schema of a declared response, when there is one. */
  documentedErrorCodes(operationId: string, status: number): string[] | undefined;
  /**
   * The DECISIONS.md entries behind an expectation: the status `status` of `operationId` (its declared
   * response's x-decision), or, with `code`, that error code (x-enumDecisions, else the response's).
   * Undefined when the interface itself states it.
   */
  decisionFor(operationId: string | undefined, status: number, code?: string): number[] | undefined;
  /** The decisions behind the error codes of a response where this document closed them. */
  codeDecision(codes: string[]): number[] | undefined;
  /** The code this document chose for a status (every example of the declared response names it), with its decision. */
  decidedCode(operationId: string, status: number): { code: string; decision: number[] } | undefined;
  /** The decisions of an operation's query parameter (`page`: what a page past the end holds, #30). */
  parameterDecision(operationId: string, name: string): number[] | undefined;
}

let cached: Contract | undefined;

export function loadContract(): Contract {
  if (cached) return cached;
  const spec = loadSpec();
  const ajv = createAjv(spec);
  const operations = listOperations(spec);
  const operation = (id: string | undefined) =>
    id === undefined ? undefined : operations.find((o) => o.operationId === id);
  const jsonSchemaOf = (response: unknown) =>
    deref<ResponseObject | undefined>(spec, response)?.content?.['application/json']?.schema;
  // The envelope: the schema most error responses of the document point at (7.1: every error body).
  const counts = new Map<string, number>();
  for (const o of operations) {
    for (const [status, r] of Object.entries(o.operation.responses ?? {})) {
      const ref = jsonSchemaOf(r)?.$ref;
      if (/^[45]/.test(status) && typeof ref === 'string') counts.set(ref, (counts.get(ref) ?? 0) + 1);
    }
  }
  const envelopeRef = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!envelopeRef)
    throw new Error('the document declares no JSON error response: no envelope to check error bodies against');
  const validateEnvelope = (value: unknown) => {
    const v = validatorFor(ajv, envelopeRef);
    return v(value) ? [] : (v.errors ?? []).map((e) => `envelope${e.instancePath} ${e.message}`);
  };
  const documentedErrorCodes = (operationId: string, status: number) => {
    const schema = jsonSchemaOf(operation(operationId)?.operation.responses?.[String(status)]);
    return schema ? errorCodesOf(spec, schema) : undefined;
  };
  const enumDecisions = enumDecisionsOf(spec);
  const decisionFor = (operationId: string | undefined, status: number, code?: string) => {
    if (code && enumDecisions[code]) return enumDecisions[code];
    const declared = operation(operationId)?.operation.responses?.[String(status)];
    return declared ? (decisionsOf(declared) ?? decisionsOf(deref(spec, declared))) : undefined;
  };
  const codeDecision = (codes: string[]) => {
    const all = [...new Set(codes.flatMap((c) => enumDecisions[c] ?? []))];
    return codes.every((c) => enumDecisions[c]) && all.length ? all : undefined;
  };
  const decidedCode = (operationId: string, status: number) => {
    const media = deref<ResponseObject | undefined>(spec, operation(operationId)?.operation.responses?.[String(status)])
      ?.content?.['application/json'];
    const examples = [
      media?.example,
      ...Object.values(media?.examples ?? {}).map((e) => deref<{ value?: unknown } | undefined>(spec, e)?.value),
    ].filter(Boolean);
    const codes = [
      ...new Set(
        examples
          .map((e) => (e as { error_code?: unknown }).error_code)
          .filter((c): c is string => typeof c === 'string'),
      ),
    ];
    const decision = codes.length === 1 ? enumDecisions[codes[0]] : undefined;
    return decision ? { code: codes[0], decision } : undefined;
  };
  const parameterDecision = (operationId: string, name: string) =>
    decisionsOf(operation(operationId)?.parameters.find((p) => p?.name === name));
  cached = {
    spec,
    ajv,
    operations,
    operation,
    validateEnvelope,
    documentedErrorCodes,
    decisionFor,
    codeDecision,
    decidedCode,
    parameterDecision,
  };
  return cached;
}
