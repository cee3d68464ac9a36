// What the MCP tests share: a sandbox at 10× whose generations run an hour of its time (six minutes of
// real time), so that two videos stay running until a test moves the account's clock; the official SDK's
// client; and a recorder that writes each session as a transcript (test-results/), for people to read.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/client';
import { startSandbox } from '@videogen/sandbox';

/** The CLI's built entry: `videogen mcp` runs as `node CLI mcp`. */
export const CLI = fileURLToPath(new URL('../../cli/dist/cli.js', import.meta.url));

/** A generation's length in the sandbox's time: the tests end it by advancing the account's clock. */
export const GENERATION_SECONDS = 3600;

/**
 * 10×: pacing and polling ten times faster than the service (a status read every second), while the
 * server's schedule still counts a started video for a minute of real time (the 600 s of 4.7, scaled):
 * long enough that a loaded machine cannot let it lapse between two starts and the third.
 */
export const TIME_SCALE = 10;

export function startTestSandbox() {
  return startSandbox({ port: 0, timeScale: TIME_SCALE, generationSeconds: GENERATION_SECONDS });
}

export interface ToolText {
  isError?: boolean;
  content: Array<{ type: string; text?: string; uri?: string }>;
  structuredContent?: Record<string, unknown>;
}

/** The text blocks of a tool result, joined. */
export const textOf = (r: ToolText) =>
  r.content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');

/** A session written as a transcript: each call, what it sent, the progress it got, what it answered. */
export class Transcript {
  readonly lines: string[] = [];
  constructor(readonly title: string) {
    this.lines.push(`# ${title}`, '');
  }

  note(text: string) {
    this.lines.push(`_${text}_`, '');
  }

  /** A tool call through the SDK client, recorded (and its progress notifications). */
  async call(
    client: Client,
    name: string,
    args: Record<string, unknown>,
    o: { onprogress?: (p: { progress: number; total?: number; message?: string }) => void } = {},
  ): Promise<ToolText & { progress: Array<{ progress: number; total?: number; message?: string }> }> {
    const progress: Array<{ progress: number; total?: number; message?: string }> = [];
    const started = Date.now();
    const result = (await client.callTool(
      { name, arguments: args },
      {
        ...(o.onprogress && {
          onprogress: (p: { progress: number; total?: number; message?: string }) => {
            progress.push(p);
            o.onprogress?.(p);
          },
        }),
        resetTimeoutOnProgress: true,
      },
    )) as ToolText;
    this.lines.push(`**→ ${name}** \`${JSON.stringify(args)}\``, '');
    for (const p of progress) this.lines.push(`  ⋯ progress ${p.progress}/${p.total ?? '?'}: ${p.message ?? ''}`);
    if (progress.length) this.lines.push('');
    const took = Date.now() - started;
    this.lines.push(
      `**← ${result.isError ? 'tool error' : 'answer'}** (${took} ms)`,
      '',
      '```text',
      textOf(result),
      '```',
      '',
    );
    if (result.structuredContent)
      this.lines.push('```json', JSON.stringify(result.structuredContent, null, 2), '```', '');
    return { ...result, progress };
  }

  write(file: string) {
    const dir = fileURLToPath(new URL('../test-results/', import.meta.url));
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${dir}${file}`, `${this.lines.join('\n')}\n`);
  }
}
