// The commands the documentation prints, as a newcomer copies them: every shell code block of every
// Markdown file (CHANGELOGs aside: they are history) cut into the lines one types, and the inline commands
// of the prose (`npx …`, `npm run …`). Each is resolved against a checkout (a script that exists, a bin the
// install linked, a package npx would fetch) and classified: run as printed, started as a server, or
// only resolved, with the reason. Markdown is read with marked's lexer, shell words with shell-quote.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { marked, type Token } from 'marked';
import { parse as parseShell, type ParseEntry } from 'shell-quote';

/** One command as the documentation prints it. */
export interface DocCommand {
  /** The Markdown file, relative to the checkout. */
  file: string;
  /** Its first line there (1-based). */
  line: number;
  /** The command, continuation lines joined, its comment removed. */
  text: string;
  /** The comment after it (`# exit 2: lists en, ko`), without the `#`. */
  comment: string;
  /** A span of the prose rather than a line of a code block: resolved, never run. */
  inline: boolean;
  /** The code block it belongs to (its lines share shell variables when run). */
  block: string;
}

const SHELL_LANGS = new Set(['sh', 'bash', 'shell', 'zsh', 'console']);
/** Prose spans that are commands a reader may type. */
const INLINE_COMMAND = /^(npx|npm (run|start|test|ci|install|i|exec)|videogen(-contract|-sandbox)?)( |$)/;

/** The Markdown files whose commands are checked: every tracked one but the CHANGELOGs. */
export function markdownFiles(root: string): string[] {
  return execFileSync('git', ['ls-files', '-co', '--exclude-standard', '*.md'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && !/(^|\/)CHANGELOG\.md$/.test(f) && existsSync(join(root, f)));
}

/** The commands of one Markdown text. */
export function commandsOf(file: string, source: string): DocCommand[] {
  const out: DocCommand[] = [];
  const tokens = marked.lexer(source);
  let cursor = 0;
  let blocks = 0;
  const lineAt = (index: number) => source.slice(0, index).split('\n').length;
  marked.walkTokens(tokens, (token: Token) => {
    if (token.type === 'code') {
      const at = source.indexOf(token.raw, cursor);
      if (at >= 0) cursor = at + token.raw.length;
      const lang = (token.lang ?? '').trim().split(/\s/)[0];
      if (!SHELL_LANGS.has(lang)) return;
      const block = `${file}#${++blocks}`;
      // The fence's line, then the code's first line.
      const first = lineAt(Math.max(at, 0)) + 1;
      for (const c of logicalLines(token.text))
        out.push({ file, line: first + c.offset, ...c.command, inline: false, block });
    } else if (token.type === 'codespan') {
      const text = token.raw.replace(/^`+|`+$/g, '').trim();
      if (!INLINE_COMMAND.test(text)) return;
      const at = source.indexOf(token.raw);
      out.push({ file, line: lineAt(Math.max(at, 0)), text, comment: '', inline: true, block: `${file}#inline` });
    }
  });
  return out;
}

/** Every documented command of a checkout. */
export function documentedCommands(root: string): DocCommand[] {
  return markdownFiles(root).flatMap((f) => commandsOf(f, readFileSync(join(root, f), 'utf8')));
}

/** Where an unquoted `#` starts a comment (at the start or after a blank), or -1. */
function commentStart(line: string): number {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === '\\' && quote === '"') i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === '\\') i++;
    else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '#' && (i === 0 || /\s/.test(line[i - 1] ?? ''))) return i;
  }
  return -1;
}

const OPENERS: Record<string, string> = { for: 'done', while: 'done', until: 'done', if: 'fi', case: 'esac' };

