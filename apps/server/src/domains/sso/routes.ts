import { API } from '@trainlab/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { users } from '../../db/schema';
import { audited } from '../../platform/audit';
import type { Deps } from '../../platform/deps';
import { defineCall } from '../../platform/http/define-call';
import { revokeSessions } from '../auth/sessions';
import { checkSsoDomain, verifySsoDomain } from './domain-proof';
import { completePage } from './endpoints';
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
  defineCall(
    app,
    deps,
    API.checkSsoDomain,
    audited(API.checkSsoDomain, { type: 'sso_domain', key: 'domain' }, ({ auth, body }) =>
      checkSsoDomain(deps, auth, body),
    ),
  );
  defineCall(
    app,
    deps,
    API.verifySsoDomain,
    audited(API.verifySsoDomain, { type: 'sso_domain', key: 'domain' }, ({ auth, body }) =>
      verifySsoDomain(deps, auth, body),
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
    if (!(e instanceof SsoError)) {
      // not a verdict on the answer (those are SsoErrors) but the server's own failure: a library
      // that did not load, a key that does not decrypt, the database. Logged as an error with its cause.
      request.log.error({ err: e, sso: 'misconfigured' }, `single sign-on failed: ${(e as Error)?.message ?? e}`);
      return reply.redirect(completePage(deps, { error: 'misconfigured' }), 303);
    }
    request.log.warn({ sso: e.reason }, `single sign-on refused: ${e.detail}`);
    return reply.redirect(completePage(deps, { error: e.reason }), 303);
  };
  // the SAML and OIDC libraries load with an organization's first sign-in, not at start
  const saml = () => import('./saml');
  const oidc = () => import('./oidc');
  const target = async (slug: string): Promise<SsoTarget> => {
    const t = await targetForSlug(deps, slug);
    if (!t) throw new SsoError('unknown_domain', `no single sign-on for organization ${slug}`);
    return t;
  };
  /** An answer signs in only while single sign-on is on: switching it off stops answers in flight too. */
  const signInTarget = async (slug: string): Promise<SsoTarget> => {
    const t = await target(slug);
    if (t.row.enabled !== 1) throw new SsoError('unknown_domain', `single sign-on of organization ${t.org.id} is off`);
    return t;
  };

  app.get<Params>('/sso/saml/:slug/metadata', async (request, reply) => {
    const t = await targetForSlug(deps, request.params.slug);
    // only "no such organization, or no single sign-on settings" is a 404: any other failure (the
    // SAML library not loading, a key that does not decrypt) is the server's, said in the log
    if (!t) return reply.status(404).type('text/plain; charset=utf-8').send('No single sign-on is configured here.');
    try {
      return reply.type('application/samlmetadata+xml; charset=utf-8').send((await saml()).samlMetadata(deps, t));
    } catch (e) {
      request.log.error(
        { err: e },
        `SAML metadata of organization ${t.org.id} could not be made: ${(e as Error)?.message}`,
      );
      return reply
        .status(500)
        .type('text/plain; charset=utf-8')
        .send("The single sign-on metadata could not be made. The server's log says why.");
    }
  });

  app.post<Params & { Body: Record<string, string> }>('/sso/saml/:slug/acs', async (request, reply) => {
    try {
      const t = await signInTarget(request.params.slug);
      if (t.row.protocol !== 'saml') throw new SsoError('misconfigured', `organization ${t.org.id} does not use SAML`);
      const { identity, isPrevious } = await (await saml()).samlAnswer(deps, t, request.body ?? {});
      const code = await completeSignIn(deps, t, identity, isPrevious);
      request.log.info({ sso: 'saml' }, `single sign-on of organization ${t.org.id}`);
      return reply.redirect(completePage(deps, { code }), 303);
    } catch (e) {
      return fail(request, reply, e);
    }
  });

  app.get<Params & { Querystring: Record<string, string> }>('/sso/oidc/:slug/callback', async (request, reply) => {
    try {
      const t = await signInTarget(request.params.slug);
      if (t.row.protocol !== 'oidc') throw new SsoError('misconfigured', `organization ${t.org.id} does not use OIDC`);
      const { identity, isPrevious } = await (await oidc()).oidcAnswer(deps, t, request.query ?? {});
      const code = await completeSignIn(deps, t, identity, isPrevious);
      request.log.info({ sso: 'oidc' }, `single sign-on of organization ${t.org.id}`);
      return reply.redirect(completePage(deps, { code }), 303);
    } catch (e) {
      return fail(request, reply, e);
    }
  });

  /**
   * Single logout on either binding: the IdP's LogoutRequest (ends the person's sessions here) or its
   * LogoutResponse to ours. Every message is verified first (samlLogoutMessage): signature, Destination,
   * issuer, freshness, once only.
   */
  const slo = async (request: FastifyRequest<Params>, reply: FastifyReply) => {
    try {
      const t = await target(request.params.slug);
      const lib = await saml();
      const query = (request.query ?? {}) as Record<string, string>;
      const body = (request.body ?? {}) as Record<string, string>;
      const message = await lib.samlLogoutMessage(deps, t, {
        method: request.method,
        query,
        rawQuery: request.url.split('?')[1] ?? '',
        body,
      });
      if (message.kind === 'request') {
        const person = message.profile.nameID;
        const [user] = await deps.db
          .select({ id: users.id })
          .from(users)
          .where(and(sql`lower(${users.email}) = ${person.toLowerCase()}`, eq(users.organization_id, t.org.id)));
        if (user) await revokeSessions(deps.db, user.id);
        request.log.info({ sso: 'slo' }, `single logout of an account of organization ${t.org.id}`);
        const relay = query.RelayState ?? body.RelayState ?? '';
        return reply.redirect(
          await lib.samlFor(deps, t).getLogoutResponseUrlAsync(message.profile, relay, {}, true),
          303,
        );
      }
      return reply.redirect(`${deps.config.PUBLIC_URL}/login`, 303);
    } catch (e) {
      return fail(request, reply, e);
    }
  };
  app.get<Params>('/sso/saml/:slug/slo', slo);
  app.post<Params>('/sso/saml/:slug/slo', slo);
}
