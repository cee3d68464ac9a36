// @module-tag full/packed
// @videogen/openapi installed from its tarball in a fresh project: its README's samples run as written
// (the response check against a sandbox started from the sandbox's tarball, the constants), a strict
// TypeScript program compiles against it, and other tools read the bundled document from node_modules.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ROOT } from '../lib/published.mjs';
import { documentVersion } from '../lib/versions.mjs';
import { run, show, startSandboxBin, type SandboxProcess } from './helpers.ts';

const { projects, tarballs } = inject('release');
const dir = projects['@videogen/openapi']!;
const installed = join(dir, 'node_modules/@videogen/openapi');
const readme = readFileSync(join(installed, 'README.md'), 'utf8');
const tool = (name: string) => join(ROOT, 'node_modules/.bin', name);

/** The first ```js block under a README heading, as a user would copy it. */
function sample(heading: string): string {
  const section = readme.slice(readme.indexOf(`## ${heading}`));
  const m = /```js\n([\s\S]*?)```/.exec(section);
  if (!m) throw new Error(`README.md has no js sample under "## ${heading}"`);
  return m[1]!;
}

let sandbox: SandboxProcess;
beforeAll(async () => {
  sandbox = await startSandboxBin(projects['@videogen/sandbox']!, ['--time-scale', '60', '--quiet']);
});
afterAll(async () => {
  await sandbox?.stop();
});

