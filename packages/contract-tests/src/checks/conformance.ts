// Schemathesis-style response checks per operation, over every exchange of the run so far:
// run last, so that they see the responses of all the functional checks.
import { check, ensure, type Check } from './types.ts';
import { describe as describeExchange, type Exchange, type ProblemKind } from '../http.ts';
import { DecisionMismatch, driftEntry } from '../drift.ts';

const KINDS: Array<{ name: string; kind: ProblemKind }> = [
  { name: 'not_a_server_error', kind: 'server_error' },
  { name: 'status_code_conformance', kind: 'status' },
  { name: 'content_type_conformance', kind: 'content_type' },
  { name: 'response_schema_conformance', kind: 'schema' },
  { name: 'response_headers_conformance', kind: 'headers' },
  { name: 'error_envelope', kind: 'envelope' },
  { name: 'documented_error_code', kind: 'error_code' },
];

export function conformanceChecks(operationIds: string[]): Check[] {
  return operationIds.flatMap((operation) =>
    KINDS.map(({ name, kind }) =>
      check(operation, name, async (ctx) => {
        const mine = ctx.run.exchanges.filter((e) => e.operationId === operation);
        if (mine.length === 0) ctx.skip(`no request to ${operation} was made in this run (profile ${ctx.run.target.profile}, or its checks were skipped)`);
        if (kind === 'envelope' || kind === 'error_code') {
          if (!mine.some((e) => e.status >= 400)) ctx.skip(`no error response from ${operation} was seen in this run`);
        }
        // Interface problems fail the check; problems that break only a decision are drift.
        const interfaceBad = mine.filter((e) => e.problems.some((p) => p.kind === kind && p.decision === undefined));
        const lines = (bad: Exchange[], tier: (d: number | undefined) => boolean) =>
          bad.slice(0, 5).map((e) => {
            const msgs = e.problems.filter((p) => p.kind === kind && tier(p.decision)).map((p) => p.message).slice(0, 3);
            return `- [${e.check}] ${describeExchange(e)}\n    ${msgs.join('\n    ')}`;
          });
        const more = (n: number) => (n > 5 ? `\n… and ${n - 5} more` : '');
        ensure(interfaceBad.length === 0, `${interfaceBad.length} of ${mine.length} responses of ${operation} fail ${name}:\n${lines(interfaceBad, (d) => d === undefined).join('\n')}${more(interfaceBad.length)}`, interfaceBad.slice(0, 5));
        const drifted = mine.filter((e) => e.problems.some((p) => p.kind === kind && p.decision !== undefined));
        if (drifted.length > 0) {
          const id = `${operation} › ${name}`;
          const entries = drifted.flatMap((e) =>
            e.problems.filter((p) => p.kind === kind && p.decision !== undefined).map((p) => driftEntry(p.decision!, id, `${e.method} ${e.path} → ${e.status}: ${p.message}`, ctx.run.target.baseUrl, e)),
          );
          throw new DecisionMismatch(entries[0].decision, `${drifted.length} of ${mine.length} responses of ${operation} differ from a decision (${name}):\n${lines(drifted, (d) => d !== undefined).join('\n')}${more(drifted.length)}`, drifted.slice(0, 5), entries);
        }
      }),
    ),
  );
}
