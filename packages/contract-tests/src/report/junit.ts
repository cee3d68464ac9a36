// JUnit XML (junit-report-builder): one testsuite per operation, one testcase per check (a skip's reason
// and a drift's decisions as properties), then the decision mismatches and the transient answers, each
// as a testsuite of its own (passing testcases: they are not interface failures).
import { createRequire } from 'node:module';
import type { TestCase } from 'junit-report-builder';
import { redact } from '../engine/redact.ts';
import type { CheckResult, TransientAnswer } from '../shapes.ts';
import type { DriftEntry } from './drift.ts';

interface Builders {
  newBuilder(): import('junit-report-builder').Builder;
}
let loaded: Builders | undefined;
/**
 * junit-report-builder (a CommonJS module, with xmlbuilder and lodash under it), loaded when a report is
 * written rather than when the bin starts: --help, --plan, --har and a refused target never need it.
 */
function builders(): Builders {
  loaded ??= createRequire(import.meta.url)('junit-report-builder') as Builders;
  return loaded;
}

/** What a test case builds (junit-report-builder's internals, on xmlbuilder): the element and its children. */
interface BuiltElement {
  children?: Array<{ name: string; attribute(name: string, value: string): void }>;
}
type Buildable = { build(parent: unknown): BuiltElement };

/** Seconds to the millisecond: the XML carries no float noise (0.30000000000000004). */
const seconds = (ms: number) => Math.round(ms) / 1000;

/**
 * `<skipped message="…"/>`: where CI tools read a skip's reason. junit-report-builder writes a bare
 * `<skipped/>` (5.1.2 takes no message), so the test case's element gets the attribute as it is built.
 */
function skippedWith(c: TestCase, message: string): void {
  const buildable = c as unknown as Buildable;
  const build = buildable.build.bind(c);
  buildable.build = (parent: unknown) => {
    const element = build(parent);
    for (const child of element.children ?? []) if (child.name === 'skipped') child.attribute('message', message);
    return element;
  };
  c.property('skip-reason', message);
}

export function junitXml(
  results: CheckResult[],
  drift: DriftEntry[],
  transients: TransientAnswer[],
  name = 'contract',
): string {
  const b = builders().newBuilder().name(name);
  const byOp = new Map<string, CheckResult[]>();
  for (const r of results) byOp.set(r.operation, [...(byOp.get(r.operation) ?? []), r]);
  for (const [op, list] of byOp) {
    const suite = b.testSuite().name(op);
    for (const r of list) {
      // The name alone: CI tools show `classname › name`, and the class is the operation.
      const c = suite.testCase().className(op).name(r.name).time(seconds(r.ms));
      if (r.state === 'failed')
        c.failure(redact((r.message ?? '').split('\n')[0]), 'ContractViolation').stacktrace(redact(r.message ?? ''));
      if (r.state === 'skipped') skippedWith(c.skipped(), redact(r.message ?? 'skipped'));
      if (r.state === 'drift') c.property('decision-mismatch', redact(r.message ?? 'decision mismatch'));
      if (r.note) c.property('note', redact(r.note));
    }
  }
  if (drift.length) {
    const suite = b.testSuite().name('decision mismatches (our choices, not interface failures)');
    for (const d of drift) {
      for (const x of d.differences) {
        suite
          .testCase()
          .className(`decision #${d.decision}`)
          .name(redact(x.what))
          .property('decision', String(d.decision))
          .property('count', String(x.count))
          .property('change', redact(x.change))
          .standardOutput(redact(x.curl ?? ''));
      }
    }
  }
  if (transients.length) {
    const suite = b.testSuite().name('transient answers (retried or waited out as interface 7.1 says, not judged)');
    for (const t of transients) {
      suite
        .testCase()
        .className(t.scenario)
        .name(
          redact(
            `${t.request} → ${t.status || 'no answer'}${t.errorCode ? ` ${t.errorCode}` : ''} (attempt ${t.attempt}, ${t.action})`,
          ),
        )
        .standardOutput(redact(t.curl ?? ''));
    }
  }
  return redact(b.build());
}
