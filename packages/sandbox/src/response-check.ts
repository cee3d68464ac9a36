// Test mode: every response of a document operation is checked against the document with the shared
// checkResponse. Problems are loud: printed to stderr and collected for the tests to assert on.
import { checkResponse, type Operation } from '@videogen/openapi';
import type { SpecModel } from './spec.js';
import type { Personality } from './personality.js';
import { BoundedMap } from './bounded-map.js';

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
  if (!personality)
    return checkResponse(model.ajv, model.spec, op.operation, { status, contentType, body, headers }).map(
      (f) => f.message,
    );
  // Another personality is checked against the document with its deliberate differences taken out
  // (its statuses mapped back, its own error codes): the interface's facts are still checked.
  const declared = personality.declaredStatus(op, status, body);
  return checkResponse(model.ajv, model.spec, op.operation, { status: declared, contentType, body, headers })
    .map((f) => f.message)
    .filter((p) => !personality.deliberate(p));
}

/** Responses whose verdict is remembered, and the longest body remembered (a list page can be megabytes). */
const REMEMBERED_RESPONSES = 1_000;
const REMEMBERED_BODY_CHARS = 16_384;

export type ResponseChecker = (
  op: Operation,
  status: number,
  contentType: string,
  payload: unknown,
  headers: Record<string, unknown>,
) => string[];

/**
 * responseProblems with a memory: a response identical to one already checked (the same operation,
 * status, content type, headers and body text) gets the verdict it got then, since the check is a
 * function of these alone. A poll loop answers the same bytes again and again; each distinct answer is
 * still checked once.
 */
export function responseChecker(model: SpecModel, personality?: Personality): ResponseChecker {
  // Keyed by the body text first: a view answered again is the very same string, whose hash V8 keeps.
  const verdicts = new BoundedMap<string, Map<string, string[]>>(REMEMBERED_RESPONSES);
  return (op, status, contentType, payload, headers) => {
    const check = () =>
      responseProblems(model, op, status, contentType, payload, headers as Record<string, string>, personality);
    if (typeof payload !== 'string' || payload.length > REMEMBERED_BODY_CHARS) return check();
    let rest = `${op.operationId}\n${status}\n${contentType}`;
    for (const name in headers) rest += `\n${name}: ${String(headers[name])}`;
    let byRest = verdicts.get(payload);
    if (!byRest) verdicts.set(payload, (byRest = new Map()));
    let problems = byRest.get(rest);
    if (problems === undefined) {
      problems = check();
      byRest.set(rest, problems);
    }
    return problems;
  };
}
