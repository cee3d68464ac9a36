// Test mode: every response of a document operation is checked against the document with the shared
// checkResponse. Problems are loud: printed to stderr and collected for the tests to assert on.
import { checkResponse, type Operation } from '@videogen/openapi';
import type { SpecModel } from './spec.js';
import type { Personality } from './personality.js';

export function responseProblems(
  model: SpecModel,
  op: Operation,
  status: number,
  contentType: string,
  payload: unknown,
  headers?: Record<string, string | number | string[] | undefined>,
  personality?: Personality,
): string[] {
  let body: unknown = payload;
  if (typeof payload === 'string') {
    try {
      body = JSON.parse(payload);
    } catch {
      body = payload;
    }
  }
  // checkResponse's typed findings are read here as their messages: the sandbox judges its own
  // answers, where every departure (interface or decision) is a sandbox bug.
  if (!personality) return checkResponse(model.ajv, model.spec, op.operation, { status, contentType, body, headers }).map((f) => f.message);
  // Another personality is checked against the document with its deliberate differences taken out
  // (its statuses mapped back, its own error codes): the interface's facts are still checked.
  const declared = personality.declaredStatus(op, status, body);
  return checkResponse(model.ajv, model.spec, op.operation, { status: declared, contentType, body, headers })
    .map((f) => f.message)
    .filter((p) => !personality.deliberate(p));
}
