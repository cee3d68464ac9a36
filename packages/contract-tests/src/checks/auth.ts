// ignored_auth: every operation refuses a request without a usable key (401 or 403, interface 5.4).
// The status 401 and its code are this document's choices (#29, #7): another is a mismatch.
import { randomBytes } from 'node:crypto';
import { OPERATIONS } from '@videogen/openapi/rules';
import { need, probe, type Check } from '../engine/catalogue.ts';
import type { Auth, TargetConfig } from '../shapes.ts';
import { operationIds, sampleRequest } from '../scenarios/requests.ts';

const VARIANTS: Array<{ name: string; auth: () => Auth; checksKeys?: boolean }> = [
  { name: 'ignored_auth_missing', auth: () => 'none' },
  // A scheme other than Bearer: the key is not even in the expected form.
  {
    name: 'ignored_auth_malformed',
    auth: () => ({ header: 'Basic Y29udHJhY3Q6c3VpdGU=', label: 'malformed Authorization (Basic)' }),
  },
  {
    name: 'ignored_auth_unknown_key',
    auth: () => ({ header: `Bearer contract-unknown-${randomBytes(12).toString('hex')}`, label: 'unknown key' }),
    checksKeys: true,
  },
];

export function authChecks(target: TargetConfig): Check[] {
  return operationIds().flatMap((operation) => {
    const classA = OPERATIONS.find((o) => o.operationId === operation)?.rateClass === 'A';
    return VARIANTS.map((v) =>
      probe(operation, v.name, {
        keyless: true,
        needs: [
          ...(v.checksKeys ? [need.checksKeys('only checks that a bearer token is present, not its value')] : []),
          // An unauthenticated POST creates nothing on a conforming service, but read-only means no POST at all.
          ...(classA ? [need.profile('no-credit', 'POST requests')] : []),
        ],
        // Without an account's key: no credit of ours at risk (the run's guard does not hold these).
        cost: classA ? { apartA: 1 } : { apartB: 1 },
        send: async (s) => {
          return s.anon.call(operation, { ...sampleRequest(target.fixtures, operation), auth: v.auth() });
        },
        judge: (ex, j) => {
          j.refusal(ex, [401, 403]);
          const decided401 = j.contract.decisionFor(operation, 401);
          if (ex.status === 403 && decided401)
            j.mismatch(
              decided401,
              'status',
              'answered 403 where the document chose 401 for a missing or invalid key',
              ex,
            );
          const code = j.contract.decidedCode(operation, ex.status);
          const got = (ex.body as { error_code?: unknown }).error_code;
          if (code && got !== code.code)
            j.mismatch(code.decision, 'error_code', `expected error_code ${code.code}, got ${got}`, ex);
        },
        // 401 UNAUTHORIZED is our choice (#29, #7); 403 FORBIDDEN what a service that chose 403 answers.
        answers: [
          { status: 401, code: 'UNAUTHORIZED' },
          { status: 403, code: 'FORBIDDEN' },
        ],
      }),
    );
  });
}
