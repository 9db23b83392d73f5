import { z } from 'zod';
import type { Role } from './roles.js';

/**
 * The permission table: every API call, who may make it, and its request and response schemas.
 * The server registers routes only from this table (a route without an entry cannot exist) and
 * the OpenAPI document is generated from it.
 *
 * - `public`: no token needed.
 * - `authenticated`: any signed-in account.
 * - a role list: a signed-in account holding one of these roles.
 */
export type ApiAccess = 'public' | 'authenticated' | readonly Role[];
export interface ApiCall<
  Req extends z.ZodType = z.ZodType,
  Res extends z.ZodType = z.ZodType,
  P extends string = string,
> {
  /** the literal path (`'category-list'`), so a client can look a call's types up by the path it sends */
  path: P;
  access: ApiAccess;
  summary: string;
  request: Req;
  response: Res;
  /** multipart/form-data instead of JSON */
  multipart?: boolean;
}

export const call = <P extends string, Req extends z.ZodType, Res extends z.ZodType>(
  path: P,
  access: ApiAccess,
  summary: string,
  request: Req,
  response: Res,
  extra: Pick<Partial<ApiCall>, 'multipart'> = {},
): ApiCall<Req, Res, P> => ({ path, access, summary, request, response, ...extra });

export const empty = z.object({});
