// The createSandbox samples users copy, as they would have them: the client README's "Testing your
// integration" vitest file, this package's README quick start and the docs guide's "In your tests".
// Each is written to a file, type-checked under strict TypeScript (tsc --noEmit) against the built
// @videogen/client and @videogen/sandbox, and run: the vitest file by vitest in its own process (every
// test passing), the others by Node. A sample that no longer compiles or runs fails here.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('..', import.meta.url));
// Inside the package, so that @videogen/client and @videogen/sandbox resolve as in a user's project.
const dir = join(root, 'test', '.tmp', 'readme-samples');
const run = promisify(execFile);

const samples = [
  {
    file: 'videos.test.ts',
    doc: join(dirname(require.resolve('@videogen/client/package.json')), 'README.md'),
    heading: '## Testing your integration',
  },
  {
    file: 'sandbox-quickstart.ts',
    doc: join(root, 'README.md'),
    heading: "## Quick start: in your application's tests",
  },
  {
    file: 'guide-in-your-tests.ts',
    doc: join(root, '..', 'docs', 'guides', '07-sandbox.md'),
    heading: '## In your tests',
  },
];

/** The first ```ts block of a section (up to the next ## heading). */
function codeOf(doc: string, heading: string): string {
  const text = readFileSync(doc, 'utf8');
  const start = text.indexOf(`${heading}\n`);
  const section = start < 0 ? undefined : text.slice(start).split(/\n## /)[0];
  const code = section && /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error(`${doc} has no "${heading}" section with a \`\`\`ts block`);
  return code;
}

beforeAll(() => {
  mkdirSync(dir, { recursive: true });
  for (const s of samples) writeFileSync(join(dir, s.file), codeOf(s.doc, s.heading));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
      },
      files: samples.map((s) => s.file),
    }),
  );
  // A config of its own, so that vitest does not pick up this package's.
  writeFileSync(join(dir, 'vitest.config.mjs'), "export default { test: { include: ['videos.test.ts'] } };\n");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The client says every wait of a second or more on stderr by default (a JSON `warn` line: `waiting 1.2 s
 * before GET …: …`): a sample against a real-time sandbox meets some. Those lines are left out of what the
 * sample printed; any other line stays, and fails the comparison.
 */
const waitNotice = (line: string) => {
  try {
    const r = JSON.parse(line);
    return r.level === 'warn' && typeof r.msg === 'string' && r.msg.startsWith('waiting ');
  } catch {
    return false;
  }
};

/** Output of a child process, whether it succeeded or not, without colour codes (nor the client's wait notices). */
const output = async (p: Promise<{ stdout: string; stderr: string }>) => {
  const r = await p.catch((e) => e);
  const stderr = `${r.stderr ?? ''}`
    .split('\n')
    .filter((line) => !waitNotice(line))
    .join('\n');
  return { code: r.code ?? 0, text: `${r.stdout}${stderr}`.replace(/\x1b\[[0-9;]*m/g, '') };
};
const env = { ...process.env, NO_COLOR: '1', VIDEO_API_KEY: '', VIDEO_API_BASE_URL: '' };

// tsc and a nested vitest, each a child process (outside tools): npm test runs them, the fast lane does not.
it('every sample type-checks under strict TypeScript', { tags: ['full/tools'], timeout: 60_000 }, async () => {
  const tsc = require.resolve('typescript/bin/tsc');
  const r = await output(run(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')]));
  expect(r.text).toBe('');
});

it('the client README file runs under vitest, every test passing', {
  tags: ['full/tools'],
  timeout: 90_000,
}, async () => {
  const vitest = join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs');
  const r = await output(
    run(
      process.execPath,
      [
        vitest,
        'run',
        '--root',
        dir,
        '--config',
        join(dir, 'vitest.config.mjs'),
        '--reporter',
        'verbose',
        '--testTimeout',
        '20000',
      ],
      { cwd: dir, env },
    ),
  );
  expect(r.text).toMatch(/Tests\s+4 passed \(4\)/);
  expect(r.text).not.toMatch(/\d+ failed/);
});

/** A sample as Node runs it: its types stripped by TypeScript. */
async function runScript(file: string) {
  const js = ts.transpileModule(readFileSync(join(dir, file), 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const mjs = join(dir, file.replace(/\.ts$/, '.mjs'));
  writeFileSync(mjs, js);
  return output(run(process.execPath, [mjs], { cwd: dir, env, timeout: 30_000 }));
}

it("the sandbox README's quick start runs", async () => {
  const r = await runScript('sandbox-quickstart.ts');
  expect(r).toEqual({ code: 0, text: '' });
}, 60_000);

it('the docs guide sample runs and prints what its comments say', async () => {
  const r = await runScript('guide-in-your-tests.ts');
  expect(r.code).toBe(0);
  const lines = r.text.trim().split('\n');
  expect(lines[0]).toBe('completed');
  expect(lines[1]).toBe('video_failed');
  expect(lines[2]).toBe('403');
  expect(lines.slice(3).join(' ')).toMatch(/'503': 1/);
  expect(lines.at(-1)).toMatch(/\[\]$/);
}, 60_000);
