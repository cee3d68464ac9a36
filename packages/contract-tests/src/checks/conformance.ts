// Schemathesis-style response checks per operation, over every final exchange of the run so far
// (transient answers, retried or waited out, are reported apart and never judged): run last, so that
// they see the responses of every scenario.
import type { Check } from '../engine/catalogue.ts';
import { ensure, MISMATCH_KIND } from '../engine/judge.ts';
import { describeExchange } from '../engine/outcomes.ts';
import type { OperationId } from '@videogen/openapi/types';
import type { Exchange, ProblemKind } from '../shapes.ts';

const KINDS: Array<{ name: string; kind: ProblemKind }> = [
  { name: 'not_a_server_error', kind: 'server_error' },
  { name: 'status_code_conformance', kind: 'status' },
  { name: 'content_type_conformance', kind: 'content_type' },
  { name: 'response_schema_conformance', kind: 'schema' },
  { name: 'response_headers_conformance', kind: 'headers' },
  { name: 'error_envelope', kind: 'envelope' },
  { name: 'documented_error_code', kind: 'error_code' },
];

export function conformanceChecks(operationIds: OperationId[]): Check<Exchange[]>[] {
  return operationIds.flatMap((operation) =>
    KINDS.map(({ name, kind }) => ({
      operation,
      name,
      reads: 'all' as const,
      needs: [],
      judge: (all: Exchange[], j) => {
        const mine = all.filter((e) => e.operationId === operation);
        if (mine.length === 0) j.skip(`no request to ${operation} was made in this run (its checks were skipped)`);
        if ((kind === 'envelope' || kind === 'error_code') && !mine.some((e) => e.status >= 400))
          j.skip(`no error response from ${operation} was seen in this run`);
        // A problem under an x-decision differs from our choice only: reported as drift, not as a failure.
        for (const e of mine)
          for (const p of e.problems)
            if (p.kind === kind && p.decision)
              j.mismatch(p.decision, MISMATCH_KIND[p.kind], `[${e.scenario}] ${p.message}`, e);
        const bad = mine.filter((e) => e.problems.some((p) => p.kind === kind && !p.decision));
        const lines = bad.slice(0, 5).map((e) => {
          const msgs = e.problems
            .filter((p) => p.kind === kind && !p.decision)
            .map((p) => p.message)
            .slice(0, 3);
          return `- [${e.scenario}] ${describeExchange(e)}\n    ${msgs.join('\n    ')}`;
        });
        ensure(
          bad.length === 0,
          `${bad.length} of ${mine.length} responses of ${operation} fail ${name}:\n${lines.join('\n')}${bad.length > 5 ? `\n… and ${bad.length - 5} more` : ''}`,
          bad.slice(0, 5),
        );
      },
    })),
  );
}
