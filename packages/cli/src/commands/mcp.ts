import type { Command } from 'commander';
import { buildClient, clientOptionsOf, type Invocation, NO_API_KEY, parseSeconds } from '../context.js';
import { CliError, usageError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { interruptible } from '../interrupt.js';

interface McpFlags {
  http?: string;
  host?: string;
  localFiles: boolean;
  waitTimeout?: number;
}

/** The package name, kept out of a string literal import so that the bundler leaves it to run time. */
const MCP_PACKAGE = '@videogen/mcp';

/**
 * `@videogen/mcp` is an optional peer of the CLI: the MCP SDK and zod weigh about 20 MB installed, more
 * than the whole CLI, for a command most users never run. It is loaded only when `videogen mcp` runs.
 */
async function loadMcp(): Promise<typeof import('@videogen/mcp')> {
  try {
    return (await import(MCP_PACKAGE)) as typeof import('@videogen/mcp');
  } catch (err) {
    if ((err as { code?: string })?.code === 'ERR_MODULE_NOT_FOUND' && String(err).includes(MCP_PACKAGE))
      throw new CliError(
        `videogen mcp needs the package ${MCP_PACKAGE}, installed beside the CLI: npm install --global ${MCP_PACKAGE} (or, with npx: npx -p @videogen/cli -p ${MCP_PACKAGE} videogen mcp).`,
        EXIT.ERROR,
        'MCP_NOT_INSTALLED',
      );
    throw err;
  }
}

function parsePort(value: string): string {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535)
    throw usageError(`--http takes a port number (0 for a free one), not "${value}".`);
  return value;
}

const isLoopback = (host: string) => host === 'localhost' || host === '::1' || /^127\./.test(host);

export function registerMcp(program: Command, invocation: Invocation): void {
  program
    .command('mcp')
    .description(
      "Run an MCP server for AI assistants (Claude Desktop, VS Code, Cursor...) over stdio, or Streamable HTTP with --http: tools to generate, wait for, convert and download videos, paced to the account's limits.",
    )
    .option(
      '--http <port>',
      'serve Streamable HTTP on http://127.0.0.1:PORT/mcp instead of stdio (0: a free port)',
      parsePort,
    )
    .option('--host <address>', 'the address --http listens on (default 127.0.0.1: this machine only)')
    .option('--no-local-files', 'refuse local file paths (uploads by https URL only; no download_video)')
    .option(
      '--wait-timeout <seconds>',
      'how long wait_for_video waits when the model does not say (default 50)',
      parseSeconds('--wait-timeout'),
    )
    .addHelpText(
      'after',
      `
The server speaks on stdout (stdio): nothing else is printed there; notes go to stderr.
Configuration comes from the environment as for every command: VIDEO_API_KEY, VIDEO_API_BASE_URL,
VIDEO_API_PACING_URL (share the account's limits with its other processes), VIDEO_API_PLAN.
Host configuration (Claude Desktop, VS Code, Cursor): see the guide "The MCP server for agents".
Examples:
  videogen mcp
  videogen mcp --http 7010`,
    )
    .action(async (flags: McpFlags) => {
      if (flags.host !== undefined && flags.http === undefined) throw usageError('--host goes with --http PORT.');
      const mcp = await loadMcp();
      // A wait longer than a tool call should hold is answered, not slept (the MCP server's ceiling).
      const clientOptions = { ...clientOptionsOf(invocation), retry: { maxWaitMs: mcp.MAX_CALL_WAIT_MS } };
      const apiKey = process.env.VIDEO_API_KEY;
      // A missing key does not stop the server: each tool answers with the fix, which the model can relay
      // (a host shows a server that exits at start only in its logs).
      if (!apiKey) process.stderr.write(`videogen mcp: ${NO_API_KEY} Until then every tool answers so.\n`);
      const client = apiKey ? buildClient({ ...clientOptions, apiKey }) : undefined;
      const options = {
        ...(client ? { client } : { clientOptions }),
        localFiles: flags.localFiles,
        ...(flags.waitTimeout !== undefined && { defaultWaitMs: Math.round(flags.waitTimeout * 1000) }),
      };

      if (flags.http === undefined) {
        const handle = mcp.serveMcpStdio(options);
        // Until the host closes stdin (or a signal): then the command ends.
        await interruptible(
          (signal) =>
            new Promise<void>((resolve) => {
              process.stdin.once('close', resolve);
              process.stdin.once('end', resolve);
              signal.addEventListener('abort', () => resolve(), { once: true });
            }),
        );
        await handle.close();
        return;
      }
      const host = flags.host ?? '127.0.0.1';
      const server = await mcp.serveMcpHttp({
        ...options,
        port: Number(flags.http),
        host,
        onError: (e) => process.stderr.write(`videogen mcp: ${e.message}\n`),
      });
      process.stderr.write(`videogen mcp: Streamable HTTP on ${server.url}\n`);
      if (!isLoopback(host))
        process.stderr.write(
          `videogen mcp: listening on ${host}: anyone who can reach this address uses the account's key through it; prefer the default 127.0.0.1.\n`,
        );
      await interruptible(
        (signal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true })),
      );
      await server.close();
    });
}
