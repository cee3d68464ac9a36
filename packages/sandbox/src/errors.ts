// The error envelope of interface 7.1, thrown from anywhere and rendered by the server's handler.
import { builtinTwin, type BehaviourKey } from '@videogen/openapi/twin';

/** A refusal the interface leaves open: its status and code are the twin's (`refusal.<kind>`). */
export type RefusalKind = BehaviourKey extends infer K ? (K extends `refusal.${infer R}` ? R : never) : never;

export class ApiError extends Error {
  /** Fields added to the envelope (a twin's `body.extra_fields.error`). */
  extra?: Record<string, unknown>;
  /** Which open refusal this is, when it is one: the twin answering decides its status and code. */
  refusal?: RefusalKind;
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
  get body() {
    return { error_code: this.code, error: this.message, ...this.extra };
  }
}

/**
 * One of the refusals the interface leaves open. Its status and code are the default twin's until the
 * route answers it in the words of the sandbox's twin (twin-behaviour.ts): no status or code of these is
 * written here.
 */
export function refusal(kind: RefusalKind, message: string, headers?: Record<string, string>): ApiError {
  const { status, error_code } = builtinTwin('default').behaviours[`refusal.${kind}`].value;
  return Object.assign(new ApiError(status, error_code, message, headers), { refusal: kind });
}

export const envelope = (code: string, error: string) => ({ error_code: code, error });
/** A 400 of the sandbox's own (its controls, a malformed request line), not an operation's. */
export const invalidRequest = (message: string) => new ApiError(400, 'INVALID_REQUEST', message);
export const notFound = (what: string) => new ApiError(404, 'NOT_FOUND', `${what} was not found.`);
