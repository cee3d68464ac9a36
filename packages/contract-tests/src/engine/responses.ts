// Every check applied to each response as it arrives: status, content type, body and headers against
// the operation (the shared checkResponse of @videogen/openapi), the error envelope and the documented
// error codes. Live runs, replays and recorded traffic (--har) all go through here: same checks, same tiers.
import { checkResponse, type FindingKind } from '@videogen/openapi';
import type { Problem, ProblemKind } from '../shapes.ts';
import type { Contract } from './contract.ts';

/** A finding of the shared response check → the conformance check that reports it. */
const KIND_OF: Record<FindingKind, ProblemKind> = {
  status: 'status',
  'content-type': 'content_type',
  body: 'schema',
  header: 'headers',
};

export function responseProblems(
  contract: Contract,
  operationId: string | undefined,
  res: { status: number; contentType: string; headers: Headers; text: string },
  expectServerError = false,
): { body: unknown; problems: Problem[] } {
  const { contentType, text } = res;
  let body: unknown = text;
  const problems: Problem[] = [];
  if (/json/i.test(contentType) && text.length) {
    try {
      body = JSON.parse(text);
    } catch {
      problems.push({ kind: 'schema', message: `body is not valid JSON: ${text.slice(0, 80)}` });
    }
  }
  // A 503 is documented for every operation (7.1: server load, 8.2: the concurrency limit). A 500 the
  // check provoked (the 7.2 UNKNOWN_ERROR row) is the answer it asked for.
  if (res.status >= 500 && res.status !== 503 && !(expectServerError && res.status === 500))
    problems.push({ kind: 'server_error', message: `answered ${res.status}` });
  const op = contract.operation(operationId);
  if (op) {
    for (const f of checkResponse(contract.ajv, contract.spec, op.operation, {
      status: res.status,
      contentType,
      body,
      headers: res.headers,
    })) {
      problems.push({ kind: KIND_OF[f.kind], message: f.message, ...(f.decisions && { decision: f.decisions }) });
    }
  }
  if (res.status >= 400) {
    const envelope = /json/i.test(contentType)
      ? contract.validateEnvelope(body)
      : [`content type "${contentType}" is not JSON`];
    for (const m of envelope) problems.push({ kind: 'envelope', message: `error body: ${m}` });
    const codes = operationId ? contract.documentedErrorCodes(operationId, res.status) : undefined;
    const code = (body as { error_code?: unknown } | undefined)?.error_code;
    if (codes && typeof code === 'string' && !codes.includes(code)) {
      // The interface's own codes are closed only where it fixes them (7.2); elsewhere the codes are ours (#5).
      const decision = contract.codeDecision(codes);
      problems.push({
        kind: 'error_code',
        message: `error_code ${code} is not one documented for ${res.status} (${codes.join(', ')})`,
        ...(decision && { decision }),
      });
    }
  }
  return { body, problems };
}
