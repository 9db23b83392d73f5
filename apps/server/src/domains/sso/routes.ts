import { API } from '@trainlab/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { users } from '../../db/schema';
import { audited } from '../../platform/audit';
import type { Deps } from '../../platform/deps';
import { defineCall } from '../../platform/http/define-call';
import { revokeSessions } from '../auth/sessions';
import { completePage } from './endpoints';
import { oidcAnswer } from './oidc';
import { samlAnswer, samlFor, samlMetadata, samlPostedLogoutResponse } from './saml';
import { getSsoSettings, saveSsoSettings } from './settings';
import { completeSignIn, exchangeCode, SsoError, type SsoTarget, targetForSlug } from './sign-in';

export function ssoRoutes(app: FastifyInstance, deps: Deps): void {
  defineCall(app, deps, API.ssoSettings, ({ auth, body }) => getSsoSettings(deps, auth, body.organization_id));
  defineCall(
    app,
    deps,
    API.saveSsoSettings,
    audited(API.saveSsoSettings, { type: 'sso_settings', key: 'organization_id' }, ({ auth, body }) =>
      saveSsoSettings(deps, auth, body),
    ),
  );
  defineCall(app, deps, API.ssoExchange, ({ body }) => exchangeCode(deps, body.code));
  app.register(async (scope) => ssoBrowserRoutes(scope, deps));
}

type Params = { Params: { slug: string } };

/**
 * The identity provider's answers arrive here as browser navigations (outside /api): each ends on
 * the web page /sso/complete with a one-time code or an error reason, never with an error status.
 */
async function ssoBrowserRoutes(app: FastifyInstance, deps: Deps) {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  const fail = (request: FastifyRequest, reply: FastifyReply, e: unknown) => {
    const err = e instanceof SsoError ? e : new SsoError('invalid_answer', (e as Error)?.message ?? String(e));
    request.log.warn({ sso: err.reason }, `single sign-on refused: ${err.detail}`);
    return reply.redirect(completePage(deps, { error: err.reason }), 303);
  };
  const target = async (slug: string): Promise<SsoTarget> => {
    const t = await targetForSlug(deps, slug);
    if (!t) throw new SsoError('unknown_domain', `no single sign-on for organization ${slug}`);
    return t;
  };

  app.get<Params>('/sso/saml/:slug/metadata', async (request, reply) => {
    try {
      const t = await target(request.params.slug);
      return reply.type('application/samlmetadata+xml; charset=utf-8').send(samlMetadata(deps, t));
    } catch {
      return reply.status(404).type('text/plain; charset=utf-8').send('No single sign-on is configured here.');
    }
  });

  app.post<Params & { Body: Record<string, string> }>('/sso/saml/:slug/acs', async (request, reply) => {
    try {
      const t = await target(request.params.slug);
      if (t.row.protocol !== 'saml') throw new SsoError('misconfigured', `organization ${t.org.id} does not use SAML`);
      const { identity, isPrevious } = await samlAnswer(deps, t, request.body ?? {});
      const code = await completeSignIn(deps, t, identity, isPrevious);
      request.log.info({ sso: 'saml' }, `single sign-on of organization ${t.org.id}`);
      return reply.redirect(completePage(deps, { code }), 303);
    } catch (e) {
      return fail(request, reply, e);
    }
  });

  app.get<Params & { Querystring: Record<string, string> }>('/sso/oidc/:slug/callback', async (request, reply) => {
    try {
      const t = await target(request.params.slug);
      if (t.row.protocol !== 'oidc') throw new SsoError('misconfigured', `organization ${t.org.id} does not use OIDC`);
      const { identity, isPrevious } = await oidcAnswer(deps, t, request.query ?? {});
      const code = await completeSignIn(deps, t, identity, isPrevious);
      request.log.info({ sso: 'oidc' }, `single sign-on of organization ${t.org.id}`);
      return reply.redirect(completePage(deps, { code }), 303);
    } catch (e) {
      return fail(request, reply, e);
    }
  });

  /** Single logout started by the identity provider (HTTP-Redirect or HTTP-POST binding). */
  const slo = async (request: FastifyRequest<Params>, reply: FastifyReply) => {
    try {
      const t = await target(request.params.slug);
      const saml = samlFor(deps, t);
      const query = request.query as Record<string, string>;
      const body = (request.body ?? {}) as Record<string, string>;
      const result =
        request.method === 'GET'
          ? await saml.validateRedirectAsync(query, request.url.split('?')[1] ?? '')
          : body.SAMLRequest
            ? await saml.validatePostRequestAsync(body)
            : await samlPostedLogoutResponse(deps, t, body);
      const person = result.profile?.nameID;
      if (result.profile && person) {
        const [user] = await deps.db
          .select({ id: users.id })
          .from(users)
          .where(and(sql`lower(${users.email}) = ${person.toLowerCase()}`, eq(users.organization_id, t.org.id)));
        if (user) await revokeSessions(deps.db, user.id);
        request.log.info({ sso: 'slo' }, `single logout of an account of organization ${t.org.id}`);
        const relay = query.RelayState ?? body.RelayState ?? '';
        return reply.redirect(await saml.getLogoutResponseUrlAsync(result.profile, relay, {}, true), 303);
      }
      return reply.redirect(`${deps.config.PUBLIC_URL}/login`, 303);
    } catch (e) {
      return fail(request, reply, e);
    }
  };
  app.get<Params>('/sso/saml/:slug/slo', slo);
  app.post<Params>('/sso/saml/:slug/slo', slo);
}
