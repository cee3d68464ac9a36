// The checks of generated requests, per operation: what the interface says must be refused is refused
// (a 4xx in the envelope, never a success, never a 5xx), what it allows answers conformingly, and a
// request without a usable key is refused. A failure is reported with the smallest request fast-check
// shrank it to (its bundle replays that request alone); a difference from one of our decisions is drift.
import type { OperationEntry } from '@videogen/openapi/rules';
import type { OperationId } from '@videogen/openapi/types';
import { need, type Answer, type Check, type Need } from '../engine/catalogue.ts';
import { Judge } from '../engine/judge.ts';
import { DecisionStop, Violation } from '../engine/outcomes.ts';
import { describeCase } from '../generation/cases.ts';
import { judgeCase } from '../generation/judge.ts';
import type { LaneResult } from '../generation/property.ts';
import {
  LINKS_LANE,
  laneKey,
  type GeneratedRecord,
  type GeneratedScenarios,
  type LaneKind,
} from '../generation/scenarios.ts';

/** Judges every case of the kind the lane sent (mismatches into `j`), then its shrunk failure. */
function judgeLane(lane: LaneResult, j: Judge, record: GeneratedRecord, operation?: string): number {
  const mine = lane.sent.filter((s) => !s.shrinking && (!operation || s.case.operationId === operation));
  for (const s of mine) {
    for (const ex of s.exchanges) {
      // Each case on its own judge: the run goes on past a mismatch that stops one case's judgement.
      const one = new Judge(j.contract);
      try {
        judgeCase(s.case, ex, one);
      } catch (err) {
        if (!(err instanceof Violation) && !(err instanceof DecisionStop)) throw err;
      }
      j.mismatches.push(...one.mismatches);
    }
  }
  const f = lane.failure;
  if (f && (!operation || f.case.operationId === operation)) {
    const shrunk =
      f.shrinks > 0
        ? `${f.shrinks} shrinking step${f.shrinks === 1 ? '' : 's'}, ${f.shrinkRequests} requests; the first failing one: ${describeCase(f.first)}`
        : 'no smaller request fails';
    const after = f.before.length ? `\n  after: ${f.before.map(describeCase).join(' → ')}` : '';
    const last = f.exchanges[f.exchanges.length - 1];
    throw new Violation(
      `the random phase found a failing request: ${describeCase(f.case)} → ${last ? last.status : 'no answer'}: ${f.message}\n  smallest failing request: ${describeCase(f.case)} (${shrunk})${after}\n  reproduce: --seed ${record.seed} (lane ${lane.name}, fast-check seed ${lane.seed}${f.path ? `, path ${f.path}` : ''})`,
      f.exchanges,
    );
  }
  return mine.length;
}

function laneCheck(
  operation: OperationId,
  name: string,
  reads: GeneratedScenarios['keyed'],
  kind: LaneKind,
  needs: Need[],
  what: string,
  answers?: Answer[],
): Check<GeneratedRecord> {
  return {
    operation,
    name,
    reads,
    needs,
    bundle: 'shown',
    ...(answers && { answers }),
    // (j typed here so that TypeScript sees j.skip() end the judgement: the lane is there after it.)
    judge: (record, j: Judge) => {
      const lane = record.lanes.get(laneKey(operation, kind));
      if (!lane)
        j.skip(
          record.leftOut.get(operation) ??
            `no ${what} for ${operation} on this target (it knows no value that makes one)`,
        );
      const n = judgeLane(lane, j, record);
      if (n === 0)
        j.skip(
          lane.stopped
            ? `no ${what} was sent: ${lane.stopped}`
            : `no ${what} for ${operation} on this target (it knows no value that makes one)`,
        );
      j.note = `${n} generated${lane.stopped ? `; stopped early: ${lane.stopped}` : ''}`;
    },
  };
}

/** The link sequences' steps that reached an operation (a sequence that fails is shrunk to its shortest). */
function linksCheck(
  operation: OperationId,
  reads: GeneratedScenarios['links'],
  needs: Need[],
  answers?: Answer[],
): Check<GeneratedRecord> {
  return {
    operation,
    name: 'generated_stateful_links',
    reads,
    needs,
    bundle: 'shown',
    ...(answers && { answers }),
    judge: (record, j: Judge) => {
      const lane = record.lanes.get(LINKS_LANE);
      if (!lane) j.skip(record.leftOut.get(LINKS_LANE) ?? 'no link sequence was sent');
      const n = judgeLane(lane, j, record, operation);
      if (n === 0) j.skip(`no link sequence reached ${operation}${lane.stopped ? ` (${lane.stopped})` : ''}`);
      j.note = `${n} step${n === 1 ? '' : 's'} of link sequences`;
    },
  };
}

export function generatedChecks(
  g: GeneratedScenarios,
  /** The document's operations (its generated table). */
  operations: readonly OperationEntry[],
  /** The operations a link sequence can reach: its starts and the links' operations. */
  linked: Set<string>,
): Check[] {
  return operations.flatMap(({ operationId, method, path }) => {
    const posting = method !== 'GET';
    const post: Need[] = posting ? [need.profile('no-credit', 'generated POST requests')] : [];
    // What the refused lane provokes (the coverage matrix reads it): a 400, and a 404 where an id is in the path.
    const refusals: Answer[] = [{ status: 400 }, ...(path.includes('{') ? [{ status: 404 }] : [])];
    return [
      laneCheck(
        operationId,
        'generated_negative_data_rejection',
        g.keyed,
        'refused',
        post,
        'request the interface says must be refused',
        refusals,
      ),
      posting
        ? laneCheck(
            operationId,
            'generated_positive_data_conformance',
            g.spending,
            'spends',
            [],
            'request the interface allows',
          )
        : laneCheck(
            operationId,
            'generated_positive_data_conformance',
            g.keyed,
            'conforms',
            [],
            'request the interface allows',
          ),
      laneCheck(operationId, 'generated_ignored_auth', g.keyless, 'keyless', post, 'request without a usable key', [
        { status: 401, code: 'UNAUTHORIZED' },
        { status: 403, code: 'FORBIDDEN' },
      ]),
      ...(linked.has(operationId)
        ? [linksCheck(operationId, g.links, post, posting ? [{ status: 400 }] : undefined)]
        : []),
    ];
  });
}
