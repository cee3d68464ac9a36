// @module-tag full/tools
// Clients generated from the bundled document by @hey-api/openapi-ts and by orval, as their users make
// them: each generator with its defaults (fetch client) on a Node it supports, the output compiled with
// `tsc --strict` together with the sample flow (scenario/), and the flow run on Node 22 and 24 against a
// real sandbox: settings, generation, polling to `completed`, conversion, a refused conversion, a failed
// generation.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { specPath } from '@videogen/openapi';
import { POLLING, RATE_LIMITS, RETRY_POLICY } from '@videogen/openapi/rules';
import { startSandbox, SANDBOX_KEYS, FIXTURES, MAGIC, type RunningSandbox } from '@videogen/sandbox';
import { TOOLS, root as toolsRoot, versionOf } from '../scripts/tools.mjs';
import { lastJsonLine, run, type Ran } from './run.js';

const node = inject('node');
const scenario = new URL('../scenario/', import.meta.url).pathname;
const TIME_SCALE = 100;
const F = FIXTURES.acme;

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, timeScale: TIME_SCALE, validateResponses: true });
});
afterAll(async () => {
  await sandbox?.close();
  expect(sandbox.violations).toEqual([]);
});

interface Generator {
  name: string;
  tool: 'heyApi' | 'orval';
  /** The Node the generator runs on (both declare Node >= 22.18; orval fails on 20). */
  runtime: 'node22' | 'node24';
  /** Scenario files beside the shared flow. */
  files: string[];
  /** The program run from the tools' node_modules, writing into ./generated. */
  generate: (dir: string) => string[];
  /** Where the generated types are declared. */
  typesFile: string;
}

const GENERATORS: Generator[] = [
  {
    name: '@hey-api/openapi-ts',
    tool: 'heyApi',
    runtime: 'node24',
    files: ['hey-api.ts', 'hey-api-types.ts'],
    generate: () => [TOOLS.heyApi.bin, '-i', specPath, '-o', 'generated', '-c', '@hey-api/client-fetch'],
    typesFile: 'generated/types.gen.ts',
  },
  {
    name: 'orval',
    tool: 'orval',
    runtime: 'node22',
    files: ['orval.ts', 'orval-types.ts', 'orval-fetch.ts', 'orval.config.mjs'],
    generate: () => [TOOLS.orval.bin, '--config', 'orval.config.mjs'],
    typesFile: 'generated/videogen.ts',
  },
];

/** tsc's diagnostics, by file. */
function diagnostics(out: string): Record<string, string[]> {
  const byFile: Record<string, string[]> = {};
  for (const line of out.split('\n')) {
    const m = /^([^(\s]+)\(\d+,\d+\): error /.exec(line);
    if (m) (byFile[m[1]] ??= []).push(line);
  }
  return byFile;
}

describe.each(GENERATORS)('$name', (g) => {
  const version = versionOf(g.tool);
  const entry = g.files[0].replace(/\.ts$/, '.js');
  let dir: string;
  let generated: Ran;
  let compiled: Ran;

  beforeAll(async () => {
    // A project of the user's own, outside the workspace: the scenario, and the tools as its node_modules.
    dir = mkdtempSync(join(tmpdir(), `vg-${g.tool}-`));
    for (const f of ['sample-flow.ts', 'tsconfig.json', ...g.files]) copyFileSync(join(scenario, f), join(dir, f));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    symlinkSync(join(toolsRoot, 'node_modules'), join(dir, 'node_modules'));
    generated = await run(node[g.runtime], g.generate(dir), { cwd: dir, env: { OPENAPI_DOCUMENT: specPath } });
    compiled = await run(node[g.runtime], [TOOLS.tsc.bin, '-p', 'tsconfig.json'], { cwd: dir });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(`generates a client from the bundled document (${version})`, () => {
    expect(generated.code, generated.stdout + generated.stderr).toBe(0);
    expect(readdirSync(join(dir, 'generated')).length).toBeGreaterThan(0);
  });

  it('compiles with the sample flow under tsc --strict', () => {
    const problems = diagnostics(compiled.stdout);
    const own = Object.keys(problems).filter((f) => !f.endsWith('-types.ts'));
    expect(own.flatMap((f) => problems[f])).toEqual([]);
    expect(existsSync(join(dir, 'dist', entry))).toBe(true);
  });

  it('types the valid field combinations and the known error codes (compiler-checked)', () => {
    expect(diagnostics(compiled.stdout)[g.files[1]] ?? []).toEqual([]);
  });

  it('declares no type that shadows a JavaScript or web global', () => {
    const source = readFileSync(join(dir, g.typesFile), 'utf8');
    const declared = [...source.matchAll(/^export (?:type|interface|const|class|enum) (\w+)/gm)].map((m) => m[1]);
    const globals = new Set(Object.getOwnPropertyNames(globalThis));
    expect(declared.filter((name) => globals.has(name))).toEqual([]);
  });

  it.each(['node22', 'node24'] as const)('runs the sample flow against the sandbox on %s', async (runtime) => {
    const out = await run(node[runtime], [join('dist', entry)], {
      cwd: dir,
      env: {
        VIDEO_API_BASE_URL: sandbox.baseUrl,
        VIDEO_API_KEY: SANDBOX_KEYS.acme,
        FLOW_OPTIONS: JSON.stringify({
          failingText: `Explain tides ${MAGIC.fail}`,
          // The interface's waits (4.7, 7.1), on the sandbox's clock.
          timing: {
            pollIntervalMs: POLLING.intervalMs / TIME_SCALE,
            pollTimeoutMs: POLLING.timeoutMs / TIME_SCALE,
            rateLimitWaitMs: RATE_LIMITS.B.windowMs / TIME_SCALE,
            unavailableWaitMs: RETRY_POLICY.serviceUnavailableDelayMs[0] / TIME_SCALE,
          },
        }),
      },
    });
    expect(out.code, out.stderr).toBe(0);
    const result = lastJsonLine(out.stdout);
    expect(result.node).toMatch(runtime === 'node22' ? /^v22\./ : /^v24\./);
    expect(result.setting).toBe(F.settings.text);
    // Generation: polled (running at least once, the 30 s of the sandbox at 10 s intervals) to completed.
    expect(result.video).toMatchObject({
      status: 'completed',
      download_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/downloads\/.+\.mp4\?/),
    });
    expect(result.video.polls).toBeGreaterThan(1);
    // Conversion into French: a new id, polled to completed; the refusal carries its 7.2 code.
    expect(result.conversion).toMatchObject({
      is_convertible: true,
      available: true,
      status: 'completed',
      refused: { status: 400, error_code: 'CONVERT_NO_CHANGE' },
    });
    expect(result.conversion.video_id).not.toBe(result.video.video_id);
    // The failed generation stops the polling at `failed`, with nothing to download.
    expect(result.failed).toMatchObject({ status: 'failed', download_url: '' });
  });
});
