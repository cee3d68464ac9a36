#!/usr/bin/env node
// The spec-change gate: what changed in openapi.yaml between a git ref and now, classified
// breaking / non-breaking for a client of this API, and whether CHANGELOG.md and info.version cover every
// breaking change. Why our own classifier: no diff tool from the npm registry that runs here reads OpenAPI
// 3.1 as it is (DECISIONS.md, "The spec-change gate"): `openapi-diff` rejects 3.1 ("Swagger Parser only supports 3.0.x"),
// oasdiff's npm wrappers download a Go binary (no internet here), and Optic's rulesets (1.0.9)
// report the moves of this push (allOf restructuring, 500 folded into 5XX) as removals.
//
// Usage: node openapi/scripts/spec-diff.mjs [BASE_REF] [--json]
//   BASE_REF default: the newest tag spec-v* (else v*) reachable from HEAD; with no tag, the repository's
//   root commit (the 1.0.0 release of the document). Exit 1 when a breaking change is not covered.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Inline every local $ref (the document has no cycles; a cycle is cut at depth 64). */
export function dereference(doc) {
  const get = (ref) =>
    ref
      .slice(2)
      .split('/')
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((o, k) => o?.[k], doc);
  const walk = (n, depth) => {
    if (depth > 64) return {};
    if (Array.isArray(n)) return n.map((v) => walk(v, depth + 1));
    if (!n || typeof n !== 'object') return n;
    if (typeof n.$ref === 'string' && n.$ref.startsWith('#/')) return walk(get(n.$ref), depth + 1);
    return Object.fromEntries(Object.entries(n).map(([k, v]) => [k, walk(v, depth + 1)]));
  };
  return walk(doc, 0);
}

/** A schema with its allOf branches folded in (properties merged, required united); if/then branches are skipped. */
function flatten(schema) {
  if (!schema || typeof schema !== 'object') return schema ?? {};
  const { allOf, ...own } = schema;
  let out = { ...own };
  for (const branch of (allOf ?? []).map(flatten)) {
    if (branch.if) continue;
    const props = { ...(out.properties ?? {}) };
    for (const [k, v] of Object.entries(branch.properties ?? {}))
      props[k] = props[k] ? flatten({ allOf: [props[k], v] }) : v;
    out = {
      ...branch,
      ...out,
      properties: props,
      required: [...new Set([...(out.required ?? []), ...(branch.required ?? [])])],
    };
    for (const k of Object.keys(branch))
      if (!['properties', 'required'].includes(k) && out[k] === undefined) out[k] = branch[k];
    // The branch speaks last about what it narrows (its type, enum).
    for (const k of ['type', 'enum', 'const', 'anyOf', 'items', 'maxItems', 'minItems'])
      if (branch[k] !== undefined) out[k] = branch[k];
  }
  if (!Object.keys(out.properties ?? {}).length) delete out.properties;
  if (!(out.required ?? []).length) delete out.required;
  return out;
}

const types = (s) => {
  if (s.type) return new Set([s.type].flat());
  if (s.const !== undefined) return new Set([typeof s.const === 'number' ? 'number' : typeof s.const]);
  if (s.anyOf || s.oneOf) {
    const all = (s.anyOf ?? s.oneOf).map((b) => types(flatten(b)));
    return all.some((t) => t === null) ? null : new Set(all.flatMap((t) => [...t]));
  }
  return null; // any
};
/** The closed set of values a schema allows (enum/const, or a union of closed branches), or null when open. */
const values = (s) => {
  if (s.const !== undefined) return [s.const];
  if (s.enum) return s.enum;
  if (s.anyOf || s.oneOf) {
    const all = (s.anyOf ?? s.oneOf).map((b) => values(flatten(b)));
    return all.some((v) => v === null) ? null : all.flat();
  }
  return null;
};
const subset = (a, b) => b === null || (a !== null && [...a].every((x) => b.has(x)));
const LIMITS = {
  maxLength: -1,
  maximum: -1,
  maxItems: -1,
  exclusiveMaximum: -1,
  minLength: 1,
  minimum: 1,
  minItems: 1,
  exclusiveMinimum: 1,
};