/** A block's lines as typed: `\` continuations joined, compound commands (for … done) kept whole. */
export function logicalLines(code: string): Array<{ offset: number; command: { text: string; comment: string } }> {
  const out: Array<{ offset: number; command: { text: string; comment: string } }> = [];
  const lines = code.split('\n');
  let pending: { offset: number; parts: string[]; comment: string; closer?: string } | undefined;
  for (const [i, raw] of lines.entries()) {
    const hash = commentStart(raw);
    const body = (hash >= 0 ? raw.slice(0, hash) : raw).trimEnd();
    const comment = hash >= 0 ? raw.slice(hash + 1).trim() : '';
    if (!pending && !body.trim()) continue;
    const continued = body.endsWith('\\');
    const part = continued ? body.slice(0, -1).trimEnd() : body;
    if (!pending) {
      const first = part.trim().split(/\s+/)[0] ?? '';
      pending = { offset: i, parts: [], comment: '', closer: OPENERS[first] };
    }
    pending.parts.push(part.trim());
    if (comment) pending.comment = pending.comment ? `${pending.comment} ${comment}` : comment;
    const closed = !pending.closer || new RegExp(`(^|[;\\s])${pending.closer}\\s*$`).test(part.trim());
    if (continued || !closed) continue;
    const joiner = pending.closer ? '\n' : ' ';
    out.push({
      offset: pending.offset,
      command: { text: pending.parts.join(joiner).trim(), comment: pending.comment },
    });
    pending = undefined;
  }
  if (pending)
    out.push({ offset: pending.offset, command: { text: pending.parts.join(' ').trim(), comment: pending.comment } });
  return out;
}

/** One simple command of a line: its leading assignments and its words. */
export interface SimpleCommand {
  assignments: Record<string, string>;
  argv: string[];
}

const SEPARATORS = new Set(['&&', '||', '|', ';', '&', '(', ')', ';;', '|&', '<(', '>', '<', '>>']);
const KEYWORDS = new Set(['do', 'then', 'else', 'elif', '!', '{', '}']);
const ENDS = new Set(['done', 'fi', 'esac']);

/** The simple commands of a line, `$( … )` inside words included; variables stay as `$NAME`. */
export function simpleCommands(text: string): SimpleCommand[] {
  const entries = parseShell(text, (name: string) => `$${name}`);
  const out: SimpleCommand[] = [];
  let words: string[] = [];
  const flush = () => {
    while (words.length && KEYWORDS.has(words[0] ?? '')) words.shift();
    if (words.length && !ENDS.has(words[0] ?? '') && !['for', 'case', 'while', 'until'].includes(words[0] ?? '')) {
      const assignments: Record<string, string> = {};
      while (words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0] ?? '')) {
        const w = words.shift() ?? '';
        const eq = w.indexOf('=');
        assignments[w.slice(0, eq)] = w.slice(eq + 1);
      }
      out.push({ assignments, argv: words });
    }
    words = [];
  };
  for (const e of entries as ParseEntry[]) {
    if (typeof e === 'string') {
      // A command substitution inside a quoted word: its commands count too.
      for (const m of e.matchAll(/\$\(([^()]*)\)/g)) out.push(...simpleCommands(m[1] ?? ''));
      words.push(e);
    } else if ('op' in e && (SEPARATORS.has(e.op) || e.op === 'glob')) {
      if (e.op === 'glob' && 'pattern' in e) words.push(String(e.pattern));
      else {
        // A redirection's target is not a command.
        if (['>', '<', '>>'].includes(e.op)) continue;
        flush();
      }
    } else if ('comment' in e) flush();
  }
  flush();
  return out;
}

/** What a checkout offers to resolve commands against. */
export interface Checkout {
  root: string;
  /** Workspace packages by name: their directory and manifest. */
  workspaces: Map<string, { dir: string; scripts: Record<string, string>; bin: Record<string, string> }>;
  /** Names of every package the lockfile installs (the tools this repository pins). */
  locked: Set<string>;
  /** Names of the outside tools pinned apart (packages/ecosystem-tests/tools), installed by its tools script. */
  pinnedApart: Set<string>;
  /** The root manifest's scripts. */
  scripts: Record<string, string>;
}

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

