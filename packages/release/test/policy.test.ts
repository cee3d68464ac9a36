// @module-tag full/packed
// The version policy (RELEASING.md) on this checkout, its rules one by one, and the spec-change gate
// end to end: in a clone of this repository whose first commit is tagged as a release, the document's
// breaking changes since then (npm run spec:diff) must come with a new major version.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PUBLISHED, ROOT } from '../lib/published.mjs';
import { changelogVersions, evaluate, gather } from '../lib/policy.mjs';
import { documentVersion } from '../lib/versions.mjs';

describe('the version policy on this checkout', () => {
  const facts = gather();

  it("holds: one version (the document's info.version), exact ranges between the packages, a CHANGELOG section each", () => {
    expect(evaluate(facts)).toEqual([]);
    for (const p of facts.packages) expect(p.pkg.version, p.name).toBe(facts.version);
  });

  it('reads info.version from the source as the bundled document has it', () => {
    expect(documentVersion()).toBe(
      JSON.parse(readFileSync(join(ROOT, 'openapi/dist/openapi.json'), 'utf8')).info.version,
    );
  });

  it('lists the packages in an order where each comes after its run-time dependencies', () => {
    expect(PUBLISHED.map((p) => p.name)).toEqual([
      '@videogen/openapi',
      '@videogen/pacer-redis',
      '@videogen/client',
      '@videogen/relay',
      '@videogen/sandbox',
      '@videogen/contract-tests',
      '@videogen/mcp',
      '@videogen/cli',
    ]);
  });
});

describe("the policy's rules", () => {
  const pkg = (name: string, extra: Record<string, unknown> = {}) => ({ name, version: '1.2.0', ...extra });
  const base = () => ({
    version: '1.2.0',
    packages: [
      { name: '@videogen/openapi', dir: 'openapi', pkg: pkg('@videogen/openapi'), changelog: '## 1.2.0\n' },
      {
        name: '@videogen/client',
        dir: 'packages/client',
        pkg: pkg('@videogen/client', { devDependencies: { '@videogen/openapi': '1.2.0' } }),
        changelog: '# x\n\n## 1.2.0\n\n## 1.1.0\n',
      },
    ],
    publicWorkspaces: ['@videogen/openapi', '@videogen/client'],
    release: { tag: 'v1.1.0', version: '1.1.0' },
    breaking: [] as string[],
  });

  it('accepts a consistent release', () => {
    expect(evaluate(base())).toEqual([]);
  });

  it('refuses a package at another version than the document, and a "*" or caret range between packages', () => {
    const f = base();
    f.packages[1]!.pkg = pkg('@videogen/client', {
      version: '1.1.0',
      dependencies: { '@videogen/openapi': '*' },
      devDependencies: { '@videogen/openapi': '^1.2.0' },
    });
    const problems = evaluate(f);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(
      /@videogen\/client is at 1\.1\.0, the document at 1\.2\.0: run "npm run release:version"/,
    );
    expect(problems[1]).toMatch(/dependencies names @videogen\/openapi@"\*"/);
    expect(problems[2]).toMatch(/devDependencies names @videogen\/openapi@"\^1\.2\.0"/);
  });

  it('refuses a CHANGELOG without a section for the version, and a missing CHANGELOG', () => {
    const f = base();
    f.packages[1]!.changelog = '## 1.1.0\n';
    (f.packages[0] as { changelog?: string }).changelog = undefined;
    expect(evaluate(f)).toEqual([
      'openapi/CHANGELOG.md is missing',
      'packages/client/CHANGELOG.md has no "## 1.2.0" section',
    ]);
  });

  it('refuses a public package outside the release list, and a dependency published after its dependent', () => {
    const f = base();
    f.publicWorkspaces.push('@videogen/docs');
    f.packages.reverse();
    f.packages[0]!.pkg = pkg('@videogen/client', { dependencies: { '@videogen/openapi': '1.2.0' } });
    const problems = evaluate(f);
    expect(problems.some((p) => /@videogen\/docs is not private but is not in the release list/.test(p))).toBe(true);
    expect(
      problems.some((p) => /@videogen\/client depends on @videogen\/openapi, which is published after it/.test(p)),
    ).toBe(true);
  });

  it('demands a new major version for a breaking change of the document since the last release', () => {
    const f = { ...base(), breaking: ['response-property-removed GET /videos/ 200 application/json.results'] };
    const [problem, ...rest] = evaluate(f);
    expect(rest).toEqual([]);
    expect(problem).toMatch(
      /1 change\(s\) that break a client since v1\.1\.0 .*`response-property-removed GET \/videos\/ 200 application\/json\.results`.*move info\.version to 2\.0\.0/,
    );
    for (const p of f.packages) p.pkg.version = '2.0.0';
    f.packages[1]!.pkg = pkg('@videogen/client', {
      version: '2.0.0',
      devDependencies: { '@videogen/openapi': '2.0.0' },
    });
    for (const p of f.packages) p.changelog = '## 2.0.0\n';
    expect(evaluate({ ...f, version: '2.0.0' })).toEqual([]);
  });

  it('needs no major version before the first release, nor for non-breaking changes', () => {
    expect(evaluate({ ...base(), release: undefined, breaking: ['anything'] })).toEqual([]);
    expect(evaluate({ ...base(), breaking: [] })).toEqual([]);
  });

  it('refuses a version older than the last release', () => {
    expect(evaluate({ ...base(), release: { tag: 'v1.3.0', version: '1.3.0' } })).toEqual([
      'version 1.2.0 is older than the last release v1.3.0',
    ]);
  });

  it('reads CHANGELOG headings as Keep a Changelog and this repository write them', () => {
    expect(changelogVersions('# T\n\n## 2.0.0\n\n### Breaking\n\n## [1.1.0] - 2026-01-01\n## v1.0.0\n')).toEqual([
      '2.0.0',
      '1.1.0',
      '1.0.0',
    ]);
  });
});

