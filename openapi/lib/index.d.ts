import type Ajv from 'ajv/dist/2020.js';
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
): string[];

export interface Finding {
  kind: 'status' | 'content-type' | 'body' | 'header';
  message: string;
  /** DECISIONS.md entries: the finding breaks only this document's choice (an x-decision on the failing node). */
  decision?: number[];
  /** For a status finding under a decision: the status the document chose. */
  expected?: string;
  /** For a body finding: the JSON pointer of the value, and the failing keyword. */
  pointer?: string;
  keyword?: string;
  /** For a header finding: the header's name. */
  header?: string;
}
export function decisionsOf(node: unknown): number[] | undefined;
export function decidedSibling(
  spec: OpenApiDocument,
  operation: Record<string, any>,
  status: number,
): { key: string; response: Record<string, any>; decisions: number[] } | undefined;
export function responseFindings(
  ajv: Ajv,
  spec: OpenApiDocument,
  operation: Record<string, any>,
  response: Parameters<typeof checkResponse>[3],
): Finding[];
