// The operations the generic checks (auth, conformance) cover: every operation of the spec, from the
// rules module's operation table, never a list typed here. An operation the suite cannot probe stops it.
import { OPERATIONS } from '@videogen/openapi/rules';
import { SAMPLED_OPERATIONS } from './requests.ts';

export const OPERATION_IDS: string[] = OPERATIONS.map((o) => o.operationId);

const missing = OPERATION_IDS.filter((id) => !SAMPLED_OPERATIONS.has(id));
if (missing.length > 0) {
  throw new Error(`contract suite cannot start: operation(s) ${missing.join(', ')} of the spec have no sample request (add one in src/checks/requests.ts)`);
}