/**
 * Compare two schemas. `dir` is 'request' (the client sends values: narrowing breaks it) or 'response'
 * (the client reads values: removing or retyping what it reads breaks it; new values do not, since clients
 * of this API accept unknown codes and properties, DECISIONS.md #5 and #21).
 */
function compareSchema(a0, b0, dir, where, out, depth = 0) {
  if (depth > 32) return;
  const a = flatten(a0);
  const b = flatten(b0);
  const ta = types(a);
  const tb = types(b);
  if (dir === 'response' ? !subset(tb, ta) : !subset(ta, tb))
    out.push(change(true, `${dir}-type-changed`, where, `type ${fmt(ta)} -> ${fmt(tb)}`));
  const va = values(a);
  const vb = values(b);
  if (va || vb) {
    const removed = va && vb ? va.filter((v) => !vb.includes(v)) : [];
    const added = va && vb ? vb.filter((v) => !va.includes(v)) : [];
    if (dir === 'request' && vb && (!va || removed.length))
      out.push(
        change(
          true,
          'request-values-narrowed',
          where,
          va ? `no longer accepts ${removed.join(', ')}` : `now only ${vb.join(', ')}`,
        ),
      );
    else if (va && !vb)
      out.push(change(false, `${dir}-values-opened`, where, `was ${va.join(', ')}; now also any other value`));
    else if (removed.length || added.length || (!va && vb))
      out.push(
        change(
          false,
          `${dir}-values-changed`,
          where,
          [added.length && `added ${added.join(', ')}`, removed.length && `removed ${removed.join(', ')}`]
            .filter(Boolean)
            .join('; ') || 'closed',
        ),
      );
  }
  if (dir === 'request') {
    for (const [k, sign] of Object.entries(LIMITS)) {
      if (b[k] === undefined || a[k] === b[k]) continue;
      const tighter = a[k] === undefined || (b[k] - a[k]) * sign > 0;
      out.push(
        change(
          tighter,
          tighter ? 'request-constraint-tightened' : 'request-constraint-relaxed',
          where,
          `${k} ${a[k] ?? 'none'} -> ${b[k]}`,
        ),
      );
    }
    for (const k of ['pattern', 'format'])
      if (b[k] !== undefined && a[k] !== b[k])
        out.push(change(true, 'request-constraint-tightened', where, `${k} ${a[k] ?? 'none'} -> ${b[k]}`));
    if (b.additionalProperties === false && a.additionalProperties !== false)
      out.push(change(true, 'request-constraint-tightened', where, 'additionalProperties false'));
  }
  const pa = a.properties ?? {};
  const pb = b.properties ?? {};
  const ra = new Set(a.required ?? []);
  const rb = new Set(b.required ?? []);
  for (const name of Object.keys(pa)) {
    const at = `${where}.${name}`;
    if (!(name in pb)) out.push(change(true, `${dir}-property-removed`, at, 'removed'));
    else compareSchema(pa[name], pb[name], dir, at, out, depth + 1);
  }
  for (const name of Object.keys(pb))
    if (!(name in pa))
      out.push(
        change(
          dir === 'request' && rb.has(name),
          `${dir}-property-added`,
          `${where}.${name}`,
          rb.has(name) ? 'added, required' : 'added, optional',
        ),
      );
  for (const name of ra)
    if (!rb.has(name) && name in pb && dir === 'response')
      out.push(change(true, 'response-property-optional', `${where}.${name}`, 'no longer required'));
  for (const name of rb)
    if (!ra.has(name) && name in pa && dir === 'request')
      out.push(change(true, 'request-property-required', `${where}.${name}`, 'now required'));
  if (a.items || b.items) compareSchema(a.items ?? {}, b.items ?? {}, dir, `${where}[]`, out, depth + 1);
}

const fmt = (t) => (t ? [...t].sort().join('|') : 'any');
const change = (breaking, rule, where, detail) => ({ breaking, rule, where, detail, key: `${rule} ${where}` });

