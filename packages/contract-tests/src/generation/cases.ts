// A generated request as data: (operationId, path parameters, query, headers, body) and what the
// interface says of it. Sending it is one small adapter (send.ts); a later typed transport
// (`call('getVideo', { path: { video_id } })`) takes the same data.
import type { Auth } from '../shapes.ts';

/** One part of a generated multipart form: a text field, or a file of `size` bytes of `fill`. */
export interface FormPart {
  name: string;
  value?: string;
  file?: { filename: string; type: string; size: number; fill: number };
}

export type CaseBody =
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; text: string; contentType: string }
  | { kind: 'form'; parts: FormPart[] };

/**
 * What the interface says of a generated request.
 * - `refused`: one of `statuses` with the envelope, never a success or a 5xx. `codes`: the codes that
 *   fit (empty: any); `alsoUnder`: codes that fit only by a decision of ours (the order of 7.2's rows,
 *   #25), a mismatch with it; `decided`: the refusal itself is our decision (acceptance is a mismatch).
 *   `preferred`: the status of our decision among `statuses` (401 of 401 or 403, #29).
 * - `conforms`: a request the interface allows: whatever answers, it conforms (no 5xx, declared status,
 *   schema, envelope). Acceptance is not demanded: a real service may refuse what the interface is silent on.
 * - `accepted`: a request the interface states is valid (a combination of 4.1 with the setting of its
 *   fields, extensions and sizes within the plan's limits, at most 10 images; a conversion its source
 *   offers): a success, which conforms. A credit when sent: only within the run's credit budget.
 * - `terminal`: a status read of a video the run created, at the end of its polling: a success whose
 *   status is one the video does not leave (x-polling; DECISIONS #3).
 */
export type Expectation =
  | {
      kind: 'refused';
      statuses: number[];
      codes?: string[];
      alsoUnder?: { codes: string[]; decision: number[] };
      decided?: number[];
      preferred?: number;
      /** Why it must be refused, for messages: `page 0 is below the minimum 1`. */
      why: string;
    }
  | { kind: 'conforms'; why: string }
  | { kind: 'accepted'; why: string }
  | { kind: 'terminal'; why: string };

export interface GeneratedCase {
  operationId: string;
  /** Path parameters by name (raw; the adapter encodes them). */
  path: Record<string, string>;
  /** Query parameters by name; a list is the parameter given once per value (`page=1&page=2`). */
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  auth: Auth;
  body?: CaseBody;
  expect: Expectation;
}

/** One line that tells a reader what the case varied. */
export function describeCase(c: GeneratedCase): string {
  const parts = [c.expect.why];
  const auth = c.auth === 'key' ? '' : c.auth === 'none' ? 'no key' : c.auth.label;
  if (auth) parts.push(auth);
  const extra = Object.entries(c.headers).filter(([k]) => k !== 'accept');
  if (extra.length) parts.push(extra.map(([k, v]) => `${k}: ${v}`).join(', '));
  return parts.join('; ');
}

/** The last status read of a video the run created: it must have ended (x-polling). */
export function terminalCase(videoId: string, why: string): GeneratedCase {
  return {
    operationId: 'getVideo',
    path: { video_id: videoId },
    query: {},
    headers: {},
    auth: 'key',
    expect: { kind: 'terminal', why },
  };
}
