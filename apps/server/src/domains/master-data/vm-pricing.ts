import { API, MSG } from '@trainlab/contract';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { vmPrices, vmStoragePrices } from '../../db/schema';
import { audited } from '../../platform/audit';
import type { Deps } from '../../platform/deps';
import { notFound } from '../../platform/errors';
import { defineCall } from '../../platform/http/define-call';
import { rollOpenRuns } from '../labs/metering';
import { ensureVmPriceDefaults, STORAGE_ROW } from './vm-price-defaults';

export function vmPricingRoutes(app: FastifyInstance, deps: Deps): void {
  defineCall(app, deps, API.getPricing, async () => {
    await ensureVmPriceDefaults(deps.db);
    const list = await deps.db
      .select({
        id: vmPrices.id,
        memory: vmPrices.memory,
        virtual_cpu: vmPrices.virtual_cpu,
        cl_linux_price: vmPrices.cl_linux_price,
        cl_windows_price: vmPrices.cl_windows_price,
        linux: vmPrices.linux,
        windows: vmPrices.windows,
      })
      .from(vmPrices)
      .orderBy(asc(vmPrices.memory));
    const [storage] = await deps.db.select().from(vmStoragePrices).where(eq(vmStoragePrices.id, STORAGE_ROW));
    return { list, storage_price: storage!.storage_price, cl_storage_price: storage!.cl_storage_price };
  });

  defineCall(
    app,
    deps,
    API.updateVmPricing,
    audited(API.updateVmPricing, { type: 'vm-price', table: vmPrices, key: 'id' }, async ({ body }) => {
      await ensureVmPriceDefaults(deps.db);
      await deps.db.transaction(async (tx) => {
        // running labs pay what they owe at the old prices before the new ones apply
        await rollOpenRuns(tx, deps.clock());
        const updated = await tx
          .update(vmPrices)
          .set({
            linux: body.linux,
            windows: body.windows,
            cl_linux_price: body.cl_linux,
            cl_windows_price: body.cl_windows,
            updated_at: new Date(),
          })
          .where(eq(vmPrices.id, body.id))
          .returning({ id: vmPrices.id });
        if (updated.length === 0) throw notFound();
        await tx
          .update(vmStoragePrices)
          .set({ storage_price: body.storage, cl_storage_price: body.cl_storage, updated_at: new Date() })
          .where(eq(vmStoragePrices.id, STORAGE_ROW));
      });
      return { message: MSG.recordUpdated };
    }),
  );
}
