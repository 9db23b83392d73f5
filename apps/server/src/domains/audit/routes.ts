import { API } from '@trainlab/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps';
import { defineCall } from '../../platform/http/define-call';
import { auditCsv, auditPage } from './trail';

/** The audit trail is read here only: no call updates or deletes a row. */
export function auditRoutes(app: FastifyInstance, deps: Deps): void {
  defineCall(app, deps, API.getAuditLog, ({ body, auth }) => auditPage(deps, auth, body), {
    cache: { tables: ['audit_log'] },
  });
  defineCall(app, deps, API.exportAuditLog, async ({ body, auth, reply }) => {
    const csv = await auditCsv(deps, auth, body);
    const day = new Date().toISOString().slice(0, 10);
    reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="audit-${day}.csv"`);
    return Buffer.from(csv, 'utf8');
  });
}
