// @module-tag full/clone
// A newcomer's first hour, replayed: a fresh clone installed and built without the registry, then every
// command that README.md, the packages' READMEs and the guides print, as printed. Each resolves there (a
// script, a linked bin, a package npx finds without fetching); the servers start on a free port and answer;
// every command that can run offline runs against a sandbox this test starts with the documented command,
// and ends with the exit code its comment names (0 when it names none). Each package printed after npx
// runs through npx at its first place; its other places run the bin npx resolved it to (npxOnce). What is only resolved says why
// (a value the reader supplies, the registry, the repository's own test suite). The full table is written
// to test-results/documented-commands.md.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pMap from 'p-map';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshClone, ROOT, show, type Clone } from './clone.ts';
import {
  checkout,
  documentedCommands,
  npxBin,
  onPort,
  plan,
  problemsOf,
  setsPlaceholderTarget,
  simpleCommands,
  type Checkout,
  type DocCommand,
  type Plan,
  type Server,
} from './documented.ts';
import { freePort, onWalkPort, runSession, tryServer, type LineOutcome } from './walk.ts';

const KEY = 'sandbox-key-acme';
/** Fixture ids of the sandbox's README (the acme account), for the variables the guides' prose sets. */
const PDF_SETTING = '5e77a000-0000-4000-8000-000000000002';
const COMPLETED = '71de0a00-0000-4000-8000-000000000001';

let clone: Clone;
/** The clone's documented commands, read once (every test walks the same list). */
let cloneDocs: DocCommand[] | undefined;
const docsOfClone = () => (cloneDocs ??= documentedCommands(clone.dir));
let cloneCheckout: Checkout | undefined;
const checkoutOfClone = () => (cloneCheckout ??= checkout(clone.dir));
let sandbox: { stop(): Promise<void>; port: number } | undefined;
const table: string[] = [];

/** Small files under the names the docs use (the sandbox reads the extension and the size, not the bytes). */
const SAMPLE_FILES: Record<string, Buffer> = {
  'deck.pdf': Buffer.from('%PDF-1.4\n% a sample deck\n%%EOF\n'),
  'report.pdf': Buffer.from('%PDF-1.4\n% a sample report\n%%EOF\n'),
  'hall.jpg': Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 0xff, 0xd9]),
  'roof.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
};

beforeAll(async () => {
  clone = await freshClone();
  console.log(
    `fresh clone in ${clone.dir}: clone ${clone.timings.clone} s, npm ci (offline) ${clone.timings.install} s, build ${clone.timings.build} s`,
  );
  if (clone.install.code !== 0 || clone.build.code !== 0) return;
  for (const [name, bytes] of Object.entries(SAMPLE_FILES)) writeFileSync(join(clone.dir, name), bytes);
  // The walk's first sandbox, started the way the sandbox's README says, on a free port, 100× real time.
  npxRan.set('@videogen/sandbox', "the walk's own sandbox");
  sandbox = await walkSandbox('npx @videogen/sandbox');
});

/** Each package printed as `npx <package>`, and the place where the walk ran that form through npx. */
const npxRan = new Map<string, string>();
const NPX_PACKAGE = /(^|[\s;&|(])npx\s+((?:@[\w.-]+\/)?[\w.-]+)(?=[\s;&|)]|$)/g;

/**
 * A documented line as the walk runs it. The first place that prints `npx <package>` (in the order of the
 * documentation; the walk's own sandbox is the first `npx @videogen/sandbox`) runs through npx: npx finds the
 * package in the clone, offline, and runs its bin. Every other place of the same package runs that bin, as
 * npx would: it resolves the same way in the same clone ('resolves every documented command' checks each
 * place), and differs only in the arguments npx passes through. npx's own start (npm loading its modules and
 * reading the installed tree) costs 1.5–2 s of CPU a call, against 0.25 s for the CLI's help.
 */
