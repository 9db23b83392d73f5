// Types only: the contract's table is read by the compiler, never bundled (its schemas would put zod
// into the first page, over its 150 KB budget, e2e/tests/first-page.spec.ts).
import type { ApiAnswer, ApiPath, ApiRequest, Paged } from '@trainlab/contract';

export type { ApiAnswer, ApiPath, ApiRequest };

/** Optional when the call has no required field, so `apiPost('logout')` needs no `{}`. */
type Optional<Body, Rest extends unknown[] = []> = Record<never, never> extends Body
  ? [body?: Body, ...rest: Rest]
  : [body: Body, ...rest: Rest];

/** The body argument of a call (a wrong, missing or unknown field fails the typecheck). */
export type BodyArg<P extends ApiPath> = Optional<ApiRequest<P>>;
/** A query's body and options, the body optional when the call has no required field. */
export type QueryArgs<P extends ApiPath, O> = Optional<ApiRequest<P>, [options?: O]>;

/** The calls of the list convention: those that answer a page of rows. */
export type PagedPath = { [P in ApiPath]: ApiAnswer<P> extends Paged<unknown> ? P : never }[ApiPath];
/** The keys of the list convention that a paged query fills in from the URL. */
export type PagingKeys = 'page' | 'per_page' | 'search' | 'sort';
/** A paged call's body without the paging keys, and the query's options. */
export type PagedArgs<P extends ApiPath, O> = Optional<Omit<ApiRequest<P>, PagingKeys>, [options?: O]>;

/** One row of a call that answers `{ list }`: `type Category = ListRow<'category-list'>`. */
export type ListRow<P extends ApiPath> = ApiAnswer<P> extends { list: readonly (infer Row)[] } ? Row : never;

/**
 * A multipart call's parts: the request's fields, each a text or a file (the call reads and checks
 * them itself), so an unknown part still fails the typecheck. One set per call of a union.
 */
export type UploadFields<P extends ApiPath> = P extends ApiPath ? { [K in keyof ApiRequest<P>]: string | Blob } : never;

/**
 * apiPost as it sends: for the generic helpers (use-api.ts, use-api-form.ts), whose own signatures
 * have already checked the body against the call.
 */
export type SendCall = (path: string, body?: unknown) => Promise<unknown>;
