// The checks of the boundary phase, per operation: every request of the phase judged as its oracle says
// (refused with a 4xx in the envelope, or a conforming answer, or accepted and its video ending), a
// difference from one of our decisions as drift; a failure names its class of input and the smallest
// request it was shrunk to, and its bundle replays that request (`--replay`).
import type { OperationEntry } from '@videogen/openapi/rules';
import type { OperationId } from '@videogen/openapi/types';
import { need, type Answer, type Check, type Need } from '../engine/catalogue.ts';
import { Judge } from '../engine/judge.ts';
import { describeExchange, DecisionStop, Violation } from '../engine/outcomes.ts';
import { headline, type BoundaryRecord, type BoundaryScenarios } from '../generation/boundary.ts';
import { describeCase } from '../generation/cases.ts';
import { judgeCase } from '../generation/judge.ts';
import type { Exchange } from '../shapes.ts';

/** Judges what an operation's phase sent (mismatches into `j`); fails with every class that failed. */
function judgeRecord(record: BoundaryRecord, operation: string, j: Judge, what: string): number {
  const mine = record.sent.filter((s) => !s.shrinking && s.bc.case.operationId === operation);
  const judge = (c: Parameters<typeof judgeCase>[0], ex: Exchange) => {
    const one = new Judge(j.contract);
    try {
      judgeCase(c, ex, one);
    } catch (err) {
      if (!(err instanceof Violation) && !(err instanceof DecisionStop)) throw err;
    }
    j.mismatches.push(...one.mismatches);
  };
  for (const s of mine) {
    if (s.exchange) judge(s.bc.case, s.exchange);
    if (s.terminal) judge(s.terminal.case, s.terminal.exchange);
  }
  const failures = record.failures.filter((f) => f.first.case.operationId === operation);
  if (failures.length) {
    const lines = failures.map((f) => {
      const shrunk =
        f.smallest === f.first
          ? f.unshrunk
            ? `\n    not shrunk to one class: ${f.unshrunk}`
            : ''
          : `\n    shrunk from: ${f.first.classes.join(' + ')} (${f.shrinkRequests} request${f.shrinkRequests === 1 ? '' : 's'})`;
      const detail = f.message.split('\n')[0];
      return `  ${headline(f.smallest, f.exchange)}: ${detail}\n    smallest request: ${describeCase(f.smallest.case)}${shrunk}${f.exchange ? `\n    ${describeExchange(f.exchange)}` : ''}`;
    });
    const v = new Violation(
      `the boundary phase (${what}) found ${failures.length} class${failures.length === 1 ? '' : 'es'} of input that fail${failures.length === 1 ? 's' : ''}:\n${lines.join('\n')}`,
      failures.flatMap((f) => (f.exchange ? [f.exchange] : [])),
    );
    v.inputClasses = [...new Set(failures.flatMap((f) => f.smallest.classes))];
    throw v;
  }
  return mine.length;
}

function phaseCheck(
  operation: OperationId,
  name: string,
  reads: BoundaryScenarios['refused'],
  needs: Need[],
  what: string,
  answers?: Answer[],
): Check<BoundaryRecord> {
  return {
    operation,
    name,
    reads,
    needs,
    bundle: 'shown',
    ...(answers && { answers }),
    judge: (record, j: Judge) => {
      const n = judgeRecord(record, operation, j, what);
      if (n === 0)
        j.skip(
          record.notes.length
            ? `no ${what} request for ${operation} was sent: ${record.notes.join('; ')}`
            : `no ${what} request for ${operation} on this target (it knows no value that makes one)`,
        );
      const classes = new Set(
        record.sent.filter((s) => !s.shrinking && s.bc.case.operationId === operation).flatMap((s) => s.bc.classes),
      );
      j.note = `${n} requests, ${classes.size} classes of input${record.notes.length ? `; ${record.notes.join('; ')}` : ''}`;
    },
  };
}

export function boundaryChecks(b: BoundaryScenarios, operations: readonly OperationEntry[]): Check[] {
  return operations.flatMap(({ operationId, method, path }) => {
    const posting = method !== 'GET';
    const post: Need[] = posting ? [need.profile('no-credit', 'boundary POST requests')] : [];
    const refusals: Answer[] = [{ status: 400 }, ...(path.includes('{') ? [{ status: 404 }] : [])];
    const out = [phaseCheck(operationId, 'boundary_values', b.refused, post, 'values at the edges', refusals)];
    if (operationId === 'generateVideo')
      out.push(
        phaseCheck(operationId, 'boundary_upload_sizes', b.sizes, [], 'upload sizes', [
          { status: 400, code: 'FILE_UPLOAD_ERROR' },
        ]),
      );
    if (posting) out.push(phaseCheck(operationId, 'boundary_positive_data_acceptance', b.positive, [], 'accepted'));
    return out;
  });
}
