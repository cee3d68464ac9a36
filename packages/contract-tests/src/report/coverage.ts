// Coverage you can see: per operation × documented status × error_code, whether the run saw it, did not
// see it, or could not reach it with this profile or these keys (every check that provokes it skipped,
// and why). The documented answers come from the document (each response's closed codes, else the codes
// its examples name); what provokes them from the checks' declarations (Check.answers; none: the
// operation's success); what was seen from the run's final answers and its transient ones.
import { declaredResponse, deref, errorCodesOf, type Operation, type ResponseObject } from '@videogen/openapi';
import { checkId, type Check } from '../engine/catalogue.ts';
import type { Contract } from '../engine/contract.ts';
import type { CheckResult, Exchange, TransientAnswer } from '../shapes.ts';

export type CoverageState = 'seen' | 'not-seen' | 'unreachable';

export interface CoverageCell {
  operation: string;
  /** The documented response's key: `200`, `400`, `5XX`; an undocumented status as it came. */
  status: string;
  /** The error code of the row; none: the status alone (a success, or a response that names no code). */
  code?: string;
  state: CoverageState;
  /** Answers seen (final and transient). */
  count: number;
  /** Not documented by the document (an answer the target gave that no response declares). */
  undocumented?: boolean;
  /** Why it was not seen, or not reachable (a skip reason that names what to set). */
  reason?: string;
  /** The checks that provoke it. */
  checks: string[];
}

export interface Coverage {
  cells: CoverageCell[];
  totals: Record<CoverageState, number>;
}

/**
 * The codes a documented response names: those its examples name, and those of its schema when the
 * schema names its own (a closed list, or a named list narrower than every code of the document, as
 * 7.2's 400 or a conversion's 403); a response on the generic envelope names only its examples' codes.
 */
function documentedCodes(contract: Contract, response: ResponseObject, everyCode: number): string[] {
  const media = deref<ResponseObject | undefined>(contract.spec, response)?.content?.['application/json'];
  if (!media) return [];
  const examples = [
    media.example,
    ...Object.values(media.examples ?? {}).map((e) => deref<{ value?: unknown } | undefined>(contract.spec, e)?.value),
  ].flatMap((e) => {
    const code = (e as { error_code?: unknown } | undefined)?.error_code;
    return typeof code === 'string' ? [code] : [];
  });
  const closed = media.schema ? errorCodesOf(contract.spec, media.schema) : undefined;
  const named = media.schema ? errorCodesOf(contract.spec, media.schema, { open: true }) : undefined;
  const own = closed?.length ? closed : named && named.length < everyCode ? named : [];
  return [...new Set([...own, ...examples])];
}

const codeOf = (body: unknown) => {
  const code = body && typeof body === 'object' ? (body as { error_code?: unknown }).error_code : undefined;
  return typeof code === 'string' ? code : undefined;
};