function operations(doc) {
  const ops = new Map();
  for (const [path, item] of Object.entries(doc.paths ?? {}))
    for (const m of METHODS)
      if (item[m])
        ops.set(`${m.toUpperCase()} ${path}`, {
          ...item[m],
          parameters: [...(item.parameters ?? []), ...(item[m].parameters ?? [])],
        });
  return ops;
}
const covering = (responses, status) => responses[status] ?? responses[`${String(status)[0]}XX`] ?? responses.default;

/** Compare facts kept in vendor extensions that clients are generated from (limits a client must respect). */
function compareExtensions(a, b, where, out) {
  const ra = a['x-rate-limit'];
  const rb = b['x-rate-limit'];
  if (ra && rb && ra.requests / ra.window_seconds > rb.requests / rb.window_seconds)
    out.push(
      change(
        true,
        'rate-limit-tightened',
        where,
        `${ra.requests}/${ra.window_seconds}s -> ${rb.requests}/${rb.window_seconds}s`,
      ),
    );
  const ca = a['x-concurrency-limit']?.max_running;
  const cb = b['x-concurrency-limit']?.max_running;
  if (ca !== undefined && cb !== undefined && cb < ca)
    out.push(change(true, 'concurrency-limit-tightened', where, `${ca} -> ${cb}`));
}
function compareUploads(a, b, out) {
  const ua = a?.['x-upload-limits']?.fields ?? {};
  const ub = b?.['x-upload-limits']?.fields ?? {};
  for (const [field, la] of Object.entries(ua)) {
    const lb = ub[field];
    const at = `x-upload-limits.${field}`;
    if (!lb) continue;
    for (const plan of Object.keys(la.max_bytes ?? {}))
      if ((lb.max_bytes?.[plan] ?? Infinity) < la.max_bytes[plan])
        out.push(
          change(
            true,
            'upload-limit-tightened',
            `${at}.${plan}`,
            `${la.max_bytes[plan]} -> ${lb.max_bytes?.[plan]} bytes`,
          ),
        );
    for (const plan of Object.keys(la.extensions ?? {})) {
      const gone = la.extensions[plan].filter((e) => !(lb.extensions?.[plan] ?? []).includes(e));
      if (gone.length)
        out.push(change(true, 'upload-limit-tightened', `${at}.${plan}`, `no longer accepts ${gone.join(', ')}`));
    }
  }
  const key = (c) => [...c.fields].sort().join('+');
  const kb = new Set((b?.['x-valid-combinations'] ?? []).map(key));
  for (const c of a?.['x-valid-combinations'] ?? [])
    if (!kb.has(key(c)))
      out.push(change(true, 'combination-removed', `x-valid-combinations.${key(c)}`, 'no longer valid'));
}

// Components whose names code generators turn into the names of types (openapi-typescript's
// `components['schemas']['X']`, hey-api's and orval's `X`): removing or renaming one breaks the code
// of a client generated from the document even when the JSON on the wire is the same.
const NAMED_COMPONENTS = ['schemas', 'responses', 'parameters', 'requestBodies', 'headers'];
function compareComponentNames(before, after, out) {
  for (const kind of NAMED_COMPONENTS) {
    const a = Object.keys(before.components?.[kind] ?? {});
    const b = Object.keys(after.components?.[kind] ?? {});
    for (const name of a)
      if (!b.includes(name))
        out.push(
          change(
            true,
            'component-removed',
            `components.${kind}.${name}`,
            'removed or renamed: generated code that names it no longer compiles',
          ),
        );
    for (const name of b)
      if (!a.includes(name)) out.push(change(false, 'component-added', `components.${kind}.${name}`, 'added'));
  }
}

