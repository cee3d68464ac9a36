// @module-tag full/packed
// The release dry run as CI runs it (npm run release:dry-run, after the build): the version policy, then
// `npm publish --dry-run` of each published package in dependency order.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PUBLISHED, ROOT, manifest } from '../lib/published.mjs';
import { documentVersion } from '../lib/versions.mjs';

describe('the release dry run', () => {
  it("publishes every publishable package, in dependency order, at the document's version", () => {
    const out = execFileSync(process.execPath, [join(ROOT, 'packages/release/scripts/publish.mjs'), '--dry-run'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    console.log(out);
    const version = documentVersion();
    const lines = out.split('\n').filter((l) => l.startsWith('  @videogen/'));
    const nameOf = (line: string) => /^  (@videogen\/[a-z-]+)[@:]/.exec(line)?.[1];
    expect(lines.map(nameOf)).toEqual(PUBLISHED.map((p) => p.name));
    for (const { name, dir } of PUBLISHED) {
      const line = lines.find((l) => nameOf(l) === name)!;
      if (manifest(dir).private) expect(line).toBe(`  ${name}: skipped, still private`);
      else
        expect(line).toMatch(
          new RegExp(
            `^  ${name}@${version.replace(/\./g, '\\.')}: \\S+\\.tgz, [\\d.]+ KiB packed, [\\d.]+ KiB unpacked, \\d+ files \\(dry run\\)$`,
          ),
        );
    }
    expect(out).toMatch(new RegExp(`would be published at ${version.replace(/\./g, '\\.')}, in dependency order`));
  });
});
