// --replay FILE: send a failure bundle's requests again to the current target and check the answers
// with the same response checks as a live run, so a staging failure is reproduced locally.
import { readFileSync } from 'node:fs';
import { redactUrl } from '@videogen/openapi/rules';
import type { Api } from '../engine/http.ts';
import { replayOptions } from '../engine/recorded-request.ts';
import { redact } from '../engine/redact.ts';
import { Run } from '../engine/run.ts';
import type { BundledExchange, FailureBundle } from '../report/failures.ts';
import type { Exchange, TargetConfig } from '../shapes.ts';

export interface ReplayedExchange {
  request: string;
  before: { status: number; errorCode?: string; problems: string[] };
  now: { status: number; errorCode?: string; problems: string[] };
  /** The target answered as in the bundle: same status, same error_code, same kinds of problem. */
  same: boolean;
}

export interface ReplayResult {
  check: string;
  expected: string;
  exchanges: ReplayedExchange[];
  /** Every answer matched the recorded (failing) one: the failure reproduces on this target. */
  reproduced: boolean;
  /** Response-check problems found in the answers now (interface of the spec, as in a live run). */
  problems: number;
}

export function readBundle(file: string): FailureBundle {
  const b = JSON.parse(readFileSync(file, 'utf8')) as FailureBundle;
  if (b.format !== 'videogen-contract-failure/1' || !Array.isArray(b.exchanges))
    throw new Error(`${file} is not a contract failure bundle`);
  return b;
}

function apiFor(run: Run, auth: string): Api {
  // Bundles name the account as `key of <account>` (http.ts); other auth forms carry their header.
  const byAccount: Record<string, Api | undefined> = {
    main: run.main,
    other: run.other,
    'free-plan': run.freePlan,
    'no-credit': run.noCredit,
  };
  const m = /^key of (.+)$/.exec(auth);
  if (!m) return run.anon;
  const api = byAccount[m[1]];
  if (!api)
    throw new Error(
      `the bundle's request used the key of the ${m[1]} account, which this target configuration has none of`,
    );
  return api;
}

const codeOf = (body: unknown) => {
  const code = body && typeof body === 'object' ? (body as { error_code?: unknown }).error_code : undefined;
  return typeof code === 'string' ? code : undefined;
};
const parse = (text: string) => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};
const kinds = (ps: Array<{ kind: string }>) => [...new Set(ps.map((p) => p.kind))].sort().join(',');

export async function replay(bundle: FailureBundle, target: TargetConfig): Promise<ReplayResult> {
  const run = new Run(target);
  const out: ReplayedExchange[] = [];
  for (const bx of bundle.exchanges as BundledExchange[]) {
    const api = apiFor(run, bx.auth);
    const ex: Exchange = await run.as(`replay of ${bundle.check}`, () =>
      api.resend(bx.operationId, bx.request, replayOptions(bx.request, undefined)),
    );
    const before = {
      status: bx.response.status,
      errorCode: codeOf(parse(bx.response.body)),
      problems: bx.problems.map((p) => `${p.kind}: ${p.message}`),
    };
    const now = {
      status: ex.status,
      errorCode: codeOf(ex.body),
      problems: ex.problems.map((p) => `${p.kind}: ${p.message}`),
    };
    const same =
      before.status === now.status && before.errorCode === now.errorCode && kinds(bx.problems) === kinds(ex.problems);
    out.push({ request: `${bx.request.method} ${bx.request.path} (${bx.auth})`, before, now, same });
  }
  return {
    check: bundle.check,
    expected: bundle.expected,
    exchanges: out,
    reproduced: out.length > 0 && out.every((e) => e.same),
    problems: out.reduce((n, e) => n + e.now.problems.length, 0),
  };
}

export function formatReplay(r: ReplayResult, baseUrl: string): string {
  const lines = [
    `Replay of ${r.check} against ${redactUrl(baseUrl)}`,
    `  the check expected: ${r.expected.split('\n')[0]}`,
  ];
  for (const e of r.exchanges) {
    lines.push(
      `  ${e.same ? 'same' : 'DIFF'}  ${e.request}: then ${e.before.status}${e.before.errorCode ? ` ${e.before.errorCode}` : ''}, now ${e.now.status}${e.now.errorCode ? ` ${e.now.errorCode}` : ''}`,
    );
    for (const p of e.now.problems) lines.push(`        now: ${p}`);
  }
  lines.push(
    r.reproduced
      ? 'REPRODUCED: the target answers as in the bundle'
      : 'not reproduced: the target answers differently (see DIFF)',
  );
  return redact(lines.join('\n')) + '\n';
}
