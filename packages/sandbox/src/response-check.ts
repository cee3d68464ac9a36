// Test mode: every response of a document operation is checked against the document with the shared
// checkResponse. Problems are loud: printed to stderr and collected for the tests to assert on.
import { checkResponse, type Operation } from '@videogen/openapi';
import type { SpecModel } from './spec.js';

/** Statuses the transport may force on an operation although the document does not declare them. */
export const TRANSPORT_STATUSES = new Set([413]);

export function responseProblems(model: SpecModel, op: Operation, status: number, contentType: string, payload: unknown): string[] {
  if (TRANSPORT_STATUSES.has(status)) return [];
  let body: unknown = payload;
  if (typeof payload === 'string') {
    try {
      body = JSON.parse(payload);
    } catch {
      body = payload;
    }
  }
  return checkResponse(model.ajv, model.spec, op.operation, { status, contentType, body });
}
