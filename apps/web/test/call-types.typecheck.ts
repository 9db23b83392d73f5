/**
 * Typecheck-only proof of the call types (run by `tsc -p apps/web`, not by vitest): a body is checked
 * against the call's request schema and an answer against its response schema, so a wrong field fails
 * the typecheck. Every `@ts-expect-error` below must stay an error, or the typecheck fails.
 */
import type { API } from '@trainlab/contract';
import type { CallAnswer, CallBody } from '../src/api/call-types';

type Create = typeof API.createCategory;
type List = typeof API.categoryList;

export const right: CallBody<Create> = { name: 'Cloud' };
// @ts-expect-error a field the request schema does not have
export const unknownField: CallBody<Create> = { title: 'Cloud' };
// @ts-expect-error a required field missing
export const missing: CallBody<Create> = {};
// @ts-expect-error a field of the wrong type
export const wrongType: CallBody<Create> = { name: 42 };

export const answerField = (a: CallAnswer<List>): string | undefined => a.list[0]?.name;
// @ts-expect-error an answer field the response schema does not have
export const renamed = (a: CallAnswer<List>) => a.list[0]?.title;
// @ts-expect-error an answer field read with the wrong type
export const wrongAnswer = (a: CallAnswer<Create>): number => a.message;