export function coverageOf(
  contract: Contract,
  checks: readonly Check[],
  results: readonly CheckResult[],
  exchanges: readonly Exchange[],
  transients: readonly TransientAnswer[],
): Coverage {
  const cells: CoverageCell[] = [];
  /** Checks that provoke a row's very code (its reachability rests on them when there are some). */
  const exact = new Map<CoverageCell, string[]>();
  const byId = new Map(results.map((r) => [checkId(r), r]));
  // How many codes the document knows: a response whose schema names all of them names none of its own.
  const everyCode = Math.max(
    0,
    ...contract.operations.flatMap((o) =>
      Object.values(o.operation.responses ?? {}).map((r) => {
        const schema = deref<ResponseObject | undefined>(contract.spec, r)?.content?.['application/json']?.schema;
        return schema ? (errorCodesOf(contract.spec, schema, { open: true })?.length ?? 0) : 0;
      }),
    ),
  );
  const keyOf = (op: Operation, status: number) =>
    declaredResponse(contract.spec, op.operation, status)?.key ?? String(status);
  for (const op of contract.operations) {
    const responses = op.operation.responses ?? {};
    const success = Object.keys(responses).find((k) => /^2/.test(k));
    for (const [status, response] of Object.entries(responses)) {
      const codes = /^[45]/.test(status) ? documentedCodes(contract, response, everyCode) : [];
      for (const code of codes.length ? codes : [undefined])
        cells.push({
          operation: op.operationId,
          status,
          ...(code && { code }),
          state: 'not-seen',
          count: 0,
          checks: [],
        });
    }
    // What was seen: the final answers, and the transient ones (a 429 waited out is an answer of the target).
    const seen = [
      ...exchanges
        .filter((e) => e.operationId === op.operationId)
        .map((e) => ({ status: e.status, code: codeOf(e.body) })),
      ...transients
        .filter((t) => t.operationId === op.operationId && t.status > 0)
        .map((t) => ({ status: t.status, code: t.errorCode })),
    ];
    for (const a of seen) {
      const key = keyOf(op, a.status);
      const row =
        cells.find(
          (c) => c.operation === op.operationId && c.status === key && c.code !== undefined && c.code === a.code,
        ) ??
        cells.find(
          (c) =>
            c.operation === op.operationId &&
            c.status === key &&
            c.code === undefined &&
            !cells.some((d) => d.operation === op.operationId && d.status === key && d.code !== undefined),
        );
      if (row) row.count++;
      else {
        const extra = cells.find(
          (c) => c.operation === op.operationId && c.status === key && c.code === a.code && c.undocumented,
        );
        if (extra) extra.count++;
        else
          cells.push({
            operation: op.operationId,
            status: key,
            ...(a.code && { code: a.code }),
            state: 'seen',
            count: 1,
            undocumented: true,
            checks: [],
          });
      }
    }
    // What provokes each answer: the checks' declarations (none declared: the success).
    for (const c of checks) {
      if (c.operation !== op.operationId || c.reads === 'all') continue;
      const answers = c.answers ?? (success ? [{ status: Number(success) }] : []);
      for (const a of answers) {
        const key = keyOf(op, a.status);
        for (const cell of cells)
          if (
            cell.operation === op.operationId &&
            cell.status === key &&
            (a.code === undefined || cell.code === a.code)
          ) {
            cell.checks.push(checkId(c));
            if (a.code !== undefined) exact.set(cell, [...(exact.get(cell) ?? []), checkId(c)]);
          }
      }
    }
  }
  for (const cell of cells) {
    if (cell.count > 0) {
      cell.state = 'seen';
      continue;
    }
    // Checks that ask for this very code decide whether it was reachable; else any that asks for its status.
    const provoking = (exact.get(cell) ?? cell.checks)
      .map((id) => byId.get(id))
      .filter((r): r is CheckResult => r !== undefined);
    if (!provoking.length) {
      cell.state = 'not-seen';
      cell.reason = cell.checks.length
        ? 'its checks were not selected (--only)'
        : 'no check provokes it: only a target that answers it on its own shows it';
    } else if (provoking.every((r) => r.state === 'skipped')) {
      cell.state = 'unreachable';
      // The commonest reason first: what to set or pass to reach it.
      const reasons = new Map<string, number>();
      for (const r of provoking) reasons.set(r.message ?? 'skipped', (reasons.get(r.message ?? 'skipped') ?? 0) + 1);
      cell.reason = [...reasons].sort((a, b) => b[1] - a[1])[0][0].split('\n')[0];
    } else {
      cell.state = 'not-seen';
      cell.reason = `provoked by ${provoking.filter((r) => r.state !== 'skipped').length} check(s) that ran, but never answered`;
    }
  }
  const totals: Record<CoverageState, number> = { seen: 0, 'not-seen': 0, unreachable: 0 };
  for (const c of cells) totals[c.state]++;
  return { cells, totals };
}

/** The coverage in a few lines: per operation what was seen of its documented answers, then what was not reachable and why. */
export function formatCoverage(cov: Coverage): string[] {
  const lines = [
    '',
    `Coverage: ${cov.totals.seen} seen, ${cov.totals['not-seen']} not seen, ${cov.totals.unreachable} not reachable with this profile or these keys (operation × documented status × error_code; the HTML report has the matrix)`,
  ];
  const ops = [...new Set(cov.cells.map((c) => c.operation))];
  for (const op of ops) {
    const mine = cov.cells.filter((c) => c.operation === op && !c.undocumented);
    const seen = mine.filter((c) => c.state === 'seen');
    const label = (c: CoverageCell) => `${c.status}${c.code ? ` ${c.code}` : ''}`;
    lines.push(`  ${op}: ${seen.length}/${mine.length} seen${seen.length ? ` (${seen.map(label).join(', ')})` : ''}`);
    const reasons = new Map<string, string[]>();
    // (An unreachable cell always says why: the skip reason of the checks that provoke it.)
    for (const c of mine.filter((x) => x.state === 'unreachable'))
      reasons.set(c.reason ?? '', [...(reasons.get(c.reason ?? '') ?? []), label(c)]);
    for (const [reason, cells] of reasons) lines.push(`    not reachable: ${cells.join(', ')} — ${reason}`);
  }
  return lines;
}
