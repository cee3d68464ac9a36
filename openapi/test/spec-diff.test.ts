// The spec-change gate: the document now against the last release passes, a change that
// breaks a client fails until CHANGELOG.md names it and info.version moves, a compatible change passes.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
// @ts-expect-error: plain ESM script without types
import { defaultBase, diffSpecs, gate, specAt } from '../scripts/spec-diff.mjs';

const root = join(import.meta.dirname, '..');
const specFile = join(root, 'openapi.yaml');
const current = () => parse(readFileSync(specFile, 'utf8'));
const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
const inGit = spawnSync('git', ['rev-parse', '--git-dir'], { cwd: root }).status === 0;

const keys = (changes: any[], breaking: boolean) => changes.filter((c) => c.breaking === breaking).map((c) => c.key);

describe('spec:diff gate', () => {
  it.skipIf(!inGit)('passes for the document now against the last release (default base), as CI runs it', () => {
    const base = defaultBase(root);
    const result = gate(specAt(base.ref, specFile), current(), changelog);
    expect(result.problems, `base ${base.ref} (${base.why})`).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it.skipIf(!inGit)('runs as `npm run spec:diff` does and says which base it chose', () => {
    const out = execFileSync(process.execPath, [join(root, 'scripts/spec-diff.mjs')], { cwd: root, encoding: 'utf8' });
    expect(out).toMatch(/^spec:diff \S+ \(/);
    expect(out).toMatch(/breaking for a client \(\d+\):/);
    expect(out.trim().split('\n').pop()).toBe('gate: ok');
  });

  it('fails when a response field is removed, until CHANGELOG names it under a new version and info.version moves', () => {
    const before = current();
    const after = structuredClone(before);
    const item = after.components.schemas.VideoListItem;
    delete item.properties.prompt;
    item.required = item.required.filter((r: string) => r !== 'prompt');
    const key = 'response-property-removed GET /videos/ 200 application/json.results[].prompt';
    expect(keys(diffSpecs(before, after), true)).toEqual([key]);

    const unchanged = gate(before, after, changelog);
    expect(unchanged.ok).toBe(false);
    expect(unchanged.problems.join('\n')).toMatch(/did not move up/);
    expect(unchanged.problems.join('\n')).toContain(key);

    const next = `## 9.0.0\n\n### Breaking\n\n- \`${key}\`: gone.\n\n`;
    after.info.version = '9.0.0';
    expect(gate(before, after, next + changelog).ok).toBe(true);
    // Named, but under the base's own version: not enough.
    after.info.version = before.info.version;
    expect(gate(before, after, next + changelog).ok).toBe(false);
    // Version moved but the change is not named.
    after.info.version = '9.0.0';
    expect(gate(before, after, `## 9.0.0\n\nSomething else.\n\n${changelog}`).problems).toEqual([
      expect.stringContaining(key),
    ]);
  });

  it('an enum value removed breaks requests that send it, not responses that carry it', () => {
    const before = current();
    const after = structuredClone(before);
    after.components.schemas.Language.enum = after.components.schemas.Language.enum.filter((c: string) => c !== 'el');
    const breaking = keys(diffSpecs(before, after), true);
    expect(breaking).toContain(
      'request-values-narrowed POST /videos/{video_id}/conversions/ application/json.language',
    );
    expect(breaking.filter((k: string) => k.includes('available_languages'))).toEqual([]);
    expect(gate(before, after, changelog).ok).toBe(false);
  });

  it('adding an optional response field, or folding 500 into 5XX, passes with no CHANGELOG entry', () => {
    const before = current();
    const after = structuredClone(before);
    after.components.schemas.Video.properties.thumbnail_url = { type: 'string', description: 'A new optional field.' };
    after.paths['/videos/{video_id}/conversions/'].post.responses['500'] = undefined;
    delete after.paths['/videos/{video_id}/conversions/'].post.responses['500'];
    const changes = diffSpecs(before, after);
    expect(keys(changes, true)).toEqual([]);
    expect(keys(changes, false)).toContain(
      'response-property-added GET /videos/{video_id}/ 200 application/json.thumbnail_url',
    );
    expect(keys(changes, false)).toContain('response-status-folded POST /videos/{video_id}/conversions/ 500');
    expect(gate(before, after, changelog).ok).toBe(true);
  });

  it('renaming a schema breaks a generated client even when the JSON is the same; adding one does not', () => {
    const before = current();
    const after = structuredClone(before);
    const S = after.components.schemas;
    S.VideoStatus = S.VideoState;
    delete S.VideoState;
    after.components.schemas.Video.properties.status.$ref = '#/components/schemas/VideoStatus';
    const changes = diffSpecs(before, after);
    expect(keys(changes, true)).toEqual(['component-removed components.schemas.VideoState']);
    expect(keys(changes, false)).toContain('component-added components.schemas.VideoStatus');
  });

  it('removing 5XX, adding a required form field or lowering a rate limit breaks a client', () => {
    const before = current();
    const after = structuredClone(before);
    delete after.paths['/videos/'].get.responses['5XX'];
    after.components.schemas.GenerateVideoRequest.required.push('text');
    after.paths['/videos/'].get['x-rate-limit'].requests = 3;
    expect(keys(diffSpecs(before, after), true).sort()).toEqual([
      'rate-limit-tightened GET /videos/',
      'request-property-required POST /videos/generate/ multipart/form-data.text',
      'response-status-removed GET /videos/ 5XX',
    ]);
  });
});