export function checkout(root: string): Checkout {
  const manifest = readJson(join(root, 'package.json'));
  const workspaces: Checkout['workspaces'] = new Map();
  for (const pattern of manifest.workspaces as string[]) {
    const dirs = pattern.endsWith('/*')
      ? readdirSync(join(root, pattern.slice(0, -2)), { withFileTypes: true })
          .filter((d) => d.isDirectory())
          .map((d) => `${pattern.slice(0, -2)}/${d.name}`)
      : [pattern];
    for (const dir of dirs) {
      const file = join(root, dir, 'package.json');
      if (!existsSync(file)) continue;
      const pkg = readJson(file);
      const bin = typeof pkg.bin === 'string' ? { [pkg.name.split('/').pop()]: pkg.bin } : (pkg.bin ?? {});
      workspaces.set(pkg.name, { dir, scripts: pkg.scripts ?? {}, bin });
    }
  }
  const lock = readJson(join(root, 'package-lock.json'));
  const locked = new Set<string>();
  for (const key of Object.keys(lock.packages ?? {})) {
    const at = key.lastIndexOf('node_modules/');
    if (at >= 0) locked.add(key.slice(at + 'node_modules/'.length));
  }
  const apartFile = join(root, 'packages/ecosystem-tests/tools/package.json');
  const pinnedApart = new Set<string>(existsSync(apartFile) ? Object.keys(readJson(apartFile).dependencies ?? {}) : []);
  return { root, workspaces, locked, pinnedApart, scripts: manifest.scripts ?? {} };
}

/** The scope this repository publishes under: a name there can only ever be one of ours. */
export const OWN_SCOPE = '@videogen/';

/** A package spec without its version: `@scope/name@1.2` → `@scope/name`. */
export const packageName = (spec: string) => spec.replace(/^(@?[^@]+)@.*$/, '$1');

/** A scoped package at an exact version (`@scope/name@1.2.3`): what npx fetches is the one the page means. */
export const pinnedOutsideTool = (spec: string) => /^@[^/@\s]+\/[^@\s]+@\d+\.\d+\.\d+$/.test(spec);

/** Commands of the shell and of the machine (Debian), not of the repository. */
const SHELL = new Set([
  'export',
  'cd',
  'echo',
  'sleep',
  'set',
  'unset',
  'source',
  '.',
  'true',
  'false',
  'test',
  '[',
  'printf',
  'read',
  'wait',
  'kill',
  'mkdir',
  'ls',
  'cat',
]);
const SYSTEM = ['node', 'curl', 'jq', 'python3', 'git', 'bash', 'sh'];

export type Resolution = { ok: true; how: string } | { ok: false; problem: string };

const onPath = (cmd: string) => (process.env.PATH ?? '').split(delimiter).some((d) => d && existsSync(join(d, cmd)));

/** How npx would run `args`: the package it resolves (and would fetch from the registry), the bin. */
export function npxTarget(args: string[]): { pkg?: string; command?: string; noInstall: boolean } {
  let pkg: string | undefined;
  let noInstall = false;
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (rest.length) rest.push(a);
    else if (a === '-p' || a === '--package') pkg = args[++i];
    else if (a.startsWith('--package=')) pkg = a.slice('--package='.length);
    else if (a === '--no' || a === '--no-install') noInstall = true;
    else if (a === '--') continue;
    else if (a.startsWith('-')) continue;
    else rest.push(a);
  }
  return { pkg: pkg ?? rest[0], command: pkg ? rest[0] : undefined, noInstall };
}

/** The bin npx runs for a package without `-p`: the one named after it, else its only file (several names for one file count as one). */
function binOf(bins: Record<string, string>, pkg: string): string | undefined {
  const names = Object.keys(bins);
  const own = pkg.split('/').pop() ?? pkg;
  if (names.includes(own)) return own;
  return new Set(Object.values(bins)).size === 1 ? names[0] : undefined;
}

/** Where a package is installed in the checkout, with its bins, when it is. */
function installed(c: Checkout, name: string): Record<string, string> | undefined {
  const ws = c.workspaces.get(name);
  if (ws) return ws.bin;
  const file = join(c.root, 'node_modules', name, 'package.json');
  if (!existsSync(file)) return undefined;
  const pkg = readJson(file);
  return typeof pkg.bin === 'string' ? { [name.split('/').pop() ?? name]: pkg.bin } : (pkg.bin ?? {});
}

const linked = (c: Checkout, bin: string) => existsSync(join(c.root, 'node_modules/.bin', bin));

