// --har FILE: check recorded traffic against the spec offline, with the response checks
// of a live run (http.ts responseProblems). Sends nothing. Reads a HAR 1.2 export (validated against
// har-schema, the HAR spec's JSON Schema) or a JSON-lines log (one exchange per line, e.g. the
// client's VIDEO_API_LOG=debug output).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Har, Entry } from 'har-format';
import type AjvModule from 'ajv';
import type { ValidateFunction } from 'ajv';
import type formatsModule from 'ajv-formats';
import { matchOperation, type OpenApiDocument } from '@videogen/openapi';
import { redactUrl } from '@videogen/openapi/rules';
import { loadContract } from '../engine/contract.ts';
import { redact, registerSecret } from '../engine/redact.ts';
import { responseProblems } from '../engine/responses.ts';
import type { Problem } from '../shapes.ts';

export interface RecordedExchange {
  method: string;
  url: string;
  status: number;
  headers: Record<string, string>;
  text: string;
  requestHeaders?: Record<string, string>;
}

export interface CheckedExchange {
  index: number;
  request: string;
  operationId?: string;
  status: number;
  problems: Problem[];
}

export interface TrafficReport {
  source: 'har' | 'jsonl';
  checked: CheckedExchange[];
  /** Requests that are no operation of the spec (other hosts, assets): counted, not judged. */
  ignored: string[];
  /** Problems that break what the interface states (a problem without a decision number). */
  interfaceProblems: number;
  /** Problems that only break one of our decisions (`decision` set by checkResponse findings). */
  decisionProblems: number;
}

const require = createRequire(import.meta.url);

/** The HAR 1.2 schema (har-schema) compiled once; it is draft-06, which Ajv 8 reads with its meta-schema. */
let harValidator: ValidateFunction | undefined;
function compileHarSchema(): ValidateFunction {
  // Required here, not imported by the module: every start of the bin loads this module, few read a HAR.
  // Both are CommonJS and export their class/function as `default` too.
  const Ajv = (require('ajv') as { default: typeof AjvModule.default }).default;
  const addFormats = (require('ajv-formats') as { default: typeof formatsModule.default }).default;
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json'));
  addFormats(ajv);
  const schemas = require('har-schema') as Record<string, object>;
  for (const s of Object.values(schemas)) ajv.addSchema(s);
  const validate = ajv.getSchema('har.json#');
  if (!validate) throw new Error('har-schema has no har.json schema');
  return validate;
}
/** The problems of a would-be HAR 1.2 document (none: valid). */
export function validateHar(doc: unknown): string[] {
  harValidator ??= compileHarSchema();
  return harValidator(doc)
    ? []
    : (harValidator.errors ?? []).slice(0, 5).map((e) => `HAR${e.instancePath} ${e.message}`);
}

const lower = (pairs: Array<{ name: string; value: string }>) =>
  Object.fromEntries(pairs.map((h) => [h.name.toLowerCase(), h.value]));

function fromHarEntry(e: Entry): RecordedExchange {
  const c = e.response.content;
  const text =
    c.text === undefined ? '' : c.encoding === 'base64' ? Buffer.from(c.text, 'base64').toString('utf8') : c.text;
  const headers = lower(e.response.headers);
  if (!headers['content-type'] && c.mimeType) headers['content-type'] = c.mimeType;
  return {
    method: e.request.method,
    url: e.request.url,
    status: e.response.status,
    headers,
    text,
    requestHeaders: lower(e.request.headers),
  };
}

/** One JSON-lines record: flat `{method,url,status,headers,body}` or nested `{request:{…},response:{…}}`. */
/** What a log line may hold, flat or nested (every field still to check). */
type LogLine = {
  request?: LogLine;
  response?: LogLine;
  method?: unknown;
  url?: unknown;
  status?: unknown;
  body?: unknown;
  text?: unknown;
  headers?: Record<string, unknown>;
};