describe('@videogen/openapi in a fresh project', () => {
  it("runs the README's quick start: a real response checked against the contract", async () => {
    writeFileSync(join(dir, 'quickstart.mjs'), sample('Quick start'));
    const r = await run(process.execPath, ['quickstart.mjs'], {
      cwd: dir,
      env: { VIDEO_API_BASE_URL: sandbox.baseUrl, VIDEO_API_KEY: 'sandbox-key-acme' },
    });
    expect(r.code, show(r)).toBe(0);
    expect(r.stdout.trim()).toBe('listVideoSettings 200 conforms');
  });

  it("gives the values the README's constants sample states", async () => {
    const lines = sample('Read the constants').split('\n');
    const checks = lines
      .filter((l) => /^\S.*;\s*\/\/ /.test(l))
      .map((l) => {
        const [expr, value] = l.split(/;\s*\/\/ /) as [string, string];
        return `[${JSON.stringify(expr)}, ${expr}, ${value}]`;
      });
    expect(checks.length).toBeGreaterThan(3);
    writeFileSync(
      join(dir, 'constants.mjs'),
      `${lines.filter((l) => l.startsWith('import')).join('\n')}\nconsole.log(JSON.stringify([${checks.join(', ')}]));\n`,
    );
    const r = await run(process.execPath, ['constants.mjs'], { cwd: dir });
    expect(r.code, show(r)).toBe(0);
    for (const [expr, actual, stated] of JSON.parse(r.stdout)) expect(actual, expr).toEqual(stated);
  });

  it("loads the bundled document, its version the package's, and exports the YAML files by name", async () => {
    const script = `
      import { loadSpec, listOperations, specYamlPath } from '@videogen/openapi';
      import { readFileSync, realpathSync } from 'node:fs';
      import { fileURLToPath } from 'node:url';
      const spec = loadSpec();
      const yaml = fileURLToPath(import.meta.resolve('@videogen/openapi/openapi.yaml'));
      console.log(JSON.stringify({
        version: spec.info.version,
        operations: listOperations(spec).map((o) => o.operationId),
        yaml: realpathSync(yaml) === realpathSync(specYamlPath) && readFileSync(yaml, 'utf8').includes('openapi: 3.1'),
        json: JSON.stringify(JSON.parse(readFileSync(fileURLToPath(import.meta.resolve('@videogen/openapi/openapi.json')), 'utf8'))) === JSON.stringify(spec),
      }));`;
    writeFileSync(join(dir, 'load.mjs'), script);
    const r = await run(process.execPath, ['load.mjs'], { cwd: dir });
    expect(r.code, show(r)).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toEqual({ version: documentVersion(), operations: expect.any(Array), yaml: true, json: true });
    expect(out.operations).toHaveLength(6);
    // The bundled document is the workspace's, byte for byte.
    expect(readFileSync(join(installed, 'dist/openapi.yaml'), 'utf8')).toBe(
      readFileSync(join(ROOT, 'openapi/dist/openapi.yaml'), 'utf8'),
    );
  });

  it('ships every Arazzo file of the repository beside the bundle, exported by name', async () => {
    const workflows = readdirSync(join(ROOT, 'openapi')).filter((f) => f.endsWith('.arazzo.yaml'));
    expect(tarballs['@videogen/openapi']!.files.filter((f) => f.endsWith('.arazzo.yaml')).sort()).toEqual(
      workflows.map((f) => `dist/${f}`).sort(),
    );
    for (const f of workflows) {
      writeFileSync(join(dir, 'arazzo.mjs'), `console.log(import.meta.resolve('@videogen/openapi/${f}'));`);
      const r = await run(process.execPath, ['arazzo.mjs'], { cwd: dir });
      expect(r.code, show(r)).toBe(0);
      expect(existsSync(new URL(r.stdout.trim()))).toBe(true);
      // Its source description is the bundled document beside it.
      expect(readFileSync(join(installed, 'dist', f), 'utf8')).toMatch(/url: \.\/openapi\.yaml/);
    }
  });

  it('exports the twin format: the schema file, the reader, the built-in twins', async () => {
    const script = `
      import { readFileSync } from 'node:fs';
      import { fileURLToPath } from 'node:url';
      import { BUILTIN_TWINS, TWIN_SCHEMA_ID, builtinTwin, readTwin, validateTwin } from '@videogen/openapi/twin';
      const schema = JSON.parse(readFileSync(fileURLToPath(import.meta.resolve('@videogen/openapi/twin.schema.json')), 'utf8'));
      const file = (name) => fileURLToPath(import.meta.resolve('@videogen/openapi/twins/' + name + '.twin.json'));
      const alternative = readTwin(file('alternative'));
      const bad = JSON.parse(readFileSync(file('default'), 'utf8'));
      bad.behaviours['rate_limit.A.style'].value = 'burst';
      console.log(JSON.stringify({
        id: schema.$id === TWIN_SCHEMA_ID && schema.$schema,
        builtins: BUILTIN_TWINS.map((n) => validateTwin(JSON.parse(readFileSync(file(n), 'utf8'))).length),
        created: alternative.behaviours['success.status.generateVideo'].value,
        limit: builtinTwin('default').behaviours['concurrency.limit'].value,
        refused: validateTwin(bad),
      }));`;
    writeFileSync(join(dir, 'twin.mjs'), script);
    const r = await run(process.execPath, ['twin.mjs'], { cwd: dir });
    expect(r.code, show(r)).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      id: 'https://json-schema.org/draft/2020-12/schema',
      builtins: [0, 0],
      created: 201,
      limit: 2,
      refused: [
        {
          path: 'behaviours["rate_limit.A.style"].value',
          reason: 'must be one of "sliding", "fixed", "even", "token-bucket" (got "burst")',
        },
      ],
    });
  });

  it('compiles a strict TypeScript program against its types (nodenext)', () => {
    writeFileSync(
      join(dir, 'check.ts'),
      `
      import { checkResponse, createAjv, loadSpec, matchOperation, type ResponseFinding } from '@videogen/openapi';
      import { LANGUAGES, RATE_LIMITS, classifyError, type Language, type OperationId } from '@videogen/openapi/rules';
      import type { PathParams, Schemas, SuccessBody } from '@videogen/openapi/types';
      import { parseTwin, type Twin, type Refusal } from '@videogen/openapi/twin';
      const twin: Twin | undefined = undefined as Twin | undefined;
      const unknownKey: Refusal | undefined = twin?.behaviours['refusal.unknown_key'].value;
      export const read = (json: string): number => parseTwin(json).behaviours['concurrency.limit'].value;
      const video: SuccessBody<'getVideo'> = { video_id: 'x', status: 'completed', download_url: '', copyright: [] };
      const params: PathParams<'getVideo'> = { video_id: video.video_id };
      const item: Schemas['VideoListItem'] | undefined = undefined;
      const spec = loadSpec();
      const op = matchOperation(spec, 'GET', '/videos/');
      if (!op) throw new Error('no operation');
      const id: OperationId = 'listVideos';
      const findings: ResponseFinding[] = checkResponse(createAjv(spec), spec, op.operation, { status: 200, contentType: 'application/json', body: {} });
      const first: Language = LANGUAGES[0];
      const perWindow: number = RATE_LIMITS.A.requests;
      export const out = { id, findings: findings.map((f) => f.kind), first, perWindow, kind: classifyError(429, 'INSUFFICIENT_CREDIT').kind, params, item, unknownKey };
    `,
    );
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM'],
          types: [],
          skipLibCheck: false,
          noEmit: true,
        },
        files: ['check.ts'],
      }),
    );
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    try {
      execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json'], {
        cwd: dir,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (e) {
      throw new Error(`tsc failed:\n${(e as { stdout?: string }).stdout}`);
    }
  });

  it('is read by other tools from node_modules/@videogen/openapi/dist: Redocly lints it with the shipped rules', async () => {
    const r = await run(
      tool('redocly'),
      [
        'lint',
        'node_modules/@videogen/openapi/dist/openapi.yaml',
        '--config',
        'node_modules/@videogen/openapi/dist/redocly.yaml',
      ],
      {
        cwd: dir,
        env: { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    expect(r.code, show(r)).toBe(0);
    expect(r.stdout + r.stderr).toMatch(/Your API description is valid/);
  });

  it('is read by other tools from node_modules/@videogen/openapi/dist: Prism mocks it', async () => {
    const prism = spawn(
      tool('prism'),
      ['mock', 'node_modules/@videogen/openapi/dist/openapi.yaml', '-h', '127.0.0.1', '-p', '0'],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    );
    const closed = new Promise((done) => prism.on('close', done));
    try {
      const origin = await new Promise<string>((resolve, reject) => {
        let out = '';
        const onData = (d: Buffer) => {
          out += d;
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (m) resolve(m[1]!);
        };
        prism.stdout.on('data', onData);
        prism.stderr.on('data', onData);
        prism.on('close', (code) => reject(new Error(`prism exited (${code}):\n${out}`)));
      });
      const res = await fetch(`${origin}/video-settings/`, { headers: { Authorization: 'Bearer any' } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { items_per_page: number }).items_per_page).toBe(50);
    } finally {
      process.kill(-prism.pid!, 'SIGTERM');
      await closed;
    }
  });
});
