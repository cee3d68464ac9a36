// Runtime access to the bundled OpenAPI document, shared by the sandbox, the contract suite and the
// spec's own tests, so that none of them loads the spec or configures Ajv its own way.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

// Ajv is loaded by the first createAjv, not on import: the contract suite's bin imports this module at
// every start, and its --help, --plan and proxy never validate. Both packages are CommonJS with a `default`.
const require = createRequire(import.meta.url);

export const specPath = fileURLToPath(new URL('../dist/openapi.json', import.meta.url));
export const specYamlPath = fileURLToPath(new URL('../dist/openapi.yaml', import.meta.url));
/** Id under which the whole document is registered in Ajv; refs are `${SPEC_ID}#/components/...`. */
export const SPEC_ID = 'https://videogen.local/openapi.json';
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

let cached;
/** The bundled document (run `npm run build -w @videogen/openapi` first). */
export function loadSpec() {
  if (!cached) {
    try {
      cached = JSON.parse(readFileSync(specPath, 'utf8'));
    } catch (err) {
      throw new Error(
        `Cannot read the bundled OpenAPI document at ${specPath}: run "npm run build" first (${err.message})`,
      );
    }
  }
  return cached;
}

function vendorKeywords(node, found = new Set()) {
  if (Array.isArray(node)) for (const v of node) vendorKeywords(v, found);
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      if (k.startsWith('x-')) found.add(k);
      vendorKeywords(v, found);
    }
  return found;
}

/**
 * Ajv (JSON Schema 2020-12, strict, with formats) holding the whole document, so that every
 * `#/components/...` ref inside it resolves. OpenAPI's own words are declared as annotations.
 */
export function createAjv(spec = loadSpec(), options = {}) {
  const Ajv2020 = require('ajv/dist/2020.js').default;
  const addFormats = require('ajv-formats').default;
  // verbose: each error carries its schema node, whose x-decision classifies the failure.
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true, verbose: true, ...options });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  const words = ['example', 'discriminator', 'xml', 'externalDocs', ...vendorKeywords(spec)];
  for (const keyword of words) ajv.addKeyword({ keyword });
  // The document itself is not a schema; only its components are reached through refs.
  const { openapi, info, servers, paths, tags, security, components, ...rest } = spec;
  for (const k of Object.keys(rest)) if (!k.startsWith('x-')) throw new Error(`unexpected top-level key ${k}`);
  ajv.addKeyword({ keyword: 'components' });
  ajv.addSchema({ $id: SPEC_ID, components }, SPEC_ID);
  return ajv;
}

/**
 * Compile (once) a validator for a ref inside the document, such as `#/components/schemas/Video`.
 * A ref that points at nothing throws (registered, it would resolve to itself and recurse forever).
 */
export function validatorFor(ajv, ref) {
  const key = `${SPEC_ID}${ref}`;
  const known = ajv.getSchema(key);
  if (known) return known;
  const root = ajv.getSchema(SPEC_ID)?.schema;
  if (!/^#\//.test(ref) || deref(root ?? {}, { $ref: ref }) === undefined)
    throw new Error(`${ref} is not in the OpenAPI document`);
  ajv.addSchema({ $ref: key }, key);
  return ajv.getSchema(key);
}

/** Follow one local `$ref` (for response, parameter and requestBody objects). */
export function deref(spec, node) {
  let n = node;
  while (n && n.$ref) {
    n = n.$ref
      .slice(2)
      .split('/')
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((o, p) => o?.[p], spec);
  }
  return n;
}

/** Every operation: `{ operationId, method, path, operation, parameters }`, in document order. */
export function listOperations(spec = loadSpec()) {
  const out = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of HTTP_METHODS) if (item[method]) out.push(operationAt(spec, path, item, method));
  }
  return out;
}

/** The operation of a path item under one (lower-case) method, as listOperations gives it. */
function operationAt(spec, path, item, method) {
  const operation = item[method];
  const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p) => deref(spec, p));
  return { operationId: operation.operationId, method: method.toUpperCase(), path, operation, parameters };
}

/** The value a JSON pointer (`/results/0/video_id`) points at in a value, or undefined. */
function atPointer(value, pointer) {
  return pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((o, k) => o?.[k], value);
}

/**
 * The parameters an OpenAPI link passes to its operation, read from the exchange it sits on: the runtime
 * expressions `$response.body#/pointer` and `$request.path.name` are resolved; any other value is
 * passed as it is. An expression that finds nothing gives undefined.
 */
export function linkParameters(link, { body, pathParams = {} }) {
  const out = {};
  for (const [name, expression] of Object.entries(link.parameters ?? {})) {
    const fromBody = typeof expression === 'string' && /^\$response\.body#(\/.*)?$/.exec(expression);
    const fromPath = typeof expression === 'string' && /^\$request\.path\.(.+)$/.exec(expression);
    out[name] = fromBody ? atPointer(body, fromBody[1] ?? '') : fromPath ? pathParams[fromPath[1]] : expression;
  }
  return out;
}