describe('the spec-change gate, end to end in a clone', () => {
  const clone = mkdtempSync(join(tmpdir(), 'vg-release-gate-'));
  afterAll(() => rmSync(clone, { recursive: true, force: true }));
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: clone, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  const check = () => {
    try {
      return {
        code: 0,
        out: execFileSync(process.execPath, ['packages/release/scripts/check.mjs'], {
          cwd: clone,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      };
    } catch (e) {
      return { code: (e as { status: number }).status, out: (e as { stdout: string }).stdout };
    }
  };

  it("a release tag on the repository's first commit, then the breaking changes since, need a major version", () => {
    // A clone of the committed history, with the workspace's node_modules (spec:diff reads YAML with them).
    execFileSync('git', ['clone', '--quiet', '--shared', ROOT, clone]);
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
    const root = git('rev-list', '--max-parents=0', 'HEAD').split('\n').at(-1)!;
    const diff = JSON.parse(
      execFileSync(process.execPath, ['openapi/scripts/spec-diff.mjs', root, '--json'], {
        cwd: clone,
        encoding: 'utf8',
      }),
    );
    // The history holds breaking changes of the document since its first commit (1.1.0's `Retry-After`).
    expect(diff.breaking.length).toBeGreaterThan(0);
    // The first commit tagged as a release of the current major: whatever info.version is now, the
    // breaking changes since that commit then need the next major.
    const current = diff.to as string;
    const first = `${current.split('.')[0]}.0.0`;
    git('tag', `v${first}`, root);

    const before = check();
    expect(before.code, before.out).toBe(1);
    expect(before.out).toMatch(new RegExp(`change\\(s\\) that break a client since v${first.replace(/\./g, '\\.')}`));
    const nextMajor = `${Number(first.split('.')[0]) + 1}.0.0`;
    expect(before.out).toContain(`move info.version to ${nextMajor}`);

    // The fix the message asks for: the document at the next major, with its CHANGELOG section, then release:version.
    const spec = join(clone, 'openapi/openapi.yaml');
    writeFileSync(spec, readFileSync(spec, 'utf8').replace(/^(  version: ).*$/m, `$1${nextMajor}`));
    const changelog = join(clone, 'openapi/CHANGELOG.md');
    const text = readFileSync(changelog, 'utf8');
    const at = text.search(/^## /m);
    writeFileSync(
      changelog,
      `${text.slice(0, at)}## ${nextMajor}\n\nA new major version for the breaking changes since ${first}.\n\n${text.slice(at)}`,
    );
    execFileSync(process.execPath, ['packages/release/scripts/version.mjs', '--no-lock'], {
      cwd: clone,
      encoding: 'utf8',
    });

    const after = check();
    // Only what a clone cannot change here may remain: packages still private until their branches land.
    const remaining = after.out
      .split('\n')
      .filter((l) => l.startsWith('  - ') && !/ is private: it cannot be published$/.test(l));
    expect(remaining, after.out).toEqual([]);
    expect(after.out).toContain(`version ${nextMajor}; last release v${first}`);
  });
});
