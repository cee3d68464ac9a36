// ignored_auth: every operation refuses a request without a usable key (401 or 403, interface 5.4).
import { randomBytes } from 'node:crypto';
import { check, ensureError, type Check } from './types.ts';
import { sampleRequest } from './requests.ts';
import type { Auth } from '../http.ts';

import { OPERATION_IDS as OPERATIONS } from './operations.ts';

const VARIANTS: Array<{ name: string; auth: () => Auth; needsKeyCheck?: boolean }> = [
  { name: 'ignored_auth_missing', auth: () => 'none' },
  // A scheme other than Bearer: the key is not even in the expected form.
  { name: 'ignored_auth_malformed', auth: () => ({ header: 'Basic Y29udHJhY3Q6c3VpdGU=', label: 'malformed Authorization (Basic)' }) },
  { name: 'ignored_auth_unknown_key', auth: () => ({ header: `Bearer contract-unknown-${randomBytes(12).toString('hex')}`, label: 'unknown key' }), needsKeyCheck: true },
];

export const authChecks: Check[] = OPERATIONS.flatMap((operation) =>
  VARIANTS.map((v) =>
    check(operation, v.name, async (ctx) => {
      const { run } = ctx;
      if (v.needsKeyCheck && !run.target.checksKeys) ctx.skip(`target ${run.target.kind} only checks that a bearer token is present, not its value`);
      // An unauthenticated POST creates nothing on a conforming service, but read-only means no POST at all.
      if (operation === 'generateVideo' || operation === 'createConversion') ctx.requireFull('POST requests');
      const req = sampleRequest(run, operation);
      const ex = await run.anon.request(req.method, req.path, { ...req.opts, auth: v.auth() });
      ensureError(ex, [401, 403]);
    }),
  ),
);
