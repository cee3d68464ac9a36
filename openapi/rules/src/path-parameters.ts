// Path parameters as the document types them (PATH_PARAMETERS, generated from every operation), checked
// before a value goes into a path. Encoding alone is not enough: `.` and `..` survive encodeURIComponent
// and a URL parser resolves them, so `videos.get('.')` asked GET /videos/ and read the list as a status.
import { PATH_PARAMETERS } from './generated/constants.js';

/**
 * The document's `format: uuid`, written once: RFC 9562's 8-4-4-4-12 hexadecimal digits, in either case
 * (a service may answer upper case). Without ajv-formats' optional `urn:uuid:` prefix: a path segment or
 * a form field holds the bare id.
 */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The string formats the document's path parameters use: their pattern, and how a message names them. */
export const STRING_FORMATS: Readonly<Record<string, { pattern: RegExp; description: string }>> = {
  uuid: { pattern: UUID_PATTERN, description: 'a UUID (8-4-4-4-12 hexadecimal digits)' },
};

/**
 * Why `value` cannot be the path parameter `name` (a sentence naming both), or undefined when it can. A
 * name the document does not have is not judged.
 */
export function pathParameterProblem(name: string, value: unknown): string | undefined {
  const schema = (PATH_PARAMETERS as Readonly<Record<string, { type: string; format?: string }>>)[name];
  if (!schema) return undefined;
  const format = schema.format === undefined ? undefined : STRING_FORMATS[schema.format];
  const expected = format?.description ?? `a ${schema.type}`;
  if (typeof value !== 'string') return `${name} must be ${expected}, not ${value === null ? 'null' : typeof value}`;
  if (format && !format.pattern.test(value)) {
    const shown = value.length > 80 ? `${JSON.stringify(value.slice(0, 80))}…` : JSON.stringify(value);
    return `${name} must be ${expected}, not ${shown}`;
  }
  return undefined;
}
