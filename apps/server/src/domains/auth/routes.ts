import { API } from '@trainlab/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps';
import { defineCall } from '../../platform/http/define-call';
import * as auth from './service';

export function authRoutes(app: FastifyInstance, deps: Deps): void {
  defineCall(app, deps, API.login, ({ body, request }) =>
    auth.login(deps, body, request.ip, (m) => request.log.warn(m)),
  );
  defineCall(app, deps, API.logout, ({ auth: session, request }) =>
    auth.logout(deps, session, (m) => request.log.warn(m)),
  );
  defineCall(app, deps, API.register, ({ body }) => auth.register(deps, body));
  defineCall(app, deps, API.currentToken, async ({ auth: session, body }) => auth.currentToken(session, body.email));
  defineCall(app, deps, API.forgotPassword, ({ body, request }) => auth.forgotPassword(deps, body.email, request.ip));
  defineCall(app, deps, API.resetPassword, ({ body }) => auth.resetPassword(deps, body));
  defineCall(app, deps, API.changePassword, ({ auth: session, body }) => auth.changePassword(deps, session, body));
}
