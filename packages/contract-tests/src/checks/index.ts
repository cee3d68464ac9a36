// The catalogue, in the order the checks run. Conformance comes last: it reads every exchange.
import type { Check } from './types.ts';
import { authChecks } from './auth.ts';
import { pagingChecks } from './paging.ts';
import { statusChecks } from './status.ts';
import { generationChecks } from './generation.ts';
import { conversionChecks } from './conversions.ts';
import { generationModeChecks } from './generation-modes.ts';
import { limitChecks } from './limits.ts';
import { conformanceChecks } from './conformance.ts';

import { OPERATION_IDS } from './operations.ts';

export { OPERATION_IDS };

/** Groups, one suite file each. */
export const groups: Record<string, Check[]> = {
  paging: pagingChecks,
  status: statusChecks,
  generation: generationChecks,
  conversions: conversionChecks,
  // Every input mode, after the conversions: each waits for a free place among the 2 running videos.
  generationModes: generationModeChecks,
  // Limits after the rest: a burst leaves the window full, and the concurrency check waits for running videos.
  limits: limitChecks,
  auth: authChecks,
  conformance: conformanceChecks(OPERATION_IDS),
};

export function allChecks(): Check[] {
  return Object.values(groups).flat();
}
