// Test mode: every response of a document operation is checked against the document with the shared
// checkResponse. Problems are loud: printed to stderr and collected for the tests to assert on.
import { checkResponse, type Operation } from '@videogen/openapi';
import type { SpecModel } from './spec.js';
import type { TwinBehaviour } from './twin-behaviour.js';
import { BoundedMap } from './bounded-map.js';

export function responseProblems(
  model: SpecModel,
  op: Operation,
  status: number,
  contentType: string,
  payload: unknown,
  headers?: Record<string, string | number | string[] | undefined>,
  twin?: Pick<TwinBehaviour, 'declared' | 'ownHeaders'>,
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
  const checked =
    twin?.ownHeaders.length && headers
      ? Object.fromEntries(Object.entries(headers).filter(([name]) => !twin.ownHeaders.includes(name.toLowerCase())))
      : headers;
  const problemsOf = (declaredStatus: number, declaredBody: unknown) =>
    checkResponse(model.ajv, model.spec, op.operation, {
      status: declaredStatus,
      contentType,
      body: declaredBody,
      headers: checked,
    }).map((f) => f.message);
  const problems = problemsOf(status, body);
  if (!twin || !problems.length) return problems;
  // Where the twin chose otherwise than our document (its success status, its codes of the open refusals),
  // its answer is checked as the one our document gives there: the interface's facts are still checked.
  for (const ours of twin.declared(op, status, body)) if (!problemsOf(ours.status, ours.body).length) return [];
  return problems;
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
export function responseChecker(
  model: SpecModel,
  twin?: Pick<TwinBehaviour, 'declared' | 'ownHeaders'>,
): ResponseChecker {
  // Keyed by the body text first: a view answered again is the very same string, whose hash V8 keeps.
  const verdicts = new BoundedMap<string, Map<string, string[]>>(REMEMBERED_RESPONSES);
  return (op, status, contentType, payload, headers) => {
    const check = () =>
      responseProblems(model, op, status, contentType, payload, headers as Record<string, string>, twin);
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
