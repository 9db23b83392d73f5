import { type ApiCall, MSG, mayCall, nulCharacterErrors, toFieldErrors } from '@trainlab/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Deps } from '../deps';
import { AppError, forbidden, sendRefusal, unauthenticated } from '../errors';
import { type AuthContext, bearerToken, resolveSession } from './auth-context';

export interface CallContext<Body, Auth> {
  body: Body;
  auth: Auth;
  request: FastifyRequest;
  reply: FastifyReply;
  deps: Deps;
}

type AuthOf<C extends ApiCall> = C['access'] extends 'public' ? AuthContext | null : AuthContext;

/**
 * A read whose answer may be kept (decision 0050): the tables it reads (any write to one of them, or
 * to a table whose rows cascade into them, ends the kept answer) and, when its answer turns wrong by
 * the clock alone, when that is. The answer is kept per caller and per validated request.
 */
export interface CacheRule<Result> {
  tables: readonly string[];
  until?: (result: Result) => number | undefined;
}

/** Everything of the caller that decides what a read may see: who, which roles, which tenant. */
const callerKey = (auth: AuthContext | null): string =>
  auth
    ? [
        auth.user.id,
        auth.user.roles.join(','),
        auth.user.organization_id,
        auth.user.provider_id,
        auth.user.lob_id,
      ].join('|')
    : 'anonymous';

const OTHER_METHODS = ['GET', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * The only way to add an API route: it comes from the contract's permission table, so its access
 * rule, request schema and OpenAPI entry cannot be forgotten. Order of checks: who is calling (401),
 * may they (403), is the input valid (422), then the use case.
 */
export function defineCall<C extends ApiCall, Result = unknown>(
  app: FastifyInstance,
  deps: Deps,
  call: C,
  handler: (ctx: CallContext<z.output<C['request']>, AuthOf<C>>) => Promise<Result>,
  opts: { cache?: CacheRule<Result> } = {},
): void {
  const url = `/api/${call.path}`;
  app.post(url, { config: { apiCall: call } }, async (request, reply) => {
    const token = bearerToken(request);
    const auth = token ? await resolveSession(deps, token) : null;
    if (call.access !== 'public') {
      if (!auth) throw unauthenticated();
      if (!mayCall(call.access, auth.user.roles)) throw forbidden();
    }
    const input = request.body ?? {};
    const nul = nulCharacterErrors(input);
    if (nul) throw new AppError(422, MSG.givenDataInvalid, nul);
    const parsed = call.request.safeParse(input);
    if (!parsed.success) {
      const fields = toFieldErrors(parsed.error.issues, input);
      throw new AppError(422, MSG.givenDataInvalid, fields);
    }
    const body = parsed.data as z.output<C['request']>;
    const cache = opts.cache;
    if (cache) {
      const key = `${call.path}\n${callerKey(auth)}\n${JSON.stringify(body)}`;
      const json = await deps.answers.answer(key, cache.tables, async () => {
        const result = await handler({ body, auth: auth as AuthOf<C>, request, reply, deps });
        return { body: result, until: cache.until?.(result) };
      });
      return reply.type('application/json; charset=utf-8').send(json);
    }
    const result = await handler({ body, auth: auth as AuthOf<C>, request, reply, deps });
    // A bare string (e.g. /current-token) is still JSON on the wire, not text/plain.
    if (typeof result === 'string') return reply.type('application/json; charset=utf-8').send(JSON.stringify(result));
    return reply.send(result);
  });
  app.route({
    method: [...OTHER_METHODS],
    url,
    handler: async (_request, reply) => sendRefusal(reply, 405, MSG.methodNotAllowed),
  });
}
