import type { ApiCall } from '@trainlab/contract';
import type { z } from 'zod';

/** Any call of the contract's table (`API.categoryList`): its path and its request and answer schemas. */
export type AnyCall = ApiCall<z.ZodType, z.ZodType>;
/**
 * A request schema's input with the fields whose input is `unknown` (preprocessed fields, such as
 * the list convention's `page` or a coerced id) made optional, as the server accepts them missing.
 */
type Loose<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T as unknown extends T[K] ? K : never]?: T[K] } & {
        [K in keyof T as unknown extends T[K] ? never : K]: T[K];
      }
    : T;
/** What a call takes: the input of its request schema (a wrong or missing field fails the typecheck). */
export type CallBody<C extends AnyCall> = Loose<z.input<C['request']>>;
/** What a call answers: the output of its response schema (types only, nothing is parsed at runtime). */
export type CallAnswer<C extends AnyCall> = z.output<C['response']>;
/** The body argument of a call: optional when its request has no required field. */
export type BodyArg<C extends AnyCall> =
  Record<never, never> extends CallBody<C> ? [body?: CallBody<C>] : [body: CallBody<C>];
/** The keys of the list convention that a paged query fills in from the URL. */
export type PagingKeys = 'page' | 'per_page' | 'search' | 'sort';
/** The body of a paged call without the paging keys. */
export type PagedBody<C extends AnyCall> = Omit<CallBody<C>, PagingKeys>;

/** The path a call is sent to and cached under (`category-list`). */
export const pathOf = (call: AnyCall | string): string => (typeof call === 'string' ? call : call.path);
