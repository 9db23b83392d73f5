import type {
  CertificationMasterType,
  certification,
  certificationListRequest,
  certificationRequest,
} from '@trainlab/contract';
import { asc, eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { certificationMasters, certifications } from '../../db/schema';
import type { Db } from '../../platform/db/client';
import { ValidationError } from '../../platform/errors';
import { orderFor, pageWindow, searchWhere, toPage, totalOver } from '../../platform/http/paging';

/** Which master type each pick-list field of the certification form refers to. */
export const MASTER_FIELDS = {
  certification_type: 'CertificationType',
  product: 'Product',
  role: 'RolesType',
  exam: 'Exam',
  certification_role: 'CertificationRoles',
} as const satisfies Record<string, CertificationMasterType>;
export type MasterField = keyof typeof MASTER_FIELDS;
export const MASTER_FIELD_NAMES = Object.keys(MASTER_FIELDS) as MasterField[];

export const invalidChoice = (field: string) => `The selected ${field.replace(/_/g, ' ')} is invalid.`;

type CertificationInput = z.output<typeof certificationRequest>;
type CertificationRow = z.output<typeof certification>;

/** Checks that every pick-list id names a master item of the right type (422 per field otherwise). */
export async function checkMasterIds(db: Db, body: CertificationInput): Promise<void> {
  const ids = MASTER_FIELD_NAMES.map((f) => body[f]).filter((v): v is number => typeof v === 'number');
  const found = ids.length
    ? await db
        .select({ id: certificationMasters.id, type: certificationMasters.type })
        .from(certificationMasters)
        .where(inArray(certificationMasters.id, ids))
    : [];
  const typeOf = new Map(found.map((m) => [m.id, m.type]));
  const bag: Record<string, string[]> = {};
  for (const field of MASTER_FIELD_NAMES) {
    const id = body[field];
    if (id !== null && typeOf.get(id) !== MASTER_FIELDS[field]) bag[field] = [invalidChoice(field)];
  }
  if (Object.keys(bag).length > 0) throw new ValidationError(bag);
}

/** Column values of a certification from the validated form (or import row with resolved ids). */
export function certificationValues(body: Omit<CertificationInput, MasterField> & Record<MasterField, number | null>) {
  return {
    name: body.name,
    level: body.level,
    certification_type_id: body.certification_type!,
    product_id: body.product!,
    role_id: body.role,
    exam_id: body.exam,
    certification_role_id: body.certification_role,
    exam_link: body.exam_link,
    product_link: body.product_link,
    duration: body.duration,
    certification_description: body.certification_description,
    certification_prerequisites: body.certification_prerequisites,
    certification_details: body.certification_details,
    remark: body.remark,
    cost_doller: body.cost_doller,
    cost_inr: body.cost_inr,
    recommended_experience: body.recommended_experiance,
  };
}

/** One certification with the names of its master items. */
export async function selectCertifications(db: Db, filter: { id: number }): Promise<CertificationRow[]> {
  const { query, c } = certificationsWithMasters(db, false);
  return (await query.where(eq(c.id, filter.id))) as CertificationRow[];
}

/** /certification-list: one page of certifications, searched over their names and master names. */
export async function pageCertifications(db: Db, q: z.output<typeof certificationListRequest>) {
  const window = pageWindow({ ...q, search: q.search ?? undefined });
  const { query, ct, pr, ex, cr, c } = certificationsWithMasters(db, true);
  const where = q.search ? searchWhere(q.search, [c.name, pr.name, ct.name, ex.name, cr.name]) : undefined;
  const rows = await query
    .where(where)
    .orderBy(...orderFor(q.sort, { name: c.name, level: c.level, created_at: c.id }, [asc(c.name)], c.id))
    .limit(window.limit)
    .offset(window.offset);
  return toPage(
    rows as (CertificationRow & { total: number })[],
    window,
    ({ total: _t, ...row }) => row as CertificationRow,
    async () => (await certificationsWithMasters(db, false).query.where(where)).length,
  );
}

/**
 * Certifications joined to the names of their master items (type, product, role, exam, certification
 * role): the one select behind the admin's lists and the public catalogue. `withTotal` adds the
 * list convention's `count(*) over ()`.
 */
export function certificationsWithMasters(db: Db, withTotal: boolean) {
  const ct = alias(certificationMasters, 'ct');
  const pr = alias(certificationMasters, 'pr');
  const ro = alias(certificationMasters, 'ro');
  const ex = alias(certificationMasters, 'ex');
  const cr = alias(certificationMasters, 'cr');
  const c = certifications;
  const query = db
    .select({
      id: c.id,
      name: c.name,
      level: c.level,
      certification_type: ct.name,
      certification_type_id: c.certification_type_id,
      product: c.product_id,
      product_name: pr.name,
      product_link: c.product_link,
      role: c.role_id,
      role_name: ro.name,
      exam: c.exam_id,
      exam_name: ex.name,
      exam_link: c.exam_link,
      duration: c.duration,
      certification_role: cr.name,
      certification_role_id: c.certification_role_id,
      certification_description: c.certification_description,
      certification_prerequisites: c.certification_prerequisites,
      certification_details: c.certification_details,
      remark: c.remark,
      cost_doller: c.cost_doller,
      cost_inr: c.cost_inr,
      recommended_experience: c.recommended_experience,
      is_set: c.is_set,
      ...(withTotal ? { total: totalOver() } : {}),
    })
    .from(c)
    .leftJoin(ct, eq(ct.id, c.certification_type_id))
    .leftJoin(pr, eq(pr.id, c.product_id))
    .leftJoin(ro, eq(ro.id, c.role_id))
    .leftJoin(ex, eq(ex.id, c.exam_id))
    .leftJoin(cr, eq(cr.id, c.certification_role_id));
  return { query, ct, pr, ro, ex, cr, c };
}
