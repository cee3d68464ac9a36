// Schemathesis-style response checks per operation, over every exchange of the run so far:
// run last, so that they see the responses of all the functional checks.
import { check, ensure, mismatch, type Check, type Mismatch } from './types.ts';
import { describe as describeExchange, type ProblemKind } from '../http.ts';

const KINDS: Array<{ name: string; kind: ProblemKind }> = [
  { name: 'not_a_server_error', kind: 'server_error' },
  { name: 'status_code_conformance', kind: 'status' },
  { name: 'content_type_conformance', kind: 'content_type' },
  { name: 'response_schema_conformance', kind: 'schema' },
  { name: 'response_headers_conformance', kind: 'headers' },
  { name: 'error_envelope', kind: 'envelope' },
  { name: 'documented_error_code', kind: 'error_code' },
];

/** A response problem under a decision → what the drift report says differs. */
const MISMATCH_KIND: Record<ProblemKind, Mismatch['kind']> = {
  status: 'status', headers: 'header', error_code: 'error_code',
  server_error: 'value', content_type: 'value', schema: 'value', envelope: 'value',
};

export function conformanceChecks(operationIds: string[]): Check[] {
  return operationIds.flatMap((operation) =>
    KINDS.map(({ name, kind }) =>
      check(operation, name, async (ctx) => {
        const mine = ctx.run.exchanges.filter((e) => e.operationId === operation);
        if (mine.length === 0) ctx.skip(`no request to ${operation} was made in this run (profile ${ctx.run.target.profile}, or its checks were skipped)`);
        if (kind === 'envelope' || kind === 'error_code') {
          if (!mine.some((e) => e.status >= 400)) ctx.skip(`no error response from ${operation} was seen in this run`);
        }
        // A problem under an x-decision differs from our choice only: reported as drift, not as a failure.
        for (const e of mine) {
          for (const p of e.problems) if (p.kind === kind && p.decision) mismatch(p.decision, MISMATCH_KIND[p.kind], `[${e.check}] ${p.message}`, e);
        }
        const bad = mine.filter((e) => e.problems.some((p) => p.kind === kind && !p.decision));
        const lines = bad.slice(0, 5).map((e) => {
          const msgs = e.problems.filter((p) => p.kind === kind && !p.decision).map((p) => p.message).slice(0, 3);
          return `- [${e.check}] ${describeExchange(e)}\n    ${msgs.join('\n    ')}`;
        });
        ensure(bad.length === 0, `${bad.length} of ${mine.length} responses of ${operation} fail ${name}:\n${lines.join('\n')}${bad.length > 5 ? `\n… and ${bad.length - 5} more` : ''}`, bad.slice(0, 5));
      }),
    ),
  );
}
