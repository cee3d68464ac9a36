// An answer's body as the suite reads it: named as the document names it (a field renamed in the
// document does not compile here), every value still to check, since the target is what is under test.
import type { OperationId, SuccessBody, Untrusted } from '@videogen/openapi/types';
import type { Exchange } from '../shapes.ts';

/** The success body of an operation as a check reads it: the document's names, each value unknown. */
export type Answered<Id extends OperationId> = Untrusted<SuccessBody<Id>>;

/** The body of a 2xx answer when it is a JSON object, else undefined (not a success, or not an object). */
export function successBody<Id extends OperationId>(ex: Exchange<Id> | undefined): Answered<Id> | undefined {
  if (!ex || ex.status < 200 || ex.status >= 300) return undefined;
  const body = ex.body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Answered<Id>) : undefined;
}

/** The objects of a value expected to be a list of `T` (a page's results), each named as `T`; [] when it is none. */
export function itemsOf<T>(value: unknown): Untrusted<T>[] {
  return Array.isArray(value) ? value.filter((v): v is Untrusted<T> => Boolean(v) && typeof v === 'object') : [];
}

/** The strings of a value expected to be a list of strings (request_fields, available_languages); [] when none. */
export function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