function npxOnce(text: string, place: string): { text: string; note: string } {
  const c = checkoutOfClone();
  const commands = simpleCommands(text);
  const notes: string[] = [];
  const asRun = text.replace(NPX_PACKAGE, (all, lead: string, spec: string) => {
    const bin = npxBin(c, spec);
    if (!bin || !commands.some((s) => s.argv[0] === 'npx' && s.argv[1] === spec)) return all;
    const first = npxRan.get(spec);
    if (!first) {
      npxRan.set(spec, place);
      return all;
    }
    notes.push(`npx ${spec} as the bin it runs, ${bin} (through npx at ${first})`);
    return `${lead}${join(clone.dir, 'node_modules/.bin', bin)}`;
  });
  return { text: asRun, note: notes.join('; ') };
}

/** Sandboxes the walk started (each reading session gets its own: sessions run side by side). */
const sandboxes: Array<{ stop(): Promise<void> }> = [];

/** A sandbox for the walk, from `command` (the documented npx, or the bin it linked), on a free port at 100×. */
async function walkSandbox(command: string) {
  const port = await freePort();
  const started = await tryServerKept(`${command} --port ${port} --time-scale 100`, port);
  sandboxes.push(started);
  return { port, stop: started.stop };
}

afterAll(async () => {
  await Promise.all(sandboxes.map((sb) => sb.stop()));
  const dir = join(ROOT, 'packages/clone-tests/test-results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'documented-commands.md'),
    `# The documented commands, walked in a fresh clone\n\n| where | command | what the walk did |\n|---|---|---|\n${table.join('\n')}\n`,
  );
  clone?.remove();
});

/** A server kept running for the walk: started like tryServer, stopped at the end. */
async function tryServerKept(command: string, port: number) {
  const child = spawn('bash', ['-c', command], {
    cwd: clone.dir,
    env: { ...process.env, ...clone.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the walk's sandbox exited:\n${output}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/v1/video-settings/`, {
        headers: { authorization: `Bearer ${KEY}` },
      });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the walk's sandbox did not answer:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    stop: async () => {
      try {
        process.kill(-(child.pid ?? 0), 'SIGTERM');
      } catch {
        // already gone
      }
      await new Promise<void>((done) => (child.exitCode !== null ? done() : child.on('close', () => done())));
    },
  };
}

/** How many servers or reading sessions go at once: each is mostly processes starting and waiting. */
const SIDE_BY_SIDE = 3;

/** A line that only sets variables (`SPEC=…`, `export A=B`). */
const isAssignment = (text: string) =>
  simpleCommands(text).every((c) => c.argv.length === 0 || (c.argv[0] === 'export' && c.argv.length > 1));

const where = (c: DocCommand) => `${c.file}:${c.line}`;
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ⏎ ');

