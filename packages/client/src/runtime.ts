// Node built-ins are reached at call time through process.getBuiltinModule (Node 20.16+, Bun, Deno,
// workerd with nodejs_compat), never imported statically: the client then loads where they do not
// exist (a Cloudflare Worker without nodejs_compat), and only what needs one (file paths) says so.
type Proc = { env?: Record<string, string | undefined>; getBuiltinModule?: (id: string) => unknown };
const proc = () => (globalThis as { process?: Proc }).process;

/** The process environment, or an empty one where there is none (a Worker: pass options explicitly). */
export const env = (): Record<string, string | undefined> => proc()?.env ?? {};

/** A Node built-in module (`node:fs`…), or undefined where the runtime has none. */
export const builtin = <T>(id: string): T | undefined => proc()?.getBuiltinModule?.(id) as T | undefined;

/** Where a file path cannot work: one clear error instead of a crash at import. */
export const noFileSystem = (what: string) =>
  `${what} needs a file system (node:fs), which this runtime does not have: pass a Blob, File or bytes instead of a path`;

/**
 * The redirect mode of an upload. Node's fetch (undici) keeps a streamed body in memory until the
 * upload ends unless redirects are refused ('error'): a 180 MB upload then costs about +50 MB of RSS
 * instead of +210 MB (npm run bench). workerd rejects 'error' at fetch time, so a Worker uses
 * 'manual'. Either way a 3xx to an upload ends as an error: its body cannot be sent again.
 */
export const uploadRedirect = (): RequestRedirect =>
  (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers'
    ? 'manual'
    : 'error';
