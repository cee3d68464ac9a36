// The proxy's --target checked before it listens (src/preflight.ts, without a key: the tools bring
// theirs): a target that cannot be reached or is not the API stops `videogen-contract proxy` in seconds
// with the cause and the fix, instead of a proxy that answers 502 to every tool later. Sent over the
// proxy's own transport (Upstream: node:http/https with its --ca), so that what it proves holds for it.
import { BODY_LIMITS, headerValue } from '@videogen/openapi/rules';
import { preflight, type PreflightResult, type ProbeSend } from '../preflight.ts';
import { watchBody } from './body-watch.ts';
import { readUpTo } from './messages.ts';
import { Upstream } from './upstream.ts';

/** The most of a probe's answer read: a page of settings is a few KB; an endless or huge body is cut here. */
const PROBE_BYTES = 1024 * 1024;

export async function checkProxyTarget(
  target: URL,
  options: { ca?: string | Buffer | Array<string | Buffer>; timeoutMs?: number } = {},
): Promise<PreflightResult> {
  const upstream = new Upstream(target, { ca: options.ca });
  const send: ProbeSend = async (url, headers, timeoutMs) => {
    const u = new URL(url);
    let timer: NodeJS.Timeout | undefined;
    // Upstream's own limit starts once the request is sent; a host that drops packets never gets there.
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { name: 'TimeoutError' })),
        timeoutMs,
      );
    });
    try {
      const a = await Promise.race([
        upstream.send({ method: 'GET', path: u.pathname + u.search, headers, fresh: true, timeoutMs }),
        late,
      ]);
      if (a.kind === 'failed') throw a.error;
      // The body too within the probe's time, and at most PROBE_BYTES of it (a body that never
      // ends held the check forever).
      watchBody(a.res, { idleMs: BODY_LIMITS.idleMs, totalMs: timeoutMs });
      const head = await readUpTo(a.res, PROBE_BYTES);
      a.res.destroy();
      const resHeaders = a.res.headers;
      return {
        status: a.res.statusCode ?? 0,
        headers: { get: (name: string) => headerValue(resHeaders, name) ?? null },
        text: head.bytes.toString('utf8'),
      };
    } finally {
      clearTimeout(timer);
    }
  };
  try {
    return await preflight({
      baseUrl: target.href,
      urlSource: '--target',
      keys: [],
      send,
      timeoutMs: options.timeoutMs,
    });
  } finally {
    upstream.close();
  }
}