/** npm's own commands, and what the repository's must have (a script). `local`: the workspace the documenting file belongs to. */
function resolveNpm(c: Checkout, args: string[], local?: string): Resolution {
  let workspace: string | undefined;
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a === '--') break;
    if (a === '-w' || a === '--workspace') workspace = args[++i];
    else if (a.startsWith('--workspace=')) workspace = a.slice('--workspace='.length);
    else if (!a.startsWith('-')) words.push(a);
  }
  const [sub, ...rest] = words;
  const ws = workspace ? c.workspaces.get(workspace) : undefined;
  if (workspace && !ws) return { ok: false, problem: `no workspace named ${workspace}` };
  // Without -w: the root's script, else (a README inside a package, read in its directory) that package's.
  const own = !workspace && local ? c.workspaces.get(local) : undefined;
  const scripts = ws ? ws.scripts : { ...(own?.scripts ?? {}), ...c.scripts };
  const where = workspace ?? (own ? `the root package.json or ${local}` : 'the root package.json');
  switch (sub) {
    case 'run':
    case 'run-script': {
      const script = rest[0];
      if (!script) return { ok: true, how: 'npm run (lists the scripts)' };
      return scripts[script]
        ? { ok: true, how: `script ${script} of ${where}` }
        : { ok: false, problem: `no script "${script}" in ${where}` };
    }
    case 'start':
    case 'test':
      return scripts[sub]
        ? { ok: true, how: `script ${sub} of ${where}` }
        : { ok: false, problem: `no script "${sub}" in ${where}` };
    case 'ci':
      return { ok: true, how: 'npm ci' };
    case 'install':
    case 'i':
    case 'add': {
      for (const spec of rest) {
        if (/^(\.{0,2}\/|file:)|\.tgz$/.test(spec)) continue;
        const name = packageName(spec);
        if (name.startsWith(OWN_SCOPE) && !c.workspaces.has(name))
          return { ok: false, problem: `${name} is not a package of this repository` };
        if (!name.startsWith('@') && !c.locked.has(name))
          return { ok: false, problem: `installs ${name} from the registry, a name this repository does not pin` };
      }
      return { ok: true, how: rest.length ? `npm install ${rest.join(' ')}` : 'npm install' };
    }
    case 'exec':
      return resolveNpx(c, args.slice(args.indexOf('exec') + 1));
    case 'pack':
    case 'publish':
    case 'view':
    case 'ls':
    case 'cache':
    case 'config':
    case 'version':
    case 'help':
      return { ok: true, how: `npm ${sub}` };
    default:
      return { ok: false, problem: `npm ${sub ?? ''}: not an npm command` };
  }
}

function resolveNpx(c: Checkout, args: string[]): Resolution {
  const { pkg, command } = npxTarget(args);
  if (!pkg) return { ok: false, problem: 'npx with nothing to run' };
  const name = packageName(pkg);
  // What npx fetches when the checkout does not have it: a name of our scope, a scoped name (a scope
  // belongs to its organisation), or a package this repository pins. Any other unscoped name is whoever
  // registers it on the registry.
  if (!name.startsWith('@') && !c.locked.has(name) && !c.pinnedApart.has(name))
    return {
      ok: false,
      problem: `npx ${name}: outside an install that has it, npx fetches the unscoped registry name "${name}", which this repository does not own or pin; name the package (npx @videogen/…) or a pinned tool`,
    };
  const bins = installed(c, name);
  if (!bins) {
    if (c.pinnedApart.has(name))
      return { ok: true, how: `${name}: an outside tool pinned in packages/ecosystem-tests/tools` };
    // An outside tool the reader fetches on purpose (a browser UI, say): its organisation's scope and the
    // exact version the documentation names, so that every reader gets the tool the page was written for.
    if (pinnedOutsideTool(pkg))
      return { ok: true, how: `${pkg}: an outside tool of its own scope, at the version the documentation pins` };
    return {
      ok: false,
      problem: `npx ${name}: not installed in the checkout, so npx would fetch it from the registry`,
    };
  }
  const bin = command ?? binOf(bins, name);
  if (!bin)
    return {
      ok: false,
      problem: `npx ${name}: the package has several bins (${Object.keys(bins).join(', ')}); npx cannot tell which`,
    };
  if (!linked(c, bin)) return { ok: false, problem: `npx ${name}: its bin ${bin} is not linked in node_modules/.bin` };
  return { ok: true, how: `npx → ${name} (bin ${bin})` };
}

/**
 * The bin that `npx <spec>` runs in the checkout without fetching anything: for a bare package name (no
 * version) installed there, the bin npx picks (resolveNpx's rule), when the install linked it.
 */
