// Personalities: how the sandbox answers wherever the interface is silent. `default` is our own
// choices (the OpenAPI document and DECISIONS.md). `alternative` stays inside the interface but
// chooses differently at every such point, the way another honest implementation of the same
// interface could (the README's table lists each choice). Nothing the interface states changes: 7.2's
// codes and statuses for conversions, 401/403 for auth, 429 for the rate limit, 503
// SIMULTANEOUS_GENERATE_LIMIT, the fields of 2.x, items_per_page 50, the languages and ratios.
import type { Operation } from '@videogen/openapi';
import type { OperationId } from '@videogen/openapi/types';
import { ApiError } from './errors.js';
import type { RateLimiterStyle } from './rate-limit.js';

export const PERSONALITIES = ['default', 'alternative'] as const;
export type PersonalityName = (typeof PERSONALITIES)[number];

export function isPersonality(v: unknown): v is PersonalityName {
  return typeof v === 'string' && (PERSONALITIES as readonly string[]).includes(v);
}

/** Why an error was raised, where the status alone does not tell. */
export interface ErrorCause {
  /** The raw Authorization header of a 401. */
  authorization?: string;
  /** A path parameter failed its schema (a malformed UUID). */
  pathParameter?: boolean;
  /** Wall-clock now (epoch ms), for an HTTP-date Retry-After. */
  now: number;
}

export interface Personality {
  name: PersonalityName;
  rateLimiter: RateLimiterStyle;
  /** Send RateLimit-Limit/-Remaining/-Reset/-Policy. */
  rateLimitHeaders: boolean;
  /** GET /videos/ oldest first (else newest first). */
  oldestFirst: boolean;
  /** A page past the end answers the last page (else an empty page with the page asked for). */
  clampPage: boolean;
  /** A setting's request_fields accept any subset in a valid combination (else DECISIONS #26). */
  lenientRequestFields: boolean;
  successStatus(op: Operation): number;
  error(op: Operation, err: ApiError, cause: ErrorCause): ApiError;
  body(op: Operation, body: unknown): unknown;
  /**
   * For the response self-check: the status our document declares for what this personality
   * answered (the same status for `default`), and whether a problem found by the check is one of
   * this personality's deliberate differences rather than a sandbox bug.
   */
  declaredStatus(op: Operation, status: number, body: unknown): number;
  deliberate(problem: string): boolean;
}

const defaultPersonality: Personality = {
  name: 'default',
  rateLimiter: 'even',
  rateLimitHeaders: true,
  oldestFirst: false,
  clampPage: false,
  lenientRequestFields: false,
  successStatus: () => 200,
  error: (_op, err) => err,
  body: (_op, body) => body,
  declaredStatus: (_op, status) => status,
  deliberate: () => false,
};

const CREATES = new Set(['generateVideo', 'createConversion']);
/** Codes we invented (DECISIONS #5–#8, #10) → the alternative's names for the same errors. */
const RENAMED: Record<string, string> = {
  INVALID_REQUEST: 'VALIDATION_ERROR',
  INVALID_VIDEO_SETTING: 'VIDEO_SETTING_MISMATCH',
  FILE_UPLOAD_ERROR: 'UPLOAD_REJECTED',
  RATE_LIMIT_EXCEEDED: 'TOO_MANY_REQUESTS',
};
/** An object kind per operation, added to every object as `object` (extra fields are allowed, 2.x shows no others). */
const KINDS: Record<OperationId, string> = {
  getVideo: 'video',
  generateVideo: 'video',
  createConversion: 'video',
  getConversionOptions: 'conversion_options',
  listVideos: 'video_list_item',
  listVideoSettings: 'video_setting',
};
/** "ISO 8601 UTC": the same instant written with an explicit offset instead of `Z`. */
const withOffset = (iso: unknown) =>
  typeof iso === 'string' && iso.endsWith('Z') ? `${iso.slice(0, -1).replace(/\.\d+$/, '')}+00:00` : iso;
const httpDate = (ms: number) => new Date(Math.ceil(ms / 1000) * 1000).toUTCString();
let requestSeq = 0;
const requestId = () => `req_${Date.now().toString(36)}${(requestSeq++).toString(36).padStart(4, '0')}`;