describe('a fresh clone, without the registry', () => {
  it('installs offline and links every bin of the workspace (npx videogen-contract and videogen-sandbox resolve there)', () => {
    // Offline, npm ci takes every package from npm's cache: one that is missing (ENOTCACHED) means this
    // machine's cache has not seen it yet (an online npm ci of this checkout fills it; CI's does).
    expect(clone.install.code, show(clone.install)).toBe(0);
    expect(clone.build.code, show(clone.build)).toBe(0);
    const c = checkout(clone.dir);
    for (const bin of ['videogen', 'videogen-sandbox', 'videogen-contract'])
      expect(problemsOf(c, { file: 'x', line: 0, text: bin, comment: '', inline: true, block: 'x' }), bin).toEqual([]);
  });

  it('resolves every documented command', () => {
    const c = checkout(clone.dir);
    const problems = docsOfClone().flatMap((d) => problemsOf(c, d).map((p) => `${where(d)}: ${d.text}\n    ${p}`));
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('starts every documented server on a free port, and each answers', async () => {
    expect(sandbox, 'the walk sandbox').toBeDefined();
    const failures: string[] = [];
    // Variables set by the block's earlier lines (SPEC=…) hold for its server too.
    const assigned = new Map<string, string[]>();
    // The same command printed in several places (`npm start -- --port 4010` in four files) is started
    // once: in the same clone and environment it is the same check, and each place gets its row.
    const servers = new Map<
      string,
      { places: DocCommand[]; d: DocCommand; text: string; note: string; server: Server; prelude: string[] }
    >();
    for (const d of docsOfClone()) {
      const p = plan(d);
      if (p.kind === 'run' && isAssignment(d.text)) assigned.set(d.block, [...(assigned.get(d.block) ?? []), d.text]);
      if (p.kind !== 'server') continue;
      const prelude = [...(assigned.get(d.block) ?? [])];
      const same = [...prelude, onPort(d.text, p.server, 4010)].join('\n');
      const seen = servers.get(same);
      if (seen) seen.places.push(d);
      else servers.set(same, { places: [d], d, ...npxOnce(d.text, where(d)), server: p.server, prelude });
    }
    // A few at a time: each is mostly a process starting and waiting.
    await pMap(
      servers.values(),
      async ({ places, d, text, note, server, prelude }) => {
        const port = await freePort();
        const command = [...prelude, onPort(text, server, port)].join('\n');
        const origin = `http://127.0.0.1:${port}`;
        const outcome = await tryServer(command, {
          cwd: clone.dir,
          env: clone.env,
          probe: async () => {
            // The MCP server answers an MCP host's first message (initialize) at /mcp.
            if (server === 'mcp') {
              const res = await fetch(`${origin}/mcp`, {
                method: 'POST',
                headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
                body: JSON.stringify({
                  jsonrpc: '2.0',
                  id: 1,
                  method: 'initialize',
                  params: {
                    protocolVersion: '2025-06-18',
                    capabilities: {},
                    clientInfo: { name: 'walk', version: '1' },
                  },
                }),
              });
              const text = await res.text();
              return `POST /mcp initialize → ${/"serverInfo"/.test(text) ? res.status : `${res.status} without serverInfo`}`;
            }
            // The sandbox answers its API with a documented key, Prism its mock of it, the docs server its
            // pages (at /docs/ or at /). Any HTTP answer ends the wait; a success is required below.
            const paths =
              server === 'sandbox'
                ? ['/v1/video-settings/']
                : server === 'docs'
                  ? ['/docs/', '/']
                  : ['/video-settings/'];
            const seen: string[] = [];
            for (const path of paths) {
              const res = await fetch(origin + path, { headers: { authorization: `Bearer ${KEY}` } });
              await res.arrayBuffer();
              seen.push(`GET ${path} → ${res.status}`);
              if (res.ok) break;
            }
            return seen.join(', ');
          },
        });
        for (const place of places)
          table.push(
            `| ${where(place)} | \`${cell(place.text)}\` | server: \`${cell(command)}\`, ${outcome.detail}${place === d ? '' : ` (the command of ${where(d)}, started once)`}${note ? `, ${note}` : ''} |`,
          );
        if (!outcome.answered || !/→ 2\d\d$/.test(outcome.detail))
          failures.push(
            `${places.map(where).join(', ')}: ${command}\n    ${outcome.detail}\n${outcome.output.slice(-3000)}`,
          );
      },
      { concurrency: SIDE_BY_SIDE },
    );
    expect(failures, failures.join('\n')).toEqual([]);
  });

  it('runs every command that can run offline, with the exit code its comment names', async () => {
    expect(sandbox, 'the walk sandbox').toBeDefined();
    // A reading session: a file, or the guides in their order (each builds on the variables of the last).
    const sessions = new Map<string, Array<{ command: DocCommand; expected: number; text: string; note: string }>>();
    let target: string | undefined;
    let block = '';
    for (const d of docsOfClone()) {
      if (d.block !== block) {
        block = d.block;
        target = undefined;
      }
      let p: Plan = plan(d);
      if (setsPlaceholderTarget(d)) target = where(d);
      else if (target && p.kind === 'run')
        p = { kind: 'resolve', reason: `follows the target the reader sets at ${target}` };
      if (p.kind === 'resolve' && !d.inline)
        table.push(`| ${where(d)} | \`${cell(d.text)}\` | resolved: ${p.reason} |`);
      if (p.kind !== 'run') continue;
      const session = d.file.startsWith('packages/docs/guides/') ? 'guides' : d.file;
      sessions.set(session, [
        ...(sessions.get(session) ?? []),
        { command: d, expected: p.exit, ...npxOnce(d.text, where(d)) },
      ]);
    }
    // Sessions side by side, each against a sandbox of its own (the first is the one started with npx; the
    // others with the bin it linked): one session's videos never hold another's running slots. A session
    // none of whose commands can reach the walk's port (no line names it, or every line only sets
    // variables) gets none: the port is a free one that only the rewritten lines know.
    const reachesSandbox = (commands: Array<{ command: DocCommand }>) =>
      commands.some(({ command: d }) => /127\.0\.0\.1:4010\b|\$\{?DOWNLOAD_URL\b/.test(d.text)) &&
      !commands.every(({ command: d }) => isAssignment(d.text));
    const outcomes: LineOutcome[] = [];
    // Every session ends within the test's own 600 s, so that one which hangs still reports its lines.
    const walkEnds = Date.now() + 540_000;
    let shared: typeof sandbox | undefined = sandbox;
    await pMap(
      [...sessions],
      async ([name, commands]) => {
        let port: number | undefined;
        if (reachesSandbox(commands)) {
          port = (shared ?? (await walkSandbox(join(clone.dir, 'node_modules/.bin/videogen-sandbox')))).port;
          shared = undefined;
        }
        const lines = commands.map(({ command: d, expected, text }) => {
          if (port === undefined) return { command: d, text, expected };
          // A presigned address expires (in minutes at 100×): read afresh where a line uses one, as the guide's reader just did.
          const fresh = /\$\{?DOWNLOAD_URL\b/.test(d.text)
            ? `DOWNLOAD_URL=$(curl -sS -H 'Authorization: Bearer ${KEY}' http://127.0.0.1:${port}/v1/videos/${COMPLETED}/ | jq -r .download_url)\n`
            : '';
          return { command: d, text: fresh + onWalkPort(text, port), expected };
        });
        const r = await runSession(lines, {
          cwd: clone.dir,
          env: {
            ...clone.env,
            PATH: `${join(clone.dir, 'node_modules/.bin')}:${process.env.PATH}`,
            // The variables the guides' prose has the reader set before their curl lines.
            VIDEO_SETTING_ID: PDF_SETTING,
            VIDEO_ID: COMPLETED,
            VIDEO_IDS: COMPLETED,
            // A session starts without a target: only what its own lines export.
            VIDEO_API_BASE_URL: undefined,
            VIDEO_API_KEY: undefined,
            VIDEO_API_OTHER_ACCOUNT_KEY: undefined,
            VIDEO_API_PACING_URL: undefined,
            VIDEO_API_LOG: undefined,
          },
          hangAfterMs: Math.max(walkEnds - Date.now(), 30_000),
          // The longest documented line (a generation waited for at 100×) takes seconds; two minutes is a hang.
          lineMs: 120_000,
        });
        if (r.timedOut)
          outcomes.push({ ...r.outcomes[0]!, code: null, stderr: `session ${name} hung:\n${r.output.slice(-4000)}` });
        outcomes.push(...r.outcomes);
      },
      { concurrency: SIDE_BY_SIDE },
    );
    const failures: string[] = [];
    const notes = new Map([...sessions.values()].flat().map(({ command, note }) => [command, note]));
    for (const o of outcomes) {
      const note = notes.get(o.command);
      table.push(
        `| ${where(o.command)} | \`${cell(o.command.text)}\` | ran: exit ${o.code} (expected ${o.expected}), ${o.seconds?.toFixed(1) ?? '?'} s${o.hung ? ', killed: it ran past the line deadline' : ''}${note ? `, ${note}` : ''} |`,
      );
      if (o.code !== o.expected || o.hung)
        failures.push(
          `${where(o.command)}: ${o.text}\n    exit ${o.code}, expected ${o.expected}${o.hung ? ' (killed: it ran past the line deadline)' : ''}\n--- stdout\n${o.stdout.slice(-1500)}\n--- stderr\n${o.stderr.slice(-2500)}`,
        );
    }
    console.log(`walked ${outcomes.length} commands in ${sessions.size} sessions; ${failures.length} failed`);
    table.sort();
    expect(failures, failures.join('\n\n')).toEqual([]);
  });
});
