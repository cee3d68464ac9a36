// The /_sandbox/ controls wipe an account (a data dir's videos too), move its time and queue faults, with
// keys that are public (the README prints them). No web page may use them: not one of another origin
// (the controls answer no CORS, and a cross-site request is refused even when it is a "simple" one that
// needs no preflight), nor one that reached the sandbox under a name of its own (DNS rebinding). The rule
// is the rules' browser check (hosts.ts of @videogen/openapi/rules); tools that are not browsers (tests,
// curl, the client, sb.fetch) send neither header and are not concerned.
import { browserRequestProblem } from '@videogen/openapi/rules';

/** `/_sandbox` and below, also percent-encoded (`/%5Fsandbox/reset` reaches the same route). */
export function isControlPath(url: string, prefix: string): boolean {
  let path = url;
  // (Every request asks: the usual URL is answered without a split or a decode.)
  if (url.includes('%')) {
    try {
      path = decodeURIComponent(url.split('?')[0]);
    } catch {
      return false; // not a path any route matches
    }
  }
  if (!path.startsWith(prefix)) return false;
  const next = path.charAt(prefix.length);
  return next === '' || next === '/' || next === '?';
}

/**
 * Why a request to the controls is refused, or undefined when it may proceed: the rules' browser check
 * (browserRequestProblem, shared with `videogen mcp --http`). `ownHostnames`: the names the sandbox is
 * addressed by besides localhost and IP addresses (the host it listens on, its in-process origin's).
 */
export function controlRequestProblem(
  headers: { host?: string; origin?: string; 'sec-fetch-site'?: string | string[] },
  ownHostnames: readonly string[],
): string | undefined {
  const problem = browserRequestProblem(headers, ownHostnames);
  if (!problem) return undefined;
  const fix =
    'call them from your tests, a script or curl, or from a page the sandbox itself serves (/docs) at http://localhost or http://127.0.0.1.';
  if (problem.kind === 'foreign-host')
    return `The sandbox controls (/_sandbox/) refuse browser requests addressed to ${problem.named}, a name that is not the sandbox's own (a page can point its own name at this machine): ${fix}`;
  const from = problem.named ? ` (Origin ${problem.named})` : '';
  return `The sandbox controls (/_sandbox/) refuse requests from web pages of another origin${from}: ${fix}`;
}
