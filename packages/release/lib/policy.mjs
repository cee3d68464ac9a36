// The version policy of the published packages (RELEASING.md), as a check:
// - every published package is at the document's info.version, and names the others at exactly it;
// - every published package's CHANGELOG.md has a section for that version;
// - the publishing order puts each package after the packages it depends on;
// - a change of the document that breaks a client (`npm run spec:diff` against the last release tag
//   vX.Y.Z) comes with a new major version.
// `gather` reads the repository; `evaluate` judges what was read (pure, so the tests can feed it).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PUBLISHED, ROOT, manifest, workspaces } from './published.mjs';
import { documentVersion, internalReferences } from './versions.mjs';

const SEMVER = /^(\d+)\.(\d+)\.(\d+)$/;
const parts = (v) => (SEMVER.exec(v) ?? []).slice(1).map(Number);
/** a > b, for X.Y.Z versions. */
export function newer(a, b) {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return false;
}
export const major = (v) => parts(v)[0];

const git = (root, ...args) =>
  execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

/** The last release: the newest tag vX.Y.Z reachable from HEAD, or undefined before the first one. */
export function lastRelease(root = ROOT) {
  let tag;
  try {
    tag = git(root, 'describe', '--tags', '--abbrev=0', '--match=v[0-9]*.[0-9]*.[0-9]*', 'HEAD');
  } catch {
    return undefined;
  }
  return { tag, version: tag.slice(1) };
}

/** The breaking changes of the document since a git ref, as `npm run spec:diff -- REF --json` classifies them. */
export function breakingSince(ref, root = ROOT) {
  let out;
  try {
    out = execFileSync(process.execPath, [join(root, 'openapi/scripts/spec-diff.mjs'), ref, '--json'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (e) {
    out = e.stdout; // exit 1 when the document's own gate fails; the classification is still printed
    if (!out) throw new Error(`spec:diff ${ref} failed: ${e.stderr || e.message}`);
  }
  return JSON.parse(out).breaking.map((c) => c.key);
}

/** The `## X.Y.Z` headings of a CHANGELOG. */
export function changelogVersions(text) {
  return [...text.matchAll(/^##\s+\[?v?(\d+\.\d+\.\d+)\]?/gm)].map((m) => m[1]);
}

/** Everything the policy judges, read from the repository. */
export function gather(root = ROOT) {
  const release = lastRelease(root);
  const changelog = (dir) => {
    const file = join(root, dir, 'CHANGELOG.md');
    return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  };
  return {
    version: documentVersion(root),
    packages: PUBLISHED.map(({ name, dir }) => ({ name, dir, pkg: manifest(dir, root), changelog: changelog(dir) })),
    publicWorkspaces: workspaces(root)
      .filter((w) => !w.pkg.private)
      .map((w) => w.name),
    release,
    breaking: release ? breakingSince(release.tag, root) : [],
  };
}

/** The policy's verdict: `problems` (each a sentence that says what to do), empty when it holds. */
export function evaluate({ version, packages, publicWorkspaces, release, breaking }) {
  const problems = [];
  if (!SEMVER.test(version)) problems.push(`info.version "${version}" of openapi/openapi.yaml is not X.Y.Z`);
  const names = packages.map((p) => p.name);
  for (const name of publicWorkspaces)
    if (!names.includes(name))
      problems.push(
        `${name} is not private but is not in the release list (packages/release/lib/published.mjs): add it, or mark it private`,
      );
  for (const { name, dir, pkg, changelog } of packages) {
    if (pkg.name !== name) problems.push(`${dir}/package.json is ${pkg.name}, expected ${name}`);
    if (pkg.version !== version)
      problems.push(`${name} is at ${pkg.version}, the document at ${version}: run "npm run release:version"`);
    for (const r of internalReferences(pkg))
      if (r.range !== version)
        problems.push(
          `${name} ${r.field} names ${r.name}@"${r.range}": published packages name each other at exactly ${version} (npm run release:version)`,
        );
    if (changelog === undefined) problems.push(`${dir}/CHANGELOG.md is missing`);
    else if (!changelogVersions(changelog).includes(version))
      problems.push(`${dir}/CHANGELOG.md has no "## ${version}" section`);
  }
  // Publishing order: a package's run-time dependencies are published before it.
  packages.forEach(({ name, pkg }, i) => {
    for (const r of internalReferences(pkg).filter((r) => r.field !== 'devDependencies')) {
      const at = names.indexOf(r.name);
      if (at > i)
        problems.push(
          `${name} depends on ${r.name}, which is published after it: reorder packages/release/lib/published.mjs`,
        );
    }
  });
  if (release && SEMVER.test(version)) {
    if (newer(release.version, version))
      problems.push(`version ${version} is older than the last release ${release.tag}`);
    if (breaking.length && !(major(version) > major(release.version)))
      problems.push(
        `the document has ${breaking.length} change(s) that break a client since ${release.tag} (npm run spec:diff -- ${release.tag}: ${breaking.map((k) => `\`${k}\``).join(', ')}), ` +
          `so every published package needs a new major version: move info.version to ${major(release.version) + 1}.0.0 (with its CHANGELOG section), then run "npm run release:version"`,
      );
  }
  return problems;
}

/** One-paragraph account of what the policy compared, for people. */
export function describe({ version, release, breaking }) {
  if (!release)
    return `version ${version}; no release tag vX.Y.Z yet: this is the first release (the major-version rule applies from the first tag on)`;
  return `version ${version}; last release ${release.tag}; ${breaking.length} breaking change(s) of the document since then`;
}

/** Published packages still marked private (they cannot be published yet). */
export function stillPrivate({ packages }) {
  return packages.filter((p) => p.pkg.private).map((p) => p.name);
}
