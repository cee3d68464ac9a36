// What a generated case's answer must be, judged with the suite's own judge (engine/judge.ts), so that
// the two tiers hold for generated requests too: what the interface states fails, a difference from one
// of our decisions (x-decision, a status or code chosen where the interface is silent) is drift.
// Used twice: inside the property, as the oracle fast-check shrinks against, and by the checks that
// judge the recorded cases.
import { ensure, MISMATCH_KIND, type Judge } from '../engine/judge.ts';
import { POLLING } from '@videogen/openapi/rules';
import { TERMINAL } from '../scenarios/videos.ts';
import type { OperationId } from '@videogen/openapi/types';
import type { Exchange } from '../shapes.ts';
import { describeCase, type GeneratedCase } from './cases.ts';

export function judgeCase(c: GeneratedCase, ex: Exchange, j: Judge): void {
  const e = c.expect;
  const what = describeCase(c);
  if (e.kind === 'refused') {
    ensure(
      ex.status < 500,
      `answered ${ex.status} to a request the interface says must be refused\n  generated: ${what}`,
      ex,
    );
    if (ex.status >= 200 && ex.status < 300) {
      if (e.decided)
        j.mismatchAndStop(e.decided, 'value', `accepted a request only our decision refuses\n  generated: ${what}`, ex);
      ensure(false, `accepted a request the interface says must be refused\n  generated: ${what}`, ex);
    }
    // The status (another 4xx than a decided one is a mismatch) and the envelope.
    j.refusal(ex, e.statuses);
    if (e.preferred !== undefined && ex.status !== e.preferred) {
      const d = j.contract.decisionFor(c.operationId, e.preferred);
      if (d)
        j.mismatch(
          d,
          'status',
          `answered ${ex.status} where the document chose ${e.preferred}\n  generated: ${what}`,
          ex,
        );
    }
    const code = (ex.body as { error_code?: unknown }).error_code as string;
    if (e.codes?.length && !e.codes.includes(code)) {
      if (e.alsoUnder?.codes.includes(code))
        j.mismatch(
          e.alsoUnder.decision,
          'error_code',
          `answered ${code} where the document's order of the rows gives ${e.codes.join(' or ')}\n  generated: ${what}`,
          ex,
        );
      else {
        // Our own codes (x-enumDecisions) differ from a decision; the interface's codes are the interface.
        const decision = j.contract.codeDecision(e.codes);
        if (decision)
          j.mismatch(
            decision,
            'error_code',
            `expected error_code ${e.codes.join(' or ')}, got ${code}\n  generated: ${what}`,
            ex,
          );
        else ensure(false, `expected error_code ${e.codes.join(' or ')}, got ${code}\n  generated: ${what}`, ex);
      }
    } else if (!e.codes) {
      const decided = j.contract.decidedCode(c.operationId, ex.status);
      if (decided && decided.code !== code)
        j.mismatch(
          decided.decision,
          'error_code',
          `expected error_code ${decided.code}, got ${code}\n  generated: ${what}`,
          ex,
        );
    }
  }
  if (e.kind === 'accepted')
    j.success(ex as Exchange<OperationId>, `a request the interface says is valid\n  generated: ${what}`);
  if (e.kind === 'terminal') {
    const body = j.success(ex as Exchange<'getVideo'>, `the status of a video the run created\n  generated: ${what}`);
    ensure(
      typeof body?.status === 'string' && TERMINAL.includes(body.status),
      `the video the run created is still ${JSON.stringify(body?.status)} at the end of its polling (x-polling: at most ${POLLING.timeoutMs / 1000} s)\n  generated: ${what}`,
      ex,
    );
  }
  // Everything the response checks found in the answer: the interface's fail, the decisions' are drift.
  for (const p of ex.problems)
    if (p.decision) j.mismatch(p.decision, MISMATCH_KIND[p.kind], `${p.message}\n  generated: ${what}`, ex);
  const broken = ex.problems.filter((p) => !p.decision);
  ensure(broken.length === 0, `${broken.map((p) => p.message).join('; ')}\n  generated: ${what}`, ex);
}
