// Every command the documentation prints resolves in this checkout, and none falls through to an
// unscoped registry name: read from the Markdown in well under a second, so it runs in the fast lane. The
// same check in a fresh clone after an offline `npm ci`, and the commands run there, are fresh-clone.test.ts.
import { describe, expect, it } from 'vitest';
import { ROOT } from './clone.ts';
import {
  checkout,
  commandsOf,
  documentedCommands,
  expectedExit,
  logicalLines,
  plan,
  problemsOf,
  simpleCommands,
} from './documented.ts';

const here = checkout(ROOT);
const all = documentedCommands(ROOT);

describe('the commands the documentation prints', () => {
  it('are found in README.md, the packages, the guides', () => {
    const files = new Set(all.map((c) => c.file));
    for (const f of ['README.md', 'packages/cli/README.md', 'packages/docs/guides/08-contract-suite.md'])
      expect(files, f).toContain(f);
    expect(all.filter((c) => !c.inline).length).toBeGreaterThan(80);
  });

  it('each resolves in this checkout: a script that exists, a linked bin, a package npx finds', () => {
    const problems = all.flatMap((c) => problemsOf(here, c).map((p) => `${c.file}:${c.line}: ${c.text}\n    ${p}`));
    expect(problems, problems.join('\n')).toEqual([]);
  });
});

describe('the check itself', () => {
  const fake = (md: string) => commandsOf('FAKE.md', md);
  const problems = (md: string) => fake(md).flatMap((c) => problemsOf(here, c));

  it('refuses npx of a bin name that only resolves where the package is installed (the registry would serve whoever owns it)', () => {
    expect(problems('```sh\nnpx videogen-contract --plan\n```\n')).toEqual([
      expect.stringMatching(/unscoped registry name "videogen-contract"/),
    ]);
    expect(problems('Run `npx videogen-sandbox`.\n')).toEqual([expect.stringMatching(/"videogen-sandbox"/)]);
    expect(problems('```sh\nnpx @videogen/contract-tests --plan\nnpx @videogen/cli settings\n```\n')).toEqual([]);
  });

  it('takes an outside tool the checkout does not install only at the exact version the page names', () => {
    expect(problems('```sh\nnpx @modelcontextprotocol/inspector videogen mcp\n```\n')).toEqual([
      expect.stringMatching(/not installed in the checkout, so npx would fetch it from the registry/),
    ]);
    expect(problems('```sh\nnpx @modelcontextprotocol/inspector@latest videogen mcp\n```\n')).toHaveLength(1);
    const pinned = fake('```sh\nnpx @modelcontextprotocol/inspector@2.12.0 videogen mcp\n```\n');
    expect(pinned.flatMap((c) => problemsOf(here, c))).toEqual([]);
    expect(pinned.map((c) => plan(c).kind)).toEqual(['resolve']);
  });

  it('refuses a script that does not exist, a workspace that does not, an npm command that is not one', () => {
    expect(problems('```sh\nnpm run nope\nnpm test -w @videogen/nope\nnpm frobnicate\n```\n')).toEqual([
      expect.stringMatching(/no script "nope"/),
      expect.stringMatching(/no workspace named @videogen\/nope/),
      expect.stringMatching(/not an npm command/),
    ]);
  });

  it('reads lines as a shell does: continuations, comments, compound commands, substitutions', () => {
    expect(
      logicalLines('a \\\n  b # c\n# only a comment\nfor x in 1; do\n  echo "$x # not a comment"\ndone\n'),
    ).toEqual([
      { offset: 0, command: { text: 'a b', comment: 'c' } },
      { offset: 3, command: { text: 'for x in 1; do\necho "$x # not a comment"\ndone', comment: '' } },
    ]);
    expect(simpleCommands('id=$(videogen --json generate | jq -r .video_id) && X=1 videogen wait "$id"')).toEqual([
      { assignments: { id: '$' }, argv: [] },
      { assignments: {}, argv: ['videogen', '--json', 'generate'] },
      { assignments: {}, argv: ['jq', '-r', '.video_id'] },
      { assignments: { X: '1' }, argv: ['videogen', 'wait', '$id'] },
    ]);
    expect(simpleCommands('export K="$(your-secret-tool get key)"').map((c) => c.argv[0])).toEqual([
      'your-secret-tool',
      'export',
    ]);
  });

  it('reads the exit code a comment announces', () => {
    expect(expectedExit('exit 2: lists en, ko')).toBe(2);
    expect(expectedExit('5: Free plan')).toBe(5);
    expect(expectedExit('4')).toBe(4);
    expect(expectedExit('1. your settings and the inputs each takes')).toBe(0);
    expect(expectedExit('business plan; sandbox-key-globex is personal')).toBe(0);
  });

  it('plans what can run offline, and says why the rest is only resolved', () => {
    const [install, staging, server, cli] = fake(
      '```sh\nnpm install @videogen/client\nVIDEO_API_BASE_URL=https://staging.example/v1 npm run contract\nnpm ci && npm start\nvideogen status . # exit 2\n```\n',
    );
    expect(plan(install!)).toEqual({ kind: 'resolve', reason: expect.stringMatching(/registry/) });
    expect(plan(staging!)).toEqual({ kind: 'resolve', reason: expect.stringMatching(/reader supplies/) });
    expect(plan(server!)).toEqual({ kind: 'server', server: 'sandbox' });
    expect(plan(cli!)).toEqual({ kind: 'run', exit: 2 });
  });
});