/** Every change between two parsed (not dereferenced) documents, breaking first. */
export function diffSpecs(before, after) {
  const A = dereference(before);
  const B = dereference(after);
  const out = [];
  compareComponentNames(before, after, out);
  const basePath = (d) => (d.servers ?? []).map((s) => new URL(s.url, 'http://x').pathname.replace(/\/$/, ''));
  if (basePath(A)[0] !== basePath(B)[0])
    out.push(change(true, 'base-path-changed', 'servers', `${basePath(A)[0]} -> ${basePath(B)[0]}`));
  const oa = operations(A);
  const ob = operations(B);
  for (const [id, a] of oa) {
    const b = ob.get(id);
    if (!b) {
      out.push(change(true, 'operation-removed', id, 'removed'));
      continue;
    }
    compareExtensions(a, b, id, out);
    const param = (p) => `${p.in}:${p.name}`;
    const pb = new Map(b.parameters.map((p) => [param(p), p]));
    const pa = new Map(a.parameters.map((p) => [param(p), p]));
    for (const [k, p] of pa) {
      const q = pb.get(k);
      if (!q) out.push(change(true, 'request-parameter-removed', `${id} ${k}`, 'removed'));
      else {
        if (q.required && !p.required)
          out.push(change(true, 'request-parameter-required', `${id} ${k}`, 'now required'));
        compareSchema(p.schema ?? {}, q.schema ?? {}, 'request', `${id} ${k}`, out);
      }
    }
    for (const [k, q] of pb)
      if (!pa.has(k))
        out.push(
          change(
            Boolean(q.required),
            'request-parameter-added',
            `${id} ${k}`,
            q.required ? 'added, required' : 'added, optional',
          ),
        );
    const ca = a.requestBody?.content ?? {};
    const cb = b.requestBody?.content ?? {};
    if (b.requestBody?.required && !a.requestBody?.required)
      out.push(change(true, 'request-body-required', id, 'now required'));
    for (const [mt, m] of Object.entries(ca)) {
      if (!cb[mt]) out.push(change(true, 'request-media-type-removed', `${id} ${mt}`, 'removed'));
      else {
        compareSchema(m.schema ?? {}, cb[mt].schema ?? {}, 'request', `${id} ${mt}`, out);
        compareUploads(m.schema, cb[mt].schema, out);
      }
    }
    for (const [status, ra] of Object.entries(a.responses ?? {})) {
      const rb = covering(b.responses ?? {}, status);
      const at = `${id} ${status}`;
      if (!rb) {
        out.push(change(true, 'response-status-removed', at, 'removed'));
        continue;
      }
      if (!(status in b.responses))
        out.push(
          change(
            false,
            'response-status-folded',
            at,
            `now covered by ${Object.keys(b.responses).find((k) => b.responses[k] === rb)}`,
          ),
        );
      for (const [mt, m] of Object.entries(ra.content ?? {})) {
        if (!rb.content?.[mt]) out.push(change(true, 'response-media-type-removed', `${at} ${mt}`, 'removed'));
        else compareSchema(m.schema ?? {}, rb.content[mt].schema ?? {}, 'response', `${at} ${mt}`, out);
      }
      for (const [h, ha] of Object.entries(ra.headers ?? {})) {
        const hb = rb.headers?.[h];
        if (!hb)
          out.push(
            change(
              Boolean(ha.required),
              'response-header-removed',
              `${at} header ${h}`,
              ha.required ? 'removed (was required)' : 'removed (was optional)',
            ),
          );
        else compareSchema(ha.schema ?? {}, hb.schema ?? {}, 'response', `${at} header ${h}`, out);
      }
    }
    for (const status of Object.keys(b.responses ?? {}))
      if (!(status in (a.responses ?? {})))
        out.push(change(false, 'response-status-added', `${id} ${status}`, 'added'));
  }
  for (const id of ob.keys()) if (!oa.has(id)) out.push(change(false, 'operation-added', id, 'added'));
  if (before.info?.version !== after.info?.version)
    out.push(change(false, 'version-changed', 'info.version', `${before.info?.version} -> ${after.info?.version}`));
  return out.sort((x, y) => Number(y.breaking) - Number(x.breaking));
}

const semver = (v) => (/^(\d+)\.(\d+)\.(\d+)/.exec(v ?? '') ?? []).slice(1).map(Number);
const newer = (x, y) => {
  const [a, b] = [semver(x), semver(y)];
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return (a[i] ?? -1) > (b[i] ?? -1);
  return false;
};

