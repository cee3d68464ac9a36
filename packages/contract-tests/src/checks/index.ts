// The catalogue, in the order the checks are judged (each scenario is sent when a check first reads
// it). Conformance comes last: it reads every exchange of the run.
import { OPERATIONS } from '@videogen/openapi/rules';
import type { Catalogue, Check } from '../engine/catalogue.ts';
import type { TargetConfig } from '../shapes.ts';
import { DISCOVERY_SOURCES } from '../scenarios/discovery.ts';
import { generationScenarios, ownVideoSource } from '../scenarios/generations.ts';
import { operationIds, SAMPLE_REQUESTS } from '../scenarios/requests.ts';
import { authChecks } from './auth.ts';
import { conformanceChecks } from './conformance.ts';
import { conversionChecks } from './conversions.ts';
import { loadContract } from '../engine/contract.ts';
import { reachable } from '../generation/links.ts';
import { boundaryScenarios } from '../generation/boundary.ts';
import { generatedScenarios, generationClock } from '../generation/scenarios.ts';
import { boundaryChecks } from './boundary.ts';
import { generatedChecks } from './generated.ts';
import { generationChecks } from './generation.ts';
import { limitChecks } from './limits.ts';
import { modeChecks } from './modes.ts';
import { pagingChecks } from './paging.ts';
import { statusChecks } from './status.ts';

/** The catalogue for a target (which combinations are generated depends on it: scenarios/generations.ts). */
export function catalogue(target: TargetConfig): Catalogue {
  // A build whose document is newer than its sample requests (they are typed by the same document, so
  // only a stale build can get here): fail at start, naming the operation.
  for (const op of loadContract().operations)
    if (!(op.operationId in SAMPLE_REQUESTS))
      throw new Error(
        `the contract suite cannot build a request for ${op.operationId}: add it to scenarios/requests.ts`,
      );
  const g = generationScenarios(target);
  const clock = generationClock();
  const posting = [...generationChecks(g), ...conversionChecks(target.stateful), ...modeChecks(g)];
  // Requests a conforming target refuses (no credit, but one at risk) go before those that spend credits,
  // so that a credit budget, once spent, stops as few of them as possible (the guard sends none after).
  const refusal = (c: Check) =>
    c.reads !== 'all' &&
    c.reads.uses.length === 0 &&
    ((cost) => cost.credits === 0 && cost.atRisk > 0)(c.reads.cost({ target, profile: target.profile }));
  return {
    checks: [
      ...pagingChecks,
      ...statusChecks,
      ...posting.filter(refusal),
      // Then the generations, the conversion and every combination (each waits for a free running place).
      ...posting.filter((c) => !refusal(c)),
      // Limits after the rest: a burst leaves the window full.
      ...limitChecks(g),
      ...authChecks(target),
      // Generated requests (when the run asks for them), before conformance, which judges their answers
      // too: the boundary phase (deterministic) first, then the random one; --max-time bounds both together.
      ...(target.generation?.boundary !== false && target.generation
        ? boundaryChecks(boundaryScenarios(clock), OPERATIONS)
        : []),
      ...(target.generation && target.generation.examples > 0
        ? generatedChecks(generatedScenarios(clock), OPERATIONS, reachable(loadContract()))
        : []),
      ...conformanceChecks(operationIds()),
    ],
    // Discovery first: a fixture found on the target is used before the run waits for its own video.
    fixtureSources: [...DISCOVERY_SOURCES, ownVideoSource(g.ownVideo)],
  };
}
