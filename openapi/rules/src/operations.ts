// The operation of a concrete request, and its path parameters, from the generated operation table.
import { BASE_PATH, OPERATIONS, type OperationId } from './generated/constants.js';

export type OperationEntry = (typeof OPERATIONS)[number];

/** An operation's entry (the table and OperationId are generated together: every id has one). */
export function operationById(operationId: OperationId): OperationEntry {
  const op = OPERATIONS.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`no operation ${operationId} in the operation table`);
  return op;
}

// One regular expression per path template; `{name}` matches one segment, captured in order.
const patterns = /* @__PURE__ */ OPERATIONS.map((op) => {
  const names: string[] = [];
  const source = op.path
    .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    .replace(/\{([^}]+)\}/g, (_, name: string) => (names.push(name), '([^/]+)'));
  return { op, names, re: new RegExp(`^${source}$`) };
});

/** A request's path relative to the base path (`/videos/…/`): without a prefix, a query, and with its trailing slash. */
function relative(pathname: string): string {
  let path = pathname.split(/[?#]/)[0];
  const at = path.indexOf(`${BASE_PATH}/`);
  if (at >= 0) path = path.slice(at + BASE_PATH.length);
  return path.endsWith('/') ? path : `${path}/`;
}

/**
 * The operation serving `method pathname`, tolerating the base path (`/v1`) or any prefix before it
 * (a base URL such as `https://host/api/v1`), a query string, and a missing trailing slash.
 */
export function operationFor(method: string, pathname: string): OperationEntry | undefined {
  const m = method.toUpperCase();
  const path = relative(pathname);
  return patterns.find((p) => p.op.method === m && p.re.test(path))?.op;
}

/**
 * The path parameters of a concrete request path of `op` (`{ video_id }`, percent-decoded where the
 * encoding is valid), read as operationFor reads the path; undefined when the path is not the operation's.
 */
export function pathParametersOf(op: OperationEntry, pathname: string): Record<string, string> | undefined {
  const p = patterns.find((x) => x.op === op);
  const m = p?.re.exec(relative(pathname));
  if (!p || !m) return undefined;
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  return Object.fromEntries(p.names.map((name, i) => [name, decode(m[i + 1])]));
}
