// What a tool answers: a short text a model reads, and the same facts as structured content for code. An
// error is a tool error (`isError: true`) carrying the envelope's `error_code`, the service's words and
// the fix, never a stack.
import type { CallToolResult } from '@modelcontextprotocol/server';

export type Structured = Record<string, unknown>;

export function answer(text: string, structuredContent: Structured): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent };
}

/** The body of a tool error: the envelope's two fields, and what to do. */
export interface ToolErrorBody extends Structured {
  error_code: string;
  error: string;
  /** What the model (or its user) should do next. */
  fix: string;
  /** The HTTP status the service answered, when it answered. */
  status?: number;
  /** When waiting helps: how long. */
  retry_after_seconds?: number;
}

export function refusal(body: ToolErrorBody): CallToolResult {
  const status = body.status ? ` (HTTP ${body.status})` : '';
  return {
    isError: true,
    content: [{ type: 'text', text: `${body.error_code}${status}: ${body.error} Fix: ${body.fix}` }],
    structuredContent: body,
  };
}

/**
 * A refusal of this server's own, before anything reaches the service (a bad path, a busy account): it
 * carries its code and its fix, like an answer of the service.
 */
export class ToolProblem extends Error {
  override readonly name = 'ToolProblem';
  constructor(
    readonly error_code: string,
    message: string,
    readonly fix: string,
    readonly extra: Structured = {},
  ) {
    super(message);
  }
}
