// The named class: under nodenext the default import of this CommonJS module is its namespace, not the class.
import type { Ajv2020 as Ajv } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';

// The document as JSON read at run time: the keywords code reads by name are typed, any other member
// (and a vendor extension no code reads) is `unknown`. Its full shape is the OpenAPI 3.1 schema, which
// the package's own tests check; the operations' types are @videogen/openapi/types.

/** A JSON Schema of the document (2020-12, as OpenAPI 3.1 has it), or a `$ref` to one. */
export interface SchemaObject {
  $ref?: string;
  type?: string | string[];
  format?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  items?: SchemaObject;
  allOf?: SchemaObject[];
  anyOf?: SchemaObject[];
  oneOf?: SchemaObject[];
  not?: SchemaObject;
  examples?: unknown[];
  'x-decision'?: number | number[];
  [keyword: string]: unknown;
}
export interface ParameterObject {
  $ref?: string;
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: SchemaObject;
  example?: unknown;
  [keyword: string]: unknown;
}
export interface MediaTypeObject {
  schema?: SchemaObject;
  example?: unknown;
  examples?: Record<string, { summary?: string; value?: unknown; $ref?: string; [keyword: string]: unknown }>;
  encoding?: Record<string, { contentType?: string; [keyword: string]: unknown }>;
  [keyword: string]: unknown;
}
export interface HeaderObject {
  $ref?: string;
  description?: string;
  required?: boolean;
  schema?: SchemaObject;
  [keyword: string]: unknown;
}
export interface LinkObject {
  operationId?: string;
  parameters?: Record<string, unknown>;
  description?: string;
  [keyword: string]: unknown;
}
export interface ResponseObject {
  $ref?: string;
  description?: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, MediaTypeObject>;
  links?: Record<string, LinkObject>;
  'x-decision'?: number | number[];
  [keyword: string]: unknown;
}
export interface RequestBodyObject {
  $ref?: string;
  required?: boolean;
  description?: string;
  content?: Record<string, MediaTypeObject>;
  [keyword: string]: unknown;
}
/** `x-rate-limit` of an operation: its class of 8.1 and that class's limit. */
export interface RateLimitExtension {
  class: 'A' | 'B';
  requests: number;
  window_seconds: number;
}
export interface OperationObject {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: ParameterObject[];
  requestBody?: RequestBodyObject;
  responses: Record<string, ResponseObject>;
  'x-rate-limit'?: RateLimitExtension;
  /** Present on the operations that start a video (8.2). */
  'x-concurrency-limit'?: { max_running: number; [keyword: string]: unknown };
  'x-decision'?: number | number[];
  /** Code samples (Redoc's extension), which the docs' copy of the document adds to each operation. */
  'x-codeSamples'?: Array<{ lang: string; label?: string; source: string }>;
  [keyword: string]: unknown;
}
export interface PathItemObject {
  parameters?: ParameterObject[];
  get?: OperationObject;
  put?: OperationObject;
  post?: OperationObject;
  delete?: OperationObject;
  options?: OperationObject;
  head?: OperationObject;
  patch?: OperationObject;
  trace?: OperationObject;
  [keyword: string]: unknown;
}
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [keyword: string]: unknown };
  servers?: Array<{ url: string; description?: string; [keyword: string]: unknown }>;
  paths: Record<string, PathItemObject>;
  components: {
    schemas: Record<string, SchemaObject>;
    responses?: Record<string, ResponseObject>;
    parameters?: Record<string, ParameterObject>;
    headers?: Record<string, HeaderObject>;
    requestBodies?: Record<string, RequestBodyObject>;
    [keyword: string]: unknown;
  };
  tags?: Array<{ name: string; description?: string; [keyword: string]: unknown }>;
  [keyword: string]: unknown;
}
export interface Operation {
  operationId: string;
  method: string;
  path: string;
  operation: OperationObject;
  /** The path item's and the operation's parameters, dereferenced. */
  parameters: ParameterObject[];
}
export const specPath: string;
export const specYamlPath: string;
export const SPEC_ID: string;
export const HTTP_METHODS: string[];
export function loadSpec(): OpenApiDocument;
export function createAjv(spec?: OpenApiDocument, options?: Record<string, unknown>): Ajv;
export function validatorFor(ajv: Ajv, ref: string): ValidateFunction;
/** The node a local `$ref` points at (followed until it is no reference), or the node itself. */
export function deref<T = SchemaObject>(spec: OpenApiDocument, node: unknown): T;
export function listOperations(spec?: OpenApiDocument): Operation[];
/**
 * The parameters an OpenAPI link passes to its operation, read from the exchange it sits on
 * (`$response.body#/pointer` and `$request.path.name` resolved; other values as they are).
 */
export function linkParameters(
  link: { parameters?: Record<string, unknown> },
  exchange: { body: unknown; pathParams?: Record<string, string> },
): Record<string, unknown>;
export function matchOperation(
  spec: OpenApiDocument,
  method: string,
  requestPath: string,
): (Operation & { pathParams: Record<string, string> }) | undefined;
export function declaredResponse(
  spec: OpenApiDocument,
  operation: OperationObject,
  status: number,
): { key: string; response: ResponseObject } | undefined;
export function checkResponse(
  ajv: Ajv,
  spec: OpenApiDocument,
  operation: OperationObject,
  response: {
    status: number;
    contentType?: string | null;
    body: unknown;
    /** Response headers (a fetch `Headers`, or an object of lower-case names); declared ones are validated. */
    headers?: { get(name: string): string | null } | Record<string, string | number | string[] | undefined>;
  },
  options?: { expectedStatus?: number },
): ResponseFinding[];
/** What part of a response a finding is about. */
export type FindingKind = 'status' | 'content-type' | 'body' | 'header';
/**
 * One way a response departs from the document. `decision` (with every entry of the element in
 * `decisions`) is set when the failing element carries `x-decision`: it breaks our choice, not the interface.
 */
export interface ResponseFinding {
  kind: FindingKind;
  message: string;
  /** JSON pointer into the body (kind 'body'), or the header name (kind 'header'). */
  pointer?: string;
  decision?: number;
  decisions?: number[];
}
/** The decision numbers an element carries (`x-decision`), or undefined for an interface statement. */
export function decisionsOf(node: unknown): number[] | undefined;
/**
 * The `error_code` values a body schema states: the narrowest statement through `$ref` and `allOf`.
 * Closed by default (an `enum` or `const`); with `open`, also the known codes of `Code | string`.
 */
export function errorCodesOf(
  spec: OpenApiDocument,
  schema: unknown,
  options?: { open?: boolean },
): string[] | undefined;
/** The decisions behind the document's own error codes (`x-enumDecisions`, code → decisions), wherever it keeps them. */
export function enumDecisionsOf(spec: OpenApiDocument): Record<string, number[]>;
