// The operation of a concrete request, from the generated operation table.
import { BASE_PATH, OPERATIONS } from './generated/constants.js';

export type OperationEntry = (typeof OPERATIONS)[number];

// One regular expression per path template; `{name}` matches one segment.
const patterns = /* @__PURE__ */ OPERATIONS.map((op) => ({
  op,
  re: new RegExp(`^${op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

/**
 * The operation serving `method pathname`, tolerating the base path (`/v1`) or any prefix before it
 * (a base URL such as `https://host/api/v1`), a query string, and a missing trailing slash.
 */
export function operationFor(method: string, pathname: string): OperationEntry | undefined {
  const m = method.toUpperCase();
  let path = pathname.split(/[?#]/)[0];
  const at = path.indexOf(`${BASE_PATH}/`);
  if (at >= 0) path = path.slice(at + BASE_PATH.length);
  if (!path.endsWith('/')) path += '/';
  return patterns.find((p) => p.op.method === m && p.re.test(path))?.op;
}
