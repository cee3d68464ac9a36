// The named class: under nodenext the default import of this CommonJS module is its namespace, not the class.
import type { Ajv2020 as Ajv } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';

export type OpenApiDocument = Record<string, any> & { paths: Record<string, any>; components: Record<string, any> };
export interface Operation {
  operationId: string;
  method: string;
  path: string;
  operation: Record<string, any>;
  parameters: Array<Record<string, any>>;
}
export const specPath: string;
export const specYamlPath: string;
export const SPEC_ID: string;
export const HTTP_METHODS: string[];
export function loadSpec(): OpenApiDocument;
export function createAjv(spec?: OpenApiDocument, options?: Record<string, unknown>): Ajv;
export function validatorFor(ajv: Ajv, ref: string): ValidateFunction;
export function deref<T = any>(spec: OpenApiDocument, node: any): T;
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
  operation: Record<string, any>,
  status: number,
): { key: string; response: Record<string, any> } | undefined;
export function checkResponse(
  ajv: Ajv,
  spec: OpenApiDocument,
  operation: Record<string, any>,
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
