// node bench/profile.mjs ['{"validateResponses":true}'] [--plain | --script FILE]: where the CPU time of one
// GET /v1/videos/{id}/ goes. A sandbox child (rate limits and the self-check off, as in the throughput
// bench, unless the JSON options say otherwise; --plain: the bench's plain node:http server instead)
// is loaded by wrk (16 keep-alive clients) while `perf record` samples it with call stacks (Debian
// package linux-perf; node --perf-basic-prof names the JIT frames). Each sample goes to the nearest
// JavaScript frame's module (a V8 builtin or IC counts for the JS that called it), or to the kernel,
// the garbage collector or native code when no JS is on top. The process's CPU time (/proc) divided by
// the requests answered gives µs per request, split by those shares. Without perf: --cpu-prof, whose
// samples cannot see native code (it books the kernel's time to `writev`).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild, stop } from './children.mjs';
import { PLAIN_SERVER } from './plain-server.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const VIDEO = '71de0a00-0000-4000-8000-000000000001';
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 4);
const TOP = Number(process.env.PROFILE_TOP ?? 20);
const HAS_PERF = spawnSync('perf', ['--version']).error === undefined;

/** The part of the stack a JS frame's file belongs to. */
function moduleOf(file) {
  if (!file) return 'generated code (the compiled router, Ajv validators)';
  if (file.startsWith('node:'))
    return /^node:_http|^node:http/.test(file)
      ? 'node:http'
      : /stream|net|timers|task_queues|events/.test(file)
        ? 'node: streams, net, timers, ticks'
        : 'node: other';
  const nm = file.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = file.slice(nm + 13).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (/packages\/sandbox\//.test(file)) return '@videogen/sandbox';
  if (/openapi\//.test(file)) return '@videogen/openapi';
  return file.replace(/^file:\/\//, '');
}

const GC = /Heap::|Scavenger|MarkCompact|Sweeper|GCTracer|ConcurrentMarking|MinorMarkSweep|Evacuat/;

/** perf script output → samples per part of the stack, and per JS function. */
function bucketsFromPerf(text) {
  const parts = new Map();
  const fns = new Map();
  let total = 0;
  for (const sample of text.split(/\n\s*\n/)) {
    const frames = sample
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .map((l) => {
        const m = /^[0-9a-f]+ (.*) \(([^)]*)\)$/.exec(l);
        return m ? { sym: m[1], dso: m[2] } : { sym: l, dso: '' };
      });
    if (!frames.length) continue;
    total++;
    const leaf = frames[0];
    let part;
    let fn;
    if (leaf.dso.includes('kernel')) part = 'kernel (socket reads and writes, scheduling)';
    else if (GC.test(leaf.sym)) part = 'V8 garbage collector';
    else {
      const js = frames.find((f) => f.sym.startsWith('JS:') || f.sym.startsWith('RegExp:'));
      if (js?.sym.startsWith('RegExp:')) {
        const caller = frames.find((f) => f.sym.startsWith('JS:'));
        fn = `${js.sym} (in ${caller ? caller.sym.replace(/^JS:\S*?\s*/, '').split(' ')[0] : '?'})`;
        part = caller ? moduleOf(/ (\S+):\d+:\d+$/.exec(caller.sym)?.[1] ?? '') : 'native';
      } else if (js) {
        const m = /^JS:\S*?(\S*) (\S+):(\d+):\d+$/.exec(js.sym);
        const file = m?.[2] ?? '';
        part = moduleOf(file);
        fn = `${m?.[1] || '(anonymous)'} ${file.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/packages\//, 'packages/')}:${m?.[3]}`;
      } else if (
        /llhttp/.test(leaf.sym) ||
        frames.some((f) => /Parser::Execute/.test(f.sym) && !frames.some((g) => g.sym.startsWith('JS:')))
      ) {
        part = 'node native (llhttp parser, libuv, bindings)';
      } else part = 'node native (llhttp parser, libuv, bindings)';
    }
    parts.set(part, (parts.get(part) ?? 0) + 1);
    if (fn) fns.set(fn, (fns.get(fn) ?? 0) + 1);
  }
  return { parts, fns, total };
}

/** A .cpuprofile (no perf) → self samples per module and per function. */
function bucketsFromCpuProfile(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parts = new Map();
  const fns = new Map();
  let total = 0;
  for (const id of profile.samples) {
    const { callFrame } = byId.get(id);
    if (callFrame.functionName === '(idle)' || callFrame.functionName === '(program)') continue;
    total++;
    const part =
      callFrame.functionName === '(garbage collector)'
        ? 'V8 garbage collector'
        : callFrame.url
          ? moduleOf(callFrame.url)
          : `native: ${callFrame.functionName}`;
    parts.set(part, (parts.get(part) ?? 0) + 1);
    const key = `${callFrame.functionName || '(anonymous)'} ${callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/packages\//, 'packages/')}:${callFrame.lineNumber + 1}`;
    fns.set(key, (fns.get(key) ?? 0) + 1);
  }
  return { parts, fns, total };
}

/** utime + stime of a process, ms. */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function wrk(url, seconds) {
  const out = execFileSync(
    'wrk',
    ['-t1', '-c16', `-d${seconds}s`, '-H', 'authorization: Bearer sandbox-key-acme', url],
    { encoding: 'utf8' },
  );
  return Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
}

export async function profile({ options = {}, plain = false, script = undefined, seconds = SECONDS } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-profile-'));
  const flags = HAS_PERF ? ['--perf-basic-prof'] : ['--cpu-prof', `--cpu-prof-dir=${dir}`];
  const args = script
    ? [script]
    : plain
      ? ['-e', PLAIN_SERVER]
      : [here('./sandbox-child.mjs'), JSON.stringify({ rateLimits: false, validateResponses: false, ...options })];
  const server = await startChild([...flags, ...args], (o) => /ORIGIN (\S+)/.exec(o)?.[1]);
  const url = `${server.origin}/v1/videos/${VIDEO}/`;
  let requests;
  let cpu;
  let buckets;
  try {
    wrk(url, 2); // warm-up: the JIT has settled before sampling starts
    const c0 = cpuMs(server.child.pid);
    if (HAS_PERF) {
      const data = join(dir, 'perf.data');
      const rec = spawn(
        'perf',
        [
          'record',
          '-F',
          '1999',
          '-e',
          'cpu-clock',
          '-g',
          '-p',
          String(server.child.pid),
          '-o',
          data,
          '--',
          'sleep',
          String(seconds + 0.5),
        ],
        { stdio: 'ignore' },
      );
      requests = wrk(url, seconds);
      cpu = cpuMs(server.child.pid) - c0;
      await new Promise((r) => rec.on('exit', r));
      buckets = bucketsFromPerf(
        execFileSync('perf', ['script', '-i', data, '-F', 'ip,sym,dso'], {
          encoding: 'utf8',
          maxBuffer: 1 << 30,
          stdio: ['ignore', 'pipe', 'ignore'],
        }),
      );
    } else {
      requests = wrk(url, seconds);
      cpu = cpuMs(server.child.pid) - c0;
    }
  } finally {
    await stop(server.child);
  }
  if (!HAS_PERF) {
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    buckets = bucketsFromCpuProfile(JSON.parse(readFileSync(join(dir, file), 'utf8')));
  }
  rmSync(dir, { recursive: true, force: true });
  try {
    rmSync(`/tmp/perf-${server.child.pid}.map`, { force: true });
  } catch {
    // (no map without --perf-basic-prof)
  }
  return {
    requests,
    cpuMs: cpu,
    usPerRequest: (cpu * 1000) / requests,
    ...buckets,
    sampler: HAS_PERF ? 'perf' : 'cpu-prof',
  };
}

export function report(p, top = TOP) {
  const lines = [
    `${p.requests} requests in ${SECONDS} s under the sampler, ${p.cpuMs} ms CPU: ${p.usPerRequest.toFixed(1)} µs CPU per request (sampler: ${p.sampler}, ${p.total} samples)`,
    '',
    'per request, by part of the stack:',
  ];
  const us = (n) =>
    `${((p.usPerRequest * n) / p.total).toFixed(2).padStart(6)} µs ${((100 * n) / p.total).toFixed(1).padStart(5)} %`;
  for (const [k, n] of [...p.parts].sort((a, b) => b[1] - a[1]))
    if (n / p.total >= 0.003) lines.push(`  ${us(n)}  ${k}`);
  lines.push('', `top ${top} JavaScript functions (with the builtins they call):`);
  for (const [k, n] of [...p.fns].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${us(n)}  ${k}`);
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const plain = process.argv.includes('--plain');
  const json = process.argv.slice(2).find((a) => a.startsWith('{'));
  // --script FILE: any server that prints "ORIGIN <url>" (to compare against a bare Fastify route, say).
  const script = process.argv.includes('--script') ? process.argv[process.argv.indexOf('--script') + 1] : undefined;
  profile({ plain, script, options: json ? JSON.parse(json) : {} })
    .then((p) => console.log(report(p)))
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