/** CHANGELOG.md sections: `## <version>` headings and the text under each. */
export function changelogSections(text) {
  const out = new Map();
  let current;
  for (const line of text.split('\n')) {
    const m = /^##\s+\[?v?(\d+\.\d+\.\d+)\]?/.exec(line);
    if (m) out.set((current = m[1]), '');
    else if (/^#\s/.test(line))
      current = undefined; // a top-level heading ends the section
    else if (current) out.set(current, out.get(current) + line + '\n');
  }
  return out;
}

/**
 * The gate: every breaking change must be named (its key, in backticks) under a CHANGELOG version newer
 * than the base's and not newer than the document's, and info.version must have moved up from the base's.
 */
export function gate(before, after, changelogText) {
  const changes = diffSpecs(before, after);
  const breaking = changes.filter((c) => c.breaking);
  const problems = [];
  const from = before.info?.version;
  const to = after.info?.version;
  const sections = changelogSections(changelogText ?? '');
  if (!sections.has(to)) problems.push(`CHANGELOG.md has no section "## ${to}" for the document's info.version`);
  if (breaking.length) {
    if (!newer(to, from)) problems.push(`breaking changes, but info.version did not move up from ${from} (now ${to})`);
    const text = [...sections]
      .filter(([v]) => newer(v, from) && !newer(v, to))
      .map(([, t]) => t)
      .join('\n');
    // A backticked entry names one change by its key; `*` in an entry matches any text (one line for a family).
    // Only entries that start with a rule name count, so a bare `*` in prose names nothing.
    const named = [...text.matchAll(/`([a-z]+(?:-[a-z]+)+ [^`\n]+)`/g)].map(
      (m) => new RegExp(`^${m[1].replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`),
    );
    for (const c of breaking)
      if (!named.some((re) => re.test(c.key)))
        problems.push(
          `breaking change not named in CHANGELOG.md under a version after ${from}: \`${c.key}\` (${c.detail})`,
        );
  }
  return { ok: problems.length === 0, changes, breaking, problems, from, to };
}

const git = (cwd, ...args) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

/** The default base: the newest tag spec-v* (else v*) reachable from HEAD, else the root commit. */
export function defaultBase(cwd) {
  for (const match of ['spec-v*', 'v*']) {
    try {
      return {
        ref: git(cwd, 'describe', '--tags', '--abbrev=0', `--match=${match}`, 'HEAD'),
        why: `newest tag matching ${match}`,
      };
    } catch {}
  }
  const roots = git(cwd, 'rev-list', '--max-parents=0', 'HEAD').split('\n');
  return {
    ref: roots[roots.length - 1],
    why: 'no spec-v*/v* tag: the root commit (the document as first released, 1.0.0)',
  };
}

/** The document at a git ref (openapi/openapi.yaml of that commit), parsed. */
export function specAt(ref, specFile) {
  const cwd = dirname(specFile);
  const top = git(cwd, 'rev-parse', '--show-toplevel');
  return parse(git(top, 'show', `${ref}:${relative(top, specFile)}`));
}

function main(argv) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const specFile = join(root, 'openapi.yaml');
  const json = argv.includes('--json');
  const refArg = argv.find((a) => !a.startsWith('--'));
  const base = refArg ? { ref: refArg, why: 'given' } : defaultBase(root);
  const result = gate(
    specAt(base.ref, specFile),
    parse(readFileSync(specFile, 'utf8')),
    readFileSync(join(root, 'CHANGELOG.md'), 'utf8'),
  );
  if (json) console.log(JSON.stringify({ base, ...result }, null, 2));
  else {
    const line = (c) => `  - \`${c.key}\`: ${c.detail}`;
    console.log(`spec:diff ${base.ref} (${base.why}), info.version ${result.from} -> ${result.to}`);
    console.log(`breaking for a client (${result.breaking.length}):`);
    for (const c of result.breaking) console.log(line(c));
    const other = result.changes.filter((c) => !c.breaking);
    console.log(`non-breaking (${other.length}):`);
    for (const c of other) console.log(line(c));
    console.log(result.ok ? 'gate: ok' : `gate: FAILED\n${result.problems.map((p) => `  - ${p}`).join('\n')}`);
  }
  return result.ok ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  process.exitCode = main(process.argv.slice(2));
