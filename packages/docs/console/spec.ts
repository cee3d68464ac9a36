// The OpenAPI document embedded in the page (the bundled one, `#vg-openapi-source`), read as the console
// needs it: each operation with its parameters, its body and its examples. Nothing here restates the
// document: every name, value and example comes from it. Its types are @videogen/openapi's (types only:
// nothing of that Node package is bundled into the page).
import type {
  OpenApiDocument,
  OperationObject,
  ParameterObject,
  PathItemObject,
  RequestBodyObject,
  SchemaObject,
} from '@videogen/openapi';

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description: string;
  schema: SchemaObject;
  example?: unknown;
}

export interface Operation {
  operationId: string;
  method: 'GET' | 'POST';
  path: string;
  summary: string;
  parameters: Parameter[];
  /** The request body's media type, when the operation takes one. */
  body?: 'multipart/form-data' | 'application/json';
  /** The body's schema (refs resolved at the top level). */
  bodySchema?: SchemaObject;
  /** Named request examples of a JSON body (`examples` of the media type). */
  bodyExamples: { name: string; summary: string; value: unknown }[];
}

/** The bundled document of the page: the same JSON the "Download OpenAPI" link hands over. */
export function readDocument(doc: Document = document): OpenApiDocument {
  const source = doc.getElementById('vg-openapi-source');
  if (!source?.textContent) throw new Error('the page has no embedded OpenAPI document (#vg-openapi-source)');
  return JSON.parse(source.textContent);
}

/** A member of a JSON value, when it is an object. */
const member = (at: unknown, key: string): unknown =>
  at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined;

/** Follows a local `$ref` (`#/components/...`) until a node without one: the node as `T` says it is there. */
export function resolve<T = SchemaObject>(spec: OpenApiDocument, node: unknown): T | undefined {
  let current = node;
  for (let depth = 0; depth < 20; depth++) {
    const ref = member(current, '$ref');
    if (typeof ref !== 'string') break;
    const path = ref.replace(/^#\//, '').split('/');
    current = path.reduce<unknown>((at, key) => member(at, key.replace(/~1/g, '/').replace(/~0/g, '~')), spec);
  }
  return current as T | undefined;
}

const METHODS = ['get', 'post'] as const;

/** Every operation of the document, in document order. */
export function operationsOf(spec: OpenApiDocument): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<PathItemObject>(spec.paths ?? {})) {
    for (const method of METHODS) {
      const op: OperationObject | undefined = item[method];
      if (!op) continue;
      const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])]
        .map((p) => resolve<ParameterObject>(spec, p))
        .filter((p): p is ParameterObject & { in: 'path' | 'query' } => p?.in === 'path' || p?.in === 'query')
        .map((p) => ({
          name: p.name,
          in: p.in,
          required: p.required === true,
          description: p.description ?? '',
          schema: resolve(spec, p.schema) ?? {},
          example: p.example,
        }));
      const content = resolve<RequestBodyObject>(spec, op.requestBody)?.content ?? {};
      const body = content['multipart/form-data']
        ? 'multipart/form-data'
        : content['application/json']
          ? 'application/json'
          : undefined;
      const media = body ? content[body] : undefined;
      ops.push({
        operationId: op.operationId,
        method: method.toUpperCase() as Operation['method'],
        path,
        summary: op.summary ?? op.operationId,
        parameters,
        body,
        bodySchema: media ? resolve(spec, media.schema) : undefined,
        bodyExamples: Object.entries(media?.examples ?? {}).map(([name, ex]) => {
          const example = resolve<{ summary?: string; value?: unknown }>(spec, ex);
          return { name, summary: example?.summary ?? name, value: example?.value };
        }),
      });
    }
  }
  return ops;
}

/** The enum of a schema (through `$ref`), or undefined. */
export function enumOf(spec: OpenApiDocument, schema: unknown): string[] | undefined {
  const s = resolve(spec, schema);
  return Array.isArray(s?.enum) ? s.enum.filter((v): v is string => typeof v === 'string') : undefined;
}

/** The words the document gives each error code (`x-enumDescriptions` of `ErrorCode`). */
export function errorCodeDescriptions(spec: OpenApiDocument): Record<string, string> {
  return (spec.components?.schemas?.ErrorCode?.['x-enumDescriptions'] as Record<string, string> | undefined) ?? {};
}
