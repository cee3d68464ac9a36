// @videogen/openapi/types: the document's types, generated once (src/generated/openapi.ts) and read by
// every package. `paths`, `operations` and `components` are openapi-typescript's; `routes` and the
// helpers below key them by operationId, the way openapi-fetch and openapi-msw key theirs by path:
// `PathParams<'getVideo'>` is `{ video_id: string }`, `SuccessBody<'getVideo'>` the status view.
import type { components, operations, routes } from './generated/openapi.js';

export type { components, operations, paths, routes } from './generated/openapi.js';

/** Every operation of the document, by its operationId. */
export type OperationId = keyof operations & keyof routes;
export type Schemas = components['schemas'];

/** The operation's HTTP method, lower case as in `paths` (`'get'`). */
export type MethodOf<Id extends OperationId> = routes[Id]['method'];
/** The operation's path template, relative to the base URL (`'/videos/{video_id}/'`). */
export type PathOf<Id extends OperationId> = routes[Id]['path'];
/** The operation served by a method (lower case) and a path template, or never. */
export type OperationIdOf<M extends string, P extends string> = {
  [Id in OperationId]: routes[Id] extends { method: M; path: P } ? Id : never;
}[OperationId];

/** `never` (nothing of the kind) as an empty object, so that `{ ...params }` and `keyof` stay usable. */
type Present<T> = [T] extends [never] ? Record<never, never> : T;

/** The operation's path parameters (`{}` when it has none). */
export type PathParams<Id extends OperationId> = Present<NonNullable<operations[Id]['parameters']['path']>>;
/** The operation's query parameters as a caller sends them (`{}` when it has none). */
export type QueryParams<Id extends OperationId> = Present<NonNullable<operations[Id]['parameters']['query']>>;
/**
 * The query parameters as a server reads them once the document's defaults are filled in: the ones
 * with a default (`routes[Id]['defaulted']`) are always there.
 */
export type FilledQueryParams<Id extends OperationId> = Omit<QueryParams<Id>, routes[Id]['defaulted']> &
  Required<Pick<QueryParams<Id>, routes[Id]['defaulted'] & keyof QueryParams<Id>>>;

type BodyContent<Id extends OperationId> =
  NonNullable<operations[Id]['requestBody']> extends { content: infer C } ? C : never;
/** The media types of the operation's request body (`'application/json'`, `'multipart/form-data'`), or never. */
export type RequestContentType<Id extends OperationId> = keyof BodyContent<Id> & string;
/** The operation's request body, for one of its media types (all of them by default), or never. */
export type RequestBody<
  Id extends OperationId,
  Type extends RequestContentType<Id> = RequestContentType<Id>,
> = BodyContent<Id>[Type];
/** The operation's JSON request body, or never when its body is not JSON. */
export type JsonRequestBody<Id extends OperationId> =
  BodyContent<Id> extends { 'application/json': infer B } ? B : never;
/** The operations whose request body is JSON. */
export type JsonOperationId = {
  [Id in OperationId]: 'application/json' extends RequestContentType<Id> ? Id : never;
}[OperationId];

/**
 * A body as it arrives from someone else (a request at a server, an answer under test): the names the
 * document gives it, every value still to be checked.
 */
export type Untrusted<T> = { [K in keyof T]?: unknown };

/** The operation's declared responses, by status (`200`, `404`, `'5XX'`). */
export type Responses<Id extends OperationId> = operations[Id]['responses'];
export type ResponseStatus<Id extends OperationId> = keyof Responses<Id>;
/** The statuses of success (2xx, `'2XX'`) the operation declares. */
export type SuccessStatus<Id extends OperationId> = {
  [S in ResponseStatus<Id>]: `${S & (string | number)}` extends `2${string}` ? S : never;
}[ResponseStatus<Id>];
/** The statuses of failure the operation declares (`400`, `'5XX'` …). */
export type ErrorStatus<Id extends OperationId> = Exclude<ResponseStatus<Id>, SuccessStatus<Id>>;

type ContentOf<R> = R extends { content: infer C } ? C[keyof C] : never;
/** The body of one declared response of the operation (any media type it declares). */
export type ResponseBody<Id extends OperationId, S extends ResponseStatus<Id> = ResponseStatus<Id>> = ContentOf<
  Responses<Id>[S]
>;
/** The body of the operation's success. */
export type SuccessBody<Id extends OperationId> = ResponseBody<Id, SuccessStatus<Id>>;
/** The body of one of the operation's failures (the error envelope of 7.1, with the codes of that status). */
export type ErrorResponseBody<Id extends OperationId, S extends ErrorStatus<Id> = ErrorStatus<Id>> = ResponseBody<
  Id,
  S
>;
