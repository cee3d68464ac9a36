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
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true, ...options });
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

/**
 * Validate a response against the document: status declared, content type declared, body valid,
 * and every declared header that is present (or required) valid against its schema.
 * `headers` is anything with `get(name)` (a fetch `Headers`) or a plain object of lower-case names.
 * Returns a list of problems (empty when the response conforms).
 */
export function checkResponse(ajv, spec, operation, { status, contentType, body, headers }) {
  const problems = [];
  const found = declaredResponse(spec, operation, status);
  if (!found) return [`status ${status} is not declared for ${operation.operationId}`];
  if (headers) {
    const get = typeof headers.get === 'function' ? (n) => headers.get(n) : (n) => headers[n.toLowerCase()];
    for (const [name, declared] of Object.entries(found.response.headers ?? {})) {
      const h = deref(spec, declared);
      const raw = get(name);
      if (raw === undefined || raw === null) {
        if (h.required) problems.push(`${operation.operationId} ${status} lacks the required header ${name}`);
        continue;
      }
      const validate = ajv.compile(h.schema ?? {});
      if (!validate(headerValue(String(raw), h.schema))) problems.push(`${operation.operationId} ${status} header ${name}: "${raw}" ${validate.errors?.[0]?.message ?? 'is invalid'}`);
    }
  }
  const content = found.response.content;
  if (!content) return problems;
  const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const media = content[mediaType];
  if (!media) return [`content type "${contentType}" is not declared for ${operation.operationId} ${status} (expected ${Object.keys(content).join(', ')})`];
  if (media.schema) {
    const ref = media.schema.$ref ?? null;
    const validate = ref ? validatorFor(ajv, ref) : ajv.compile(media.schema);
    if (!validate(body)) {
      for (const e of validate.errors ?? []) problems.push(`${operation.operationId} ${status} body${e.instancePath} ${e.message}`);
    }
  }
  return problems;
}
