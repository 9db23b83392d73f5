/**
 * Types only (nothing here exists at run time): a call's request and answer looked up by the path a
 * client sends, so a client typed with them needs the table's types but none of its schemas. The web
 * app imports these with `import type`, keeping zod and the schemas out of its first page.
 */
import type { z } from 'zod';
import type { API } from './api.js';

type Table = typeof API;
/** Every call of the table under its path (each `call(...)` keeps its path's literal type). */
type CallsByPath = { [K in keyof Table as Table[K]['path']]: Table[K] };

/** The path of any call of the table: `'category-list' | 'create-category' | ...`. */
export type ApiPath = keyof CallsByPath;

/**
 * A field the server accepts missing: optional on input, or preprocessed (`z.preprocess(blank, ...)`,
 * as in the list convention's `page`) into a schema that is, or such a field transformed after. zod
 * types a preprocessed field's input as a required `unknown`, which would make every paged call
 * demand `page`, `per_page`, `search` and `sort`. A preprocess that supplies its own default
 * (`blank(v) ?? 0`) is not seen through: such a field reads as required.
 */
type MayBeMissing<F> = F extends { _zod: { optin: 'optional' } }
  ? true
  : F extends z.ZodPipe<infer In, infer Out>
    ? In extends z.ZodTransform
      ? MayBeMissing<Out>
      : MayBeMissing<In>
    : false;
/** An object's input; with no fields, one that takes none (`{}` alone would take any object). */
type ObjectInput<Shape> = keyof Shape extends never
  ? Record<string, never>
  : {
      [K in keyof Shape as MayBeMissing<Shape[K]> extends true ? never : K]: z.input<Shape[K]>;
    } & { [K in keyof Shape as MayBeMissing<Shape[K]> extends true ? K : never]?: z.input<Shape[K]> };
/** The input of a request schema: an object's fields (through its refinements and transforms), else zod's input. */
type RequestInput<S> =
  S extends z.ZodObject<infer Shape>
    ? ObjectInput<Shape>
    : S extends z.ZodPipe<infer In, z.ZodType>
      ? In extends z.ZodTransform
        ? z.input<S>
        : RequestInput<In>
      : z.input<S>;

/** What a call takes: the input of its request schema (a missing, unknown or mistyped field is an error). */
export type ApiRequest<P extends ApiPath> = RequestInput<CallsByPath[P]['request']>;
/** What a call answers: the output of its response schema (the answer the contract declares). */
export type ApiAnswer<P extends ApiPath> = z.output<CallsByPath[P]['response']>;