export function npxBin(c: Checkout, spec: string): string | undefined {
  if (spec.startsWith('-') || packageName(spec) !== spec) return undefined;
  const bins = installed(c, spec);
  const bin = bins && binOf(bins, spec);
  return bin && linked(c, bin) ? bin : undefined;
}

/** The workspace package a Markdown file belongs to (its README is read in that directory), if any. */
export function packageOfFile(c: Checkout, file: string): string | undefined {
  for (const [name, ws] of c.workspaces) if (file.startsWith(`${ws.dir}/`)) return name;
  return undefined;
}

/** Resolves one simple command against the checkout: the problem when a reader's copy would not run it. */
export function resolve(c: Checkout, cmd: SimpleCommand, file = ''): Resolution {
  const [name, ...args] = cmd.argv;
  if (!name) return { ok: true, how: 'assignment' };
  if (PLACEHOLDER.test(name)) return { ok: true, how: 'a command of the reader (a placeholder)' };
  if (SHELL.has(name)) return { ok: true, how: 'shell' };
  if (name === 'npm') return resolveNpm(c, args, packageOfFile(c, file));
  if (name === 'npx') return resolveNpx(c, args);
  if (SYSTEM.includes(name))
    return onPath(name) ? { ok: true, how: `${name} on PATH` } : { ok: false, problem: `${name} is not installed` };
  if (linked(c, name)) return { ok: true, how: `bin ${name} of the checkout (a global install puts it on PATH)` };
  return { ok: false, problem: `${name}: no such command in the checkout` };
}

/** The servers the docs start: the sandbox, the docs site, Prism, the MCP server over Streamable HTTP. */
export type Server = 'sandbox' | 'docs' | 'prism' | 'mcp';

/** What the walk does with a documented command. */
export type Plan =
  | { kind: 'run'; exit: number }
  | { kind: 'server'; server: Server }
  | { kind: 'resolve'; reason: string };

/** Every problem of a documented command: each simple command resolved (a synopsis in the prose: its command only). */
export function problemsOf(c: Checkout, d: DocCommand): string[] {
  const cmds = simpleCommands(d.text);
  return (d.inline ? cmds.slice(0, 1) : cmds)
    .map((s) => resolve(c, s, d.file))
    .flatMap((r) => (r.ok ? [] : [r.problem]));
}

/** Values the reader supplies: a host, a key, a file of theirs, a port printed by a server they started. */
const PLACEHOLDER =
  /staging\.example|your-service\.example|api\.example|\.example\.com|redis\.example|proxy\.internal|your-secret-tool|(^|[\s=])\.\.\.(\s|$)|<[a-z_]+>|\bapp\.mjs\b|127\.0\.0\.1:41733|redis:\/\/localhost|\bflow\.arazzo\.yaml\b|\.twin\.json\b|app\.example|whsec_…|\bmy-app\b/;

/** The exit code a line's comment announces: `# exit 2: …`, `# 5: Free plan`, `# 4`; else 0. */
export function expectedExit(comment: string): number {
  const m = /^(?:exit\s+)?(\d{1,3})(?::|$|\s*$)/.exec(comment.trim());
  return m ? Number(m[1]) : 0;
}

/** The outside tools the compatibility matrix pins apart (packages/ecosystem-tests/tools), not installed by npm ci. */
const TOOLS_APART = /\s(@stoplight\/spectral-cli|@hey-api\/openapi-ts|orval|@apideck\/portman|newman)(@\S+)?(\s|$)/;

const NPM_SUITE = /^npm (test|run (test:fast|lint|bench[\w:-]*))( |$)|^npm (test|run (lint|bench[\w:-]*)) -w /;

