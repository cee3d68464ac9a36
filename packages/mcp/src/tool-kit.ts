// What every tool handler shares: the session (the one client), the call's cancellation, progress
// notifications when the caller asked for them (a progressToken), and one catch that turns any failure
// into a tool error with its code and fix.
import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import type { VideoClient } from '@videogen/client';
import { STRING_FORMATS, UUID_PATTERN } from '@videogen/openapi/rules';
import * as z from 'zod/v4';
import { refusal } from './answers.js';
import type { Session } from './options.js';
import { describeFailure, type FailureContext } from './tool-errors.js';

export interface Call {
  session: Session;
  client: VideoClient;
  signal: AbortSignal;
  /** Sends notifications/progress when the caller gave a progress token; does nothing otherwise. */
  progress(progress: number, total: number | undefined, message: string): Promise<void>;
  /** What the failure message may name (the video). */
  about: FailureContext;
}

/** Runs a tool's work; whatever it throws becomes a tool error (code, service's words, fix), never a stack. */
export async function runTool(
  session: Session,
  ctx: ServerContext,
  work: (call: Call) => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const about: FailureContext = { baseUrl: session.baseUrl };
  try {
    const client = session.client();
    about.baseUrl = client.baseUrl;
    const token = ctx.mcpReq._meta?.progressToken;
    let last = Number.NEGATIVE_INFINITY;
    const call: Call = {
      session,
      client,
      signal: ctx.mcpReq.signal,
      about,
      async progress(progress, total, message) {
        // Progress must increase for one token: a repeated value is dropped.
        if (token === undefined || progress <= last) return;
        last = progress;
        await ctx.mcpReq
          .notify({
            method: 'notifications/progress',
            params: { progressToken: token, progress, ...(total !== undefined && { total }), message },
          })
          // A caller that went away cannot stop the work it asked for from answering.
          .catch(() => {});
      },
    };
    return await work(call);
  } catch (err) {
    return refusal(describeFailure(err, about));
  }
}

/** A video id as the document types it (format: uuid), checked before anything is sent. */
export const videoId = (what: string) =>
  z.string().regex(UUID_PATTERN, `must be ${STRING_FORMATS.uuid.description}`).describe(what);
