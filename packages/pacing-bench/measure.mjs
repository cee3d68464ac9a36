// What both pacing benches measure, on the sandbox's side: every /v1 answer with its arrival and end
// times (the sandbox's request log), and from them the wall time and the floor the rate limits
// impose on the requests made.
import { performance } from 'node:perf_hooks';
import { listOperations, loadSpec, matchOperation } from '@videogen/openapi';
import { pacingFloorMs } from '@videogen/openapi/rules';
import { startSandbox } from '@videogen/sandbox';

const spec = loadSpec();
if (!listOperations(spec).every((op) => op.operation['x-rate-limit']))
  throw new Error('an operation lacks x-rate-limit');
/** The rate-limit class of a /v1 request, from the operation's x-rate-limit. */
function classOf(method, path) {
  return matchOperation(spec, method, path.replace(/^\/v1/, ''))?.operation['x-rate-limit'].class;
}

/** A sandbox that logs every /v1 answer with its arrival and end times (sandbox side). */
export async function sandboxFor({ style, personality, timeScale, generationSeconds }) {
  const answers = [];
  const sb = await startSandbox({
    port: 0,
    timeScale,
    rateLimiter: style,
    personality,
    generationSeconds,
    logger: (line) => {
      const end = performance.now();
      const m = /^(\S+) (\S+) (\d+) ([\d.]+)ms (\S+)$/.exec(line);
      if (m && m[2].startsWith('/v1/'))
        answers.push({ method: m[1], path: m[2], status: +m[3], start: end - Number(m[4]), end, account: m[5] });
    },
  });
  return { sb, answers };
}

/**
 * Requests per account and class; the floor (the rules module's pacingFloorMs: (n − 1) even
 * intervals per class) is that of the busiest account; wall = first request in → last response out.
 */
export function figures(answers, timeScale) {
  const perAccount = new Map();
  for (const a of answers) {
    // A refused request (429) takes no slot of the limiter: the floor is that of the admitted ones.
    const cls = a.account !== '-' && a.status !== 429 && classOf(a.method, a.path);
    if (!cls) continue;
    const counts = perAccount.get(a.account) ?? {};
    counts[cls] = (counts[cls] ?? 0) + 1;
    perAccount.set(a.account, counts);
  }
  let floor = 0;
  let bound = '-';
  for (const [account, counts] of perAccount) {
    const f = pacingFloorMs(counts, timeScale);
    if (f > floor)
      [floor, bound] = [
        f,
        `${account} ${Object.entries(counts)
          .map(([c, n]) => `${c}×${n}`)
          .join(' ')}`,
      ];
  }
  const wall = answers.length ? Math.max(...answers.map((a) => a.end)) - Math.min(...answers.map((a) => a.start)) : 0;
  return { requests: answers.length, wall, floor, bound };
}
