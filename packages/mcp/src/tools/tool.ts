// One tool: its name, what a model reads (title, description, the input schema's descriptions), the
// hints a host reads (annotations), and its work.
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/server';
import type * as z from 'zod/v4';
import type { Call } from '../tool-kit.js';

export interface VideoTool<S extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  inputSchema: S;
  annotations: ToolAnnotations;
  run(args: z.infer<S>, call: Call): Promise<CallToolResult>;
}

/** Keeps the schema's type for `run`'s arguments. */
export const defineTool = <S extends z.ZodObject>(tool: VideoTool<S>): VideoTool<S> => tool;