/** A document path's pattern and the names of its parameters, compiled once per path text. */
const pathMatchers = new Map();
function pathMatcher(path) {
  let matcher = pathMatchers.get(path);
  if (!matcher) {
    const names = [];
    const pattern = path
      .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
      .replace(/\\?\{([^}]+)\\?\}/g, (_, n) => (names.push(n), '([^/]+)'));
    matcher = { regex: new RegExp(`^${pattern.replace(/\\\{|\\\}/g, '')}$`), names };
    pathMatchers.set(path, matcher);
  }
  return matcher;
}

/** Find the operation serving a concrete request path (without the server's `/v1` prefix). */
export function matchOperation(spec, method, requestPath) {
  // The paths in listOperations' order, the operation built only for the path that matches: this runs per
  // request where traffic is read (a HAR file, a recording, the sandbox's fuzz test).
  const wanted = method.toLowerCase();
  if (!HTTP_METHODS.includes(wanted)) return undefined;
  for (const [path, item] of Object.entries(spec.paths)) {
    if (!item[wanted]) continue;
    const { regex, names } = pathMatcher(path);
    const m = regex.exec(requestPath);
    if (m)
      return {
        ...operationAt(spec, path, item, wanted),
        pathParams: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1])])),
      };
  }
  return undefined;
}

/**
 * The declared response of an operation for a status (exact code first, then `4XX`/`5XX`, then
 * `default`), dereferenced, with the key it was found under; undefined when none is declared.
 */
export function declaredResponse(spec, operation, status) {
  const responses = operation.responses ?? {};
  const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => k in responses);
  return key === undefined ? undefined : { key, response: deref(spec, responses[key]) };
}

/** A header value as its schema reads it: HTTP sends text, the schema may say number or integer. */
function headerValue(raw, schema) {
  const types = [schema?.type, ...(schema?.anyOf ?? schema?.oneOf ?? []).map((s) => s.type)];
  if (types.some((t) => t === 'number' || t === 'integer') && /^-?\d+(\.\d+)?$/.test(raw.trim())) return Number(raw);
  return raw;
}

/** The decision numbers an element carries (`x-decision: N` or a list), or undefined: interface. */
export function decisionsOf(node) {
  const d = node?.['x-decision'];
  if (d === undefined || d === null) return undefined;
  return Array.isArray(d) ? d : [d];
}

function finding(kind, message, extra = {}) {
  const f = { kind, message };
  if (extra.pointer !== undefined) f.pointer = extra.pointer;
  const decisions = extra.decisions ?? decisionsOf(extra.node);
  // `decision` is the entry the finding breaks (the first listed); `decisions` every entry of the element.
  if (decisions) Object.assign(f, { decision: decisions[0], decisions });
  return f;
}

/**
 * The `enum` or `const` a node states; with `open`, also the named enums of an open `anyOf`/`oneOf`
 * (`Code | string`).
 */
function enumOf(spec, node, open) {
  const n = deref(spec, node);
  if (!n) return undefined;
  if (Array.isArray(n.enum)) return n.enum;
  if (n.const !== undefined) return [n.const];
  if (!open) return undefined;
  const named = (n.anyOf ?? n.oneOf ?? []).map((branch) => enumOf(spec, branch, open)).filter(Boolean);
  return named.length ? named.flat() : undefined;
}

/**
 * The `error_code` values a body schema states: the narrowest statement through `$ref` and `allOf`.
 * Closed by default (an `enum` or `const`); with `open`, also the known codes of `Code | string`.
 */
export function errorCodesOf(spec, schema, { open = false } = {}, depth = 0) {
  const s = deref(spec, schema);
  if (!s || depth > 10) return undefined;
  let codes = s.properties?.error_code ? enumOf(spec, s.properties.error_code, open) : undefined;
  for (const part of s.allOf ?? []) {
    const inner = errorCodesOf(spec, part, { open }, depth + 1);
    if (inner) codes = codes ? codes.filter((c) => inner.includes(c)) : inner;
  }
  return codes;
}

/** The decisions behind the document's own error codes (`x-enumDecisions`, code → decisions), wherever it keeps them. */
export function enumDecisionsOf(spec) {
  return Object.assign({}, ...Object.values(spec.components?.schemas ?? {}).map((s) => s?.['x-enumDecisions'] ?? {}));
}

/**
 * The decisions a stand-in response answers for: its own `x-decision` (its status is the choice);
 * else, when its status is the interface's, the decisions that added this document's own codes to it
 * (`x-enumDecisions`) and that the operation names: a conversion's 400 is the interface's (7.2), but
 * it answers a body that is not a JSON object by #10's choice, the case 7.2 leaves open.
 */
