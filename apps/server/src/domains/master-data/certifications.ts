import { API, MSG } from '@trainlab/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { certificationMasters, certifications } from '../../db/schema';
import { audited, importTarget } from '../../platform/audit';
import type { Deps } from '../../platform/deps';
import { invalidField, notFound } from '../../platform/errors';
import { defineCall } from '../../platform/http/define-call';
import { importCertifications } from './certifications-import';
import { certificationValues, checkMasterIds, pageCertifications, selectCertifications } from './certifications-repo';
import { isUniqueViolation } from './shared';

export function certificationRoutes(app: FastifyInstance, deps: Deps): void {
  defineCall(app, deps, API.certificationMasterList, async ({ body }) => ({
    list: await deps.db
      .select({
        id: certificationMasters.id,
        type: certificationMasters.type,
        name: certificationMasters.name,
        description: certificationMasters.description,
        overview: certificationMasters.overview,
      })
      .from(certificationMasters)
      .where(body.type ? eq(certificationMasters.type, body.type) : undefined)
      .orderBy(asc(certificationMasters.type), asc(certificationMasters.name)),
  }));

  defineCall(
    app,
    deps,
    API.createCertificationMaster,
    audited(API.createCertificationMaster, { type: 'certification-master' }, async ({ body }) => {
      const [taken] = await deps.db
        .select({ id: certificationMasters.id })
        .from(certificationMasters)
        .where(
          and(
            eq(certificationMasters.type, body.type),
            sql`lower(${certificationMasters.name}) = ${body.name.toLowerCase()}`,
          ),
        );
      if (taken) throw invalidField('name', MSG.nameTaken);
      try {
        const [row] = await deps.db
          .insert(certificationMasters)
          .values({ type: body.type, name: body.name, description: body.description, overview: body.overview })
          .returning({ id: certificationMasters.id });
        return { message: MSG.recordAdded, id: row!.id };
      } catch (e) {
        if (isUniqueViolation(e)) throw invalidField('name', MSG.nameTaken);
        throw e;
      }
    }),
  );

  defineCall(
    app,
    deps,
    API.uploadCertificationMaster,
    audited(API.uploadCertificationMaster, importTarget('certification-import'), ({ request }) =>
      importCertifications(deps, request),
    ),
  );

  defineCall(
    app,
    deps,
    API.createCertification,
    audited(API.createCertification, { type: 'certification' }, async ({ body }) => {
      await checkMasterIds(deps.db, body);
      const [row] = await deps.db
        .insert(certifications)
        .values(certificationValues(body))
        .returning({ id: certifications.id });
      return { message: MSG.recordAdded, id: row!.id };
    }),
  );

  defineCall(app, deps, API.certificationList, ({ body }) => pageCertifications(deps.db, body));

  const getOne = async (id: number) => {
    const [row] = await selectCertifications(deps.db, { id });
    if (!row) throw notFound();
    return { success: row };
  };
  defineCall(app, deps, API.getCertification, ({ body }) => getOne(body.id));
  defineCall(app, deps, API.getCertificationDetails, ({ body }) => getOne(body.id));

  defineCall(
    app,
    deps,
    API.updateCertification,
    audited(API.updateCertification, { type: 'certification', table: certifications, key: 'id' }, async ({ body }) => {
      const [exists] = await deps.db
        .select({ id: certifications.id })
        .from(certifications)
        .where(eq(certifications.id, body.id));
      if (!exists) throw notFound();
      await checkMasterIds(deps.db, body);
      await deps.db
        .update(certifications)
        .set({ ...certificationValues(body), updated_at: new Date() })
        .where(eq(certifications.id, body.id));
      return { message: MSG.recordUpdated, id: body.id };
    }),
  );

  defineCall(
    app,
    deps,
    API.deleteCertification,
    audited(API.deleteCertification, { type: 'certification', table: certifications, key: 'id' }, async ({ body }) => {
      const deleted = await deps.db
        .delete(certifications)
        .where(eq(certifications.id, body.id))
        .returning({ id: certifications.id });
      if (deleted.length === 0) throw notFound();
      return { message: MSG.recordDeleted };
    }),
  );
}
