// Runtime access to the bundled OpenAPI document, shared by the sandbox, the contract suite and the
// spec's own tests, so that none of them loads the spec or configures Ajv its own way.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

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
      throw new Error(`Cannot read the bundled OpenAPI document at ${specPath}: run "npm run build" first (${err.message})`);
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
  // verbose: each error names the schema node that failed, so that findings can read its x-decision.
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true, verbose: true, ...options });
  addFormats.default ? addFormats.default(ajv) : addFormats(ajv);
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

/** Compile (once) a validator for a ref inside the document, such as `#/components/schemas/Video`. */
export function validatorFor(ajv, ref) {
  const key = `${SPEC_ID}${ref}`;
  return ajv.getSchema(key) ?? (ajv.addSchema({ $ref: key }, key), ajv.getSchema(key));
}

/** Follow one local `$ref` (for response, parameter and requestBody objects). */
export function deref(spec, node) {
  let n = node;
  while (n && n.$ref) {
    n = n.$ref.slice(2).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~')).reduce((o, p) => o?.[p], spec);
  }
  return n;
}

/** Every operation: `{ operationId, method, path, operation, parameters }`, in document order. */
export function listOperations(spec = loadSpec()) {
  const out = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p) => deref(spec, p));
      out.push({ operationId: operation.operationId, method: method.toUpperCase(), path, operation, parameters });
    }
  }
  return out;
}

/** Find the operation serving a concrete request path (without the server's `/v1` prefix). */
export function matchOperation(spec, method, requestPath) {
  for (const op of listOperations(spec)) {
    if (op.method !== method.toUpperCase()) continue;
    const names = [];
    const pattern = op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{([^}]+)\\?\}/g, (_, n) => (names.push(n), '([^/]+)'));
    const m = new RegExp(`^${pattern.replace(/\\\{|\\\}/g, '')}$`).exec(requestPath);
    if (m) return { ...op, pathParams: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1])])) };
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

/** The `x-decision` numbers a node of the document carries (DECISIONS.md entries), or undefined. */
export function decisionsOf(node) {
  const d = node?.['x-decision'];
  if (d === undefined) return undefined;
  return Array.isArray(d) ? d : [d];
}

/**
 * The declared response that a status "should have been" when the document chose the status where the
 * interface does not fix it: another 2xx than the chosen success status, another 4xx than the chosen
 * error statuses. Undefined when no declared response of the same class carries an `x-decision`.
 */
export function decidedSibling(spec, operation, status) {
  const cls = String(status)[0];
  const keys = Object.keys(operation.responses ?? {}).filter((k) => k[0] === cls && /^\d\d\d$/.test(k)).sort();
  // The generic answer of the class first: 200 for a success, 400 for a client error.
  const preferred = [`${cls}00`, ...keys.filter((k) => k !== `${cls}00`)];
  for (const key of preferred) {
    if (!keys.includes(key)) continue;
    const response = deref(spec, operation.responses[key]);
    const decisions = decisionsOf(operation.responses[key]) ?? decisionsOf(response);
    if (decisions) return { key, response, decisions };
  }
  return undefined;
}

/**
 * Validate a response against the document: status declared, content type declared, body valid,
 * and every declared header that is present (or required) valid against its schema.
 * `headers` is anything with `get(name)` (a fetch `Headers`) or a plain object of lower-case names.
 *
 * Returns typed findings `{ kind: 'status' | 'content-type' | 'body' | 'header', message, decision? }`,
 * empty when the response conforms. `decision` lists the DECISIONS.md entries when the finding breaks
 * only a choice of this document (an `x-decision` on the very node whose rule failed), never when it
 * breaks something the interface states: a body that lacks `video_id` under a chosen status code is
 * still an interface finding.
 */
export function responseFindings(ajv, spec, operation, { status, contentType, body, headers }) {
  const findings = [];
  const id = operation.operationId;
  let found = declaredResponse(spec, operation, status);
  if (!found) {
    const sibling = decidedSibling(spec, operation, status);
    if (!sibling) return [{ kind: 'status', message: `status ${status} is not declared for ${id}` }];
    findings.push({
      kind: 'status',
      message: `status ${status} is not declared for ${id}: the document chose ${sibling.key}`,
      decision: sibling.decisions,
      expected: sibling.key,
    });
    // What the interface says of the body still holds: judge it by the response the document chose.
    found = sibling;
  }
  if (headers) {
    const get = typeof headers.get === 'function' ? (n) => headers.get(n) : (n) => headers[n.toLowerCase()];
    for (const [name, declared] of Object.entries(found.response.headers ?? {})) {
      const h = deref(spec, declared);
      const decision = decisionsOf(declared) ?? decisionsOf(h);
      const raw = get(name);
      if (raw === undefined || raw === null) {
        if (h.required) findings.push({ kind: 'header', header: name, message: `${id} ${status} lacks the required header ${name}`, ...(decision && { decision }) });
        continue;
      }
      const validate = ajv.compile(h.schema ?? {});
      if (!validate(headerValue(String(raw), h.schema))) {
        findings.push({ kind: 'header', header: name, message: `${id} ${status} header ${name}: "${raw}" ${validate.errors?.[0]?.message ?? 'is invalid'}`, ...(decision && { decision }) });
      }
    }
  }
  const content = found.response.content;
  if (!content) return findings;
  const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const media = content[mediaType];
  if (!media) {
    findings.push({ kind: 'content-type', message: `content type "${contentType}" is not declared for ${id} ${status} (expected ${Object.keys(content).join(', ')})` });
    return findings;
  }
  if (media.schema) {
    const ref = media.schema.$ref ?? null;
    const validate = ref ? validatorFor(ajv, ref) : ajv.compile(media.schema);
    if (!validate(body)) {
      for (const e of validate.errors ?? []) {
        // createAjv sets `verbose`, so each error carries the schema node whose keyword failed.
        const decision = decisionsOf(e.parentSchema);
        findings.push({ kind: 'body', pointer: e.instancePath, keyword: e.keyword, message: `${id} ${status} body${e.instancePath} ${e.message}`, ...(decision && { decision }) });
      }
    }
  }
  return findings;
}

/** The messages of `responseFindings`, for logs and tests that only print them. */
export function checkResponse(ajv, spec, operation, response) {
  return responseFindings(ajv, spec, operation, response).map((f) => f.message);
}