function standInDecisions(spec, operation, response) {
  const own = decisionsOf(response);
  if (own) return own;
  const chosen = enumDecisionsOf(spec);
  const named = decisionsOf(operation) ?? [];
  const codes = errorCodesOf(spec, response.content?.['application/json']?.schema, { open: true }) ?? [];
  const decisions = [...new Set(codes.flatMap((c) => chosen[c] ?? []))].filter((d) => named.includes(d));
  return decisions.length ? decisions : undefined;
}

/**
 * The declared response that stands in for an undeclared status whose choice the interface leaves
 * open, with the decisions it answers for: the expected status when the caller provoked one of the
 * same class, else the class's generic `N00` (the status a service gives when no specific one
 * applies), if a decision chose it or something it answers. Never another response of the class:
 * one whose decision picks between declared statuses (#29, 401 or 403) says nothing of a 422.
 * Undefined when there is none: the status then breaks the interface.
 */
function standInResponse(spec, operation, status, expectedStatus) {
  const responses = operation.responses ?? {};
  const cls = String(status)[0];
  const key = expectedStatus !== undefined && String(expectedStatus)[0] === cls ? String(expectedStatus) : `${cls}00`;
  if (!(key in responses)) return undefined;
  const response = deref(spec, responses[key]);
  const decisions = standInDecisions(spec, operation, response);
  return decisions ? { key, response, decisions } : undefined;
}

/**
 * Validate a response against the document: status declared, content type declared, body valid,
 * and every declared header that is present (or required) valid against its schema.
 * `headers` is anything with `get(name)` (a fetch `Headers`) or a plain object of lower-case names.
 * Returns typed findings `{ kind: 'status'|'content-type'|'body'|'header', message, pointer?,
 * decision?, decisions? }` (empty when the response conforms). `decision` is set only when the
 * failing element carries `x-decision` (CONVENTIONS.md: the most specific node, its own keywords):
 * a body failure inside a response whose status is a decision is still judged by its schema node.
 * `options.expectedStatus` names the declared status the caller provoked, to pick the stand-in
 * response for an undeclared status (403 for an expected 401).
 */
export function checkResponse(ajv, spec, operation, { status, contentType, body, headers }, options = {}) {
  const problems = [];
  const where = `${operation.operationId} ${status}`;
  let found = declaredResponse(spec, operation, status);
  if (!found) {
    const standIn = standInResponse(spec, operation, status, options.expectedStatus);
    if (!standIn) return [finding('status', `status ${status} is not declared for ${operation.operationId}`)];
    problems.push(
      finding(
        'status',
        `status ${status} is not declared for ${operation.operationId} (the document chose ${standIn.key})`,
        { decisions: standIn.decisions },
      ),
    );
    found = standIn;
  }
  if (headers) {
    const get = typeof headers.get === 'function' ? (n) => headers.get(n) : (n) => headers[n.toLowerCase()];
    for (const [name, declared] of Object.entries(found.response.headers ?? {})) {
      const h = deref(spec, declared);
      const raw = get(name);
      if (raw === undefined || raw === null) {
        if (h.required)
          problems.push(finding('header', `${where} lacks the required header ${name}`, { pointer: name, node: h }));
        continue;
      }
      const validate = ajv.compile(h.schema ?? {});
      if (!validate(headerValue(String(raw), h.schema))) {
        const e = validate.errors?.[0];
        problems.push(
          finding('header', `${where} header ${name}: "${raw}" ${e?.message ?? 'is invalid'}`, {
            pointer: name,
            node: decisionsOf(h) ? h : e?.parentSchema,
          }),
        );
      }
    }
  }
  const content = found.response.content;
  if (!content) return problems;
  const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const media = content[mediaType];
  if (!media) {
    problems.push(
      finding(
        'content-type',
        `content type "${contentType}" is not declared for ${where} (expected ${Object.keys(content).join(', ')})`,
      ),
    );
    return problems;
  }
  if (media.schema) {
    const ref = media.schema.$ref ?? null;
    const validate = ref ? validatorFor(ajv, ref) : ajv.compile(media.schema);
    if (!validate(body)) {
      for (const e of validate.errors ?? []) {
        problems.push(
          finding('body', `${where} body${e.instancePath} ${e.message}`, {
            pointer: e.instancePath,
            node: e.parentSchema ?? schemaAt(ajv, e.schemaPath),
          }),
        );
      }
    }
  }
  return problems;
}

/** The schema node holding a failed keyword, from Ajv's schemaPath (when errors are not verbose). */
function schemaAt(ajv, schemaPath) {
  const m = /^(.*)#(.*)\/[^/]+$/.exec(schemaPath ?? '');
  if (!m || !m[1]) return undefined;
  const root = ajv.getSchema(m[1])?.schema;
  return m[2]
    .split('/')
    .slice(1)
    .map((p) => decodeURIComponent(p).replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((o, p) => o?.[p], root);
}