function fromLogLine(line: unknown): RecordedExchange | undefined {
  if (!line || typeof line !== 'object') return undefined;
  const o = line as LogLine;
  const req = o.request ?? o;
  const res = o.response ?? o;
  const status = Number(res.status);
  if (typeof req.method !== 'string' || typeof req.url !== 'string' || !Number.isInteger(status)) return undefined;
  const body = res.body ?? res.text ?? '';
  const lowered = (h: Record<string, unknown> | undefined) =>
    Object.fromEntries(Object.entries(h ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]));
  const headers = lowered(res.headers);
  if (!headers['content-type'] && typeof body !== 'string') headers['content-type'] = 'application/json';
  return {
    method: req.method,
    url: req.url,
    status,
    headers,
    text: typeof body === 'string' ? body : JSON.stringify(body),
    // A nested record's request headers (a flat record's headers are the answer's): their key is redacted too.
    ...(o.request && { requestHeaders: lowered(o.request.headers) }),
  };
}

export function readTraffic(file: string): { source: 'har' | 'jsonl'; exchanges: RecordedExchange[] } {
  const raw = readFileSync(file, 'utf8');
  let doc: unknown;
  try {
    doc = JSON.parse(raw);
  } catch {
    doc = undefined;
  }
  if (doc && typeof doc === 'object' && 'log' in (doc as object)) {
    const problems = validateHar(doc);
    if (problems.length) throw new Error(`${file} is not a valid HAR 1.2 file: ${problems.join('; ')}`);
    return { source: 'har', exchanges: (doc as Har).log.entries.map(fromHarEntry) };
  }
  const exchanges: RecordedExchange[] = [];
  raw.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let o: unknown;
    try {
      o = JSON.parse(line);
    } catch {
      throw new Error(`${file}:${i + 1}: neither a HAR file nor a JSON-lines log`);
    }
    const ex = fromLogLine(o);
    if (ex) exchanges.push(ex);
  });
  return { source: 'jsonl', exchanges };
}

/** The spec path of a recorded URL: the part after the base path (`/v1` or wherever the operations start). */
export function operationOf(spec: OpenApiDocument, method: string, url: string) {
  const segments = new URL(url, 'http://recorded.invalid').pathname.split('/');
  for (let i = 0; i < segments.length; i++) {
    const op = matchOperation(spec, method, '/' + segments.slice(i + 1).join('/'));
    if (op) return op;
  }
  return undefined;
}

export function checkTraffic(source: 'har' | 'jsonl', exchanges: RecordedExchange[]): TrafficReport {
  const contract = loadContract();
  // A recording may hold the key in its request headers: nothing printed from here may show it.
  for (const ex of exchanges) {
    const auth = ex.requestHeaders?.authorization;
    if (auth) registerSecret(auth.replace(/^Bearer\s+/i, ''));
  }
  const report: TrafficReport = { source, checked: [], ignored: [], interfaceProblems: 0, decisionProblems: 0 };
  exchanges.forEach((ex, index) => {
    const op = operationOf(contract.spec, ex.method, ex.url);
    // Printed as every URL is: user, password and every query value redacted (a key may ride in the query).
    const request = redact(`${ex.method} ${redactUrl(ex.url)}`);
    if (!op) {
      report.ignored.push(request);
      return;
    }
    const { problems } = responseProblems(contract, op.operationId, {
      status: ex.status,
      contentType: ex.headers['content-type'] ?? '',
      headers: new Headers(ex.headers),
      text: ex.text,
    });
    const redacted = problems.map((p) => ({ ...p, message: redact(p.message) }));
    for (const p of redacted) p.decision !== undefined ? report.decisionProblems++ : report.interfaceProblems++;
    report.checked.push({ index, request, operationId: op.operationId, status: ex.status, problems: redacted });
  });
  return report;
}

export function formatTraffic(r: TrafficReport, file: string): string {
  const lines = [
    `Recorded traffic ${file} (${r.source}): ${r.checked.length} exchanges checked offline, ${r.ignored.length} not operations of the spec, nothing sent`,
  ];
  for (const c of r.checked) {
    lines.push(
      `  ${c.problems.length ? 'FAIL' : 'pass'}  #${c.index + 1} ${c.request} → ${c.status} (${c.operationId})`,
    );
    for (const p of c.problems)
      lines.push(
        `        ${p.decision !== undefined ? `decision #${p.decision}` : 'interface'} ${p.kind}: ${p.message}`,
      );
  }
  lines.push(`Interface failures: ${r.interfaceProblems}; decision mismatches: ${r.decisionProblems}`);
  return redact(lines.join('\n')) + '\n';
}