/** How the walk treats a command: run it, start it as a server, or only resolve it (and why). */
export function plan(command: DocCommand): Plan {
  // The walk has run the install itself (offline): what follows it on the line is planned alone.
  const text = command.text.replace(/^npm ci\s*&&\s*/, '');
  if (command.inline) return { kind: 'resolve', reason: 'a command named in the prose' };
  if (PLACEHOLDER.test(text))
    return { kind: 'resolve', reason: 'holds a value the reader supplies (a host, a key, a file)' };
  const cmds = simpleCommands(text);
  const lines = cmds.map((c) => c.argv.join(' '));
  if (lines.some((l) => /^npm ci( |$)/.test(l)))
    return { kind: 'resolve', reason: 'the install: the walk ran it, offline' };
  if (lines.some((l) => /^npm install$/.test(l)))
    return { kind: 'resolve', reason: 'the install: the walk ran npm ci, offline' };
  if (lines.some((l) => NPM_SUITE.test(l)))
    return { kind: 'resolve', reason: "the repository's own test, lint or benchmark: CI runs it" };
  if (lines.some((l) => /^npm (install|i|add) \S/.test(l) && !/\.tgz\b/.test(l)))
    return { kind: 'resolve', reason: 'installs from the registry, which the walk has no access to' };
  if (lines.some((l) => /^npm run (release:(dry-run|publish)|tools|dredd)( |$)|^npm run (tools|dredd) -w /.test(l)))
    return { kind: 'resolve', reason: 'talks to the registry (a publish, or installing outside tools)' };
  if (lines.some((l) => /^npm run release:version( |$)/.test(l)))
    return { kind: 'resolve', reason: "rewrites the checkout's versions" };
  if (lines.some((l) => /^npm run build -w /.test(l)))
    return {
      kind: 'resolve',
      reason: "one package's part of the build the walk ran (npm run build runs each package's build script)",
    };
  if (lines.some((l) => /^npx @redocly\/cli respect /.test(l)))
    return {
      kind: 'resolve',
      reason:
        "Respect waits the Arazzo workflows' retryAfter, 10 s of real time whatever the sandbox's pace; packages/ecosystem-tests runs these workflows (respect.test.ts, on a time-scaled copy)",
    };
  if (lines.some((l) => /^npx /.test(l) && pinnedOutsideTool(npxTarget(l.split(' ').slice(1)).pkg ?? '')))
    return { kind: 'resolve', reason: 'an outside tool fetched from the registry at the version the page pins' };
  const apart = lines.find((l) => /^npx /.test(l) && TOOLS_APART.test(l));
  if (apart)
    return {
      kind: 'resolve',
      reason:
        'an outside tool pinned in packages/ecosystem-tests/tools, where npm run tools -w @videogen/ecosystem-tests installs it and its tests run it',
    };
  for (const l of lines) {
    if (/^npm start( |$)|(^| )videogen-sandbox( |$)|^npx @videogen\/sandbox( |$)/.test(l))
      return { kind: 'server', server: 'sandbox' };
    if (/^npm run docs( |$)/.test(l)) return { kind: 'server', server: 'docs' };
    if (/^npm run (mock|proxy)( |$)|prism(-cli)? (mock|proxy) /.test(l)) return { kind: 'server', server: 'prism' };
    if (/(^| )videogen mcp .*--http /.test(l)) return { kind: 'server', server: 'mcp' };
  }
  return { kind: 'run', exit: expectedExit(command.comment) };
}

/** A placeholder target set for the rest of a block (`export VIDEO_API_BASE_URL=https://staging.example/v1`). */
export const setsPlaceholderTarget = (d: DocCommand) =>
  PLACEHOLDER.test(d.text) &&
  simpleCommands(d.text).some(
    (c) =>
      Object.keys(c.assignments).some((k) => k.startsWith('VIDEO_API_')) ||
      (c.argv[0] === 'export' && c.argv.some((w) => w.startsWith('VIDEO_API_'))),
  );

/** A server's command line, listening on `port` instead of its documented one. */
export function onPort(text: string, server: Server, port: number): string {
  const t = text.replace(/^npm ci\s*&&\s*/, '').trim();
  if (server === 'mcp') return t.replace(/\s--http\s+\d+/, ` --http ${port}`);
  if (server === 'prism' && /^npx /.test(t)) return `${t.replace(/\s(-p|--port)\s+\d+/, '')} -p ${port}`;
  if (/\s--port\s+\d+/.test(t)) return t.replace(/\s--port\s+\d+/, ` --port ${port}`);
  // npm start / npm run X pass their arguments after `--`.
  if (/^npm /.test(t) && !/\s--(\s|$)/.test(t)) return `${t} -- --port ${port}`;
  return `${t} --port ${port}`;
}
