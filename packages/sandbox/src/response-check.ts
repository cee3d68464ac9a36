// Test mode: every response of a document operation is checked against the document with the shared
// checkResponse. Problems are loud: printed to stderr and collected for the tests to assert on.
import { checkResponse, type Operation } from '@videogen/openapi';
import type { SpecModel } from './spec.js';

export function responseProblems(
  model: SpecModel,
  op: Operation,
  status: number,
  contentType: string,
  payload: unknown,
  headers?: Record<string, string | number | string[] | undefined>,
): string[] {
  let body: unknown = payload;
  if (typeof payload === 'string') {
    try {
      body = JSON.parse(payload);
    } catch {
      body = payload;
    }
  }
  return checkResponse(model.ajv, model.spec, op.operation, { status, contentType, body, headers });
}
