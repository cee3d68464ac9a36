// The lockstep version (RELEASING.md): every published package carries the document's info.version and
// names the other published packages at exactly that version.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEPENDENCY_FIELDS, PUBLISHED, ROOT, manifest } from './published.mjs';

/**
 * The document's info.version: the version of every published package. Read from the text, without a
 * YAML library, so that `npm run release:version` runs before `npm install` can: after a merge that
 * moved a package's version, npm looks for the others on the registry until the ranges agree again.
 */
export function documentVersion(root = ROOT) {
  const lines = readFileSync(join(root, 'openapi/openapi.yaml'), 'utf8').split(/\r?\n/);
  const info = lines.findIndex((l) => /^info:\s*$/.test(l));
  for (let i = info + 1; info >= 0 && i < lines.length && !/^\S/.test(lines[i]); i++) {
    const m = /^ {2}version:\s*(?:'([^']*)'|"([^"]*)"|([^\s#]+))/.exec(lines[i]);
    if (m) return m[1] ?? m[2] ?? m[3];
  }
  throw new Error('openapi/openapi.yaml: no info.version');
}

/** Every reference of a published package to another `@videogen/*` package: `{ field, name, range }`. */
export function internalReferences(pkg) {
  const out = [];
  for (const field of DEPENDENCY_FIELDS)
    for (const [name, range] of Object.entries(pkg[field] ?? {}))
      if (name.startsWith('@videogen/')) out.push({ field, name, range });
  return out;
}

/**
 * Writes `version` into each published manifest (its own version and its references to the other
 * `@videogen/*` packages), editing the text in place so that the rest of each file keeps its layout.
 * Returns the files changed.
 */
export function setVersion(version, root = ROOT) {
  const changed = [];
  for (const { dir } of PUBLISHED) {
    const file = join(root, dir, 'package.json');
    const before = readFileSync(file, 'utf8');
    let text = before.replace(/^(\s*"version"\s*:\s*)"[^"]*"/m, `$1"${version}"`);
    text = text.replace(/("@videogen\/[a-z-]+"\s*:\s*)"[^"]*"/g, `$1"${version}"`);
    const pkg = JSON.parse(text);
    if (pkg.version !== version || internalReferences(pkg).some((r) => r.range !== version))
      throw new Error(`${file}: could not set version ${version}`);
    if (text !== before) {
      writeFileSync(file, text);
      changed.push(file);
    }
  }
  return changed;
}

/**
 * Adds a `## version` section (newest first) to each published package's CHANGELOG.md that lacks one,
 * except the document's own (openapi/CHANGELOG.md), whose section comes with the change of info.version.
 * Returns the files changed.
 */
export function addChangelogSections(version, root = ROOT) {
  const changed = [];
  for (const { dir } of PUBLISHED) {
    if (dir === 'openapi') continue;
    const file = join(root, dir, 'CHANGELOG.md');
    const text = existsSync(file) ? readFileSync(file, 'utf8') : `# Changelog of ${manifest(dir, root).name}\n\n`;
    if (new RegExp(`^##\\s+\\[?v?${version.replace(/\./g, '\\.')}\\b`, 'm').test(text)) continue;
    const section = `## ${version}\n\nBuilt from version ${version} of the OpenAPI document (its changes: openapi/CHANGELOG.md).\n\n`;
    const at = text.search(/^## /m);
    writeFileSync(file, at < 0 ? `${text.trimEnd()}\n\n${section}` : text.slice(0, at) + section + text.slice(at));
    changed.push(file);
  }
  return changed;
}

export { manifest };
