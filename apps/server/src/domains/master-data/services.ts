import { API, MSG, type SERVICE_OPTIONS } from '@trainlab/contract';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { services } from '../../db/schema';
import { audited } from '../../platform/audit';
import type { Deps } from '../../platform/deps';
import { invalidField, notFound } from '../../platform/errors';
import { defineCall } from '../../platform/http/define-call';
import { isUniqueViolation } from './shared';

type ServiceOption = (typeof SERVICE_OPTIONS)[number];
const SERVICE_TAKEN = 'The service has already been taken.';

const toRow = (r: typeof services.$inferSelect) => ({
  id: r.id,
  service: r.service as ServiceOption,
  price: r.price,
  valid_date: r.valid_date ? r.valid_date.toISOString() : null,
});

/** Service prices; one record per service option, so /get-services-price has one price per service. */
export function serviceRoutes(app: FastifyInstance, deps: Deps): void {
  const takenBy = async (service: string) => {
    const [row] = await deps.db.select({ id: services.id }).from(services).where(eq(services.service, service));
    return row?.id;
  };

  defineCall(
    app,
    deps,
    API.createService,
    audited(API.createService, { type: 'service-price' }, async ({ body }) => {
      if (await takenBy(body.service)) throw invalidField('service', SERVICE_TAKEN);
      try {
        const [row] = await deps.db
          .insert(services)
          .values({
            service: body.service,
            price: body.price,
            valid_date: body.valid_date ? new Date(body.valid_date) : null,
          })
          .returning({ id: services.id });
        return { message: MSG.serviceCreated, id: row!.id };
      } catch (e) {
        if (isUniqueViolation(e)) throw invalidField('service', SERVICE_TAKEN);
        throw e;
      }
    }),
  );

  defineCall(app, deps, API.serviceList, async () => ({
    list: (await deps.db.select().from(services).orderBy(asc(services.id))).map(toRow),
  }));

  defineCall(app, deps, API.getService, async ({ body }) => {
    const [row] = await deps.db.select().from(services).where(eq(services.id, body.id));
    if (!row) throw notFound();
    return { success: toRow(row) };
  });

  defineCall(
    app,
    deps,
    API.updateService,
    audited(API.updateService, { type: 'service-price', table: services, key: 'id' }, async ({ body }) => {
      const [current] = await deps.db.select({ id: services.id }).from(services).where(eq(services.id, body.id));
      if (!current) throw notFound();
      const owner = await takenBy(body.service);
      if (owner && owner !== current.id) throw invalidField('service', SERVICE_TAKEN);
      try {
        await deps.db
          .update(services)
          .set({
            service: body.service,
            price: body.price,
            valid_date: body.valid_date ? new Date(body.valid_date) : null,
            updated_at: new Date(),
          })
          .where(eq(services.id, current.id));
      } catch (e) {
        if (isUniqueViolation(e)) throw invalidField('service', SERVICE_TAKEN);
        throw e;
      }
      return { message: MSG.serviceCreated, id: current.id };
    }),
  );

  defineCall(app, deps, API.getServicesPrice, async () => ({
    list: (
      await deps.db
        .select({ service: services.service, price: services.price })
        .from(services)
        .orderBy(asc(services.id))
    ).map((r) => ({ service: r.service as ServiceOption, price: r.price })),
  }));
}
