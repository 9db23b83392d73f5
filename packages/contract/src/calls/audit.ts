import { call } from '../api-base.js';
import type { Role } from '../roles.js';
import * as a from '../schemas/audit.js';

/** The admin reads every row; a tenant's manager reads the rows of their own tenant. */
export const AUDIT_READERS: readonly Role[] = ['admin', 'provider', 'organization', 'org_subadmin'];

export const AUDIT_CALLS = {
  getAuditLog: call(
    'get-audit-log',
    AUDIT_READERS,
    'The audit trail: who changed what and when; paged, filtered by actor, action, target and dates.',
    a.auditListRequest,
    a.auditPage,
  ),
  exportAuditLog: call(
    'export-audit-log',
    AUDIT_READERS,
    'The filtered audit trail as a CSV attachment.',
    a.auditExportRequest,
    a.auditCsv,
  ),
};