const alternative: Personality = {
  name: 'alternative',
  rateLimiter: 'even',
  rateLimitHeaders: false,
  oldestFirst: true,
  clampPage: true,
  lenientRequestFields: true,
  successStatus: (op) => (CREATES.has(op.operationId) ? 201 : 200),
  error(op, err, cause) {
    let status = err.status;
    let code = err.code;
    const headers: Record<string, string> = {};
    if (status === 401) {
      // 5.4: 401 or 403. A well-formed bearer token the service does not know is "forbidden".
      const wellFormed = typeof cause.authorization === 'string' && /^Bearer +\S+ *$/i.test(cause.authorization);
      status = wellFormed ? 403 : 401;
      code = wellFormed ? 'INVALID_API_KEY' : 'AUTHENTICATION_REQUIRED';
    } else if (status === 429 && code === 'RATE_LIMIT_EXCEEDED') {
      code = RENAMED[code];
      const seconds = Number(err.headers['Retry-After']);
      if (Number.isFinite(seconds)) headers['Retry-After'] = httpDate(cause.now + seconds * 1000);
    } else if (status === 400 && cause.pathParameter) {
      // No resource lives at a malformed id.
      status = 404;
      code = 'NOT_FOUND';
    } else if (status === 400 && op.operationId === 'generateVideo') {
      status = 422;
      code = RENAMED[code] ?? code;
    } else if (status === 400 && op.operationId !== 'createConversion') {
      code = RENAMED[code] ?? code;
    } else if (status === 400 && code === 'INVALID_REQUEST') {
      // A conversion body that is not a JSON object: not a row of 7.2, so its code is ours to pick.
      code = RENAMED[code];
    } else {
      // 7.2's rows, 404, 500, 503 and the credit 429 keep their codes; Retry-After on 503 is not sent.
      for (const [k, v] of Object.entries(err.headers)) if (k !== 'Retry-After') headers[k] = v;
    }
    return Object.assign(new ApiError(status, code, err.message, headers), { extra: { request_id: requestId() } });
  },
  body(op, body) {
    const kind = KINDS[op.operationId as OperationId] ?? 'object';
    // The bodies are JSON objects of the document's types; the decoration is the same for each.
    const decorate = (o: object, k: string) => {
      const out: Record<string, unknown> = { object: k, ...o };
      if ('created_at' in out) out.created_at = withOffset(out.created_at);
      if ('updated_at' in out) out.updated_at = withOffset(out.updated_at);
      // 2.1: "Structure of its elements: not shown" — objects instead of strings.
      if (Array.isArray(out.copyright))
        out.copyright = out.copyright.map((c: unknown) => (typeof c === 'string' ? { notice: c } : c));
      return out;
    };
    if (!body || typeof body !== 'object') return body;
    const b = body as { results?: unknown; has_next?: boolean; page?: number };
    if (Array.isArray(b.results)) {
      return {
        object: 'list',
        ...b,
        results: b.results.map((r: object) => decorate(r, kind)),
        next_page: b.has_next && b.page !== undefined ? b.page + 1 : null,
      };
    }
    return decorate(b, kind);
  },
  declaredStatus(op, status, body) {
    if (status === 201 && CREATES.has(op.operationId)) return 200;
    if (status === 422 && op.operationId === 'generateVideo') return 400;
    if (status === 403 && (body as { error_code?: unknown } | undefined)?.error_code === 'INVALID_API_KEY') return 401;
    return status;
  },
  // Its error codes are deliberately other names; everything else (fields, types, statuses mapped
  // back, 7.2's codes on conversions, which keep their enum) is still checked.
  deliberate: (problem) => /body\/error_code /.test(problem) && !/createConversion/.test(problem),
};

export function personality(name: PersonalityName = 'default'): Personality {
  if (!isPersonality(name))
    throw new Error(`personality must be one of ${PERSONALITIES.join(', ')}, got ${String(name)}`);
  return name === 'alternative' ? alternative : defaultPersonality;
}
