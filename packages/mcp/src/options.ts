// The server's options and the one client every request of the process shares (its pacer is the account's
// schedule: one per process, or one per account across processes with VIDEO_API_PACING_URL).
import { type ClientOptions, createClient, type VideoClient } from '@videogen/client';
import { ALLOW_HTTP_VARIABLE, allowedHttpHosts, type Plan, POLLING } from '@videogen/openapi/rules';
import { ToolProblem } from './answers.js';

export interface VideoMcpOptions {
  /**
   * The client's options (default: the environment, as the client reads it: VIDEO_API_KEY,
   * VIDEO_API_BASE_URL, VIDEO_API_PACING_URL, VIDEO_API_LOG, VIDEO_API_ALLOW_HTTP). Ignored when `client`
   * is given, except `allowHttpHosts`: the hosts plain http may reach besides loopback, for the files
   * fetched by URL too (default VIDEO_API_ALLOW_HTTP: one opt-in for the toolkit's every tool).
   */
  clientOptions?: ClientOptions;
  /** A client made already (its pacing, retries and key are then the caller's). */
  client?: VideoClient;
  /**
   * How long a wait_for_video call waits, at most, when the model does not say (default 50 s: under the
   * 60 s request timeout of the common MCP clients, for hosts that do not extend it on progress). A model
   * may ask for up to the interface's client-side timeout (x-polling, 600 s).
   */
  defaultWaitMs?: number;
  /**
   * Read local files for uploads and write downloads to local paths (default true). Turn it off for a
   * server whose callers are not on its machine: files then come by URL only, and download_video is refused.
   */
  localFiles?: boolean;
  /** Name and version in the MCP handshake (default @videogen/mcp and its version). */
  serverInfo?: { name: string; version: string };
}

/** Below the 60 s default request timeout of the MCP SDKs' clients. */
export const DEFAULT_WAIT_MS = 50_000;

/**
 * The longest a start may wait in the pacer, or on a Retry-After, inside one tool call: a call that would
 * wait longer answers at once with the wait instead (the client's own default, 15 min, suits a script).
 */
export const MAX_CALL_WAIT_MS = 60_000;

export interface Session {
  /** The client; throws the client's error (no key, a refused base URL) when it cannot be made. */
  client(): VideoClient;
  plan: Plan;
  baseUrl?: string;
  defaultWaitMs: number;
  maxWaitMs: number;
  localFiles: boolean;
  /** The hosts plain http may reach besides loopback (the client's rule and opt-in), for file URLs. */
  allowHttpHosts: string[];
}

/** The state every request of the server shares; the client is made on first use, so that a missing key is a tool error. */
export function createSession(options: VideoMcpOptions): Session {
  let client: VideoClient | undefined = options.client;
  const plan = options.client?.plan ?? options.clientOptions?.plan ?? 'personal';
  return {
    client() {
      try {
        client ??= createClient({
          ...options.clientOptions,
          retry: { maxWaitMs: MAX_CALL_WAIT_MS, ...options.clientOptions?.retry },
        });
      } catch (err) {
        // The client refuses a base URL or a pacing URL with a TypeError naming it: the server's configuration.
        if (err instanceof TypeError)
          throw new ToolProblem(
            'CONFIGURATION_ERROR',
            err.message,
            "correct VIDEO_API_BASE_URL or VIDEO_API_PACING_URL in this MCP server's configuration (the host's env for it), then restart it.",
          );
        throw err;
      }
      return client;
    },
    plan,
    baseUrl: options.client?.baseUrl ?? options.clientOptions?.baseUrl,
    defaultWaitMs: options.defaultWaitMs ?? DEFAULT_WAIT_MS,
    maxWaitMs: POLLING.timeoutMs,
    localFiles: options.localFiles ?? true,
    allowHttpHosts: allowedHttpHosts(options.clientOptions?.allowHttpHosts ?? process.env[ALLOW_HTTP_VARIABLE]),
  };
}
