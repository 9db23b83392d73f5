import { API, MSG } from '@trainlab/contract';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { labNow } from '../../adapters/labs';
import { vmPrices, vmStoragePrices } from '../../db/schema';
import { audited } from '../../platform/audit';
import type { Db } from '../../platform/db/client';
import type { Deps } from '../../platform/deps';
import { notFound } from '../../platform/errors';
import { defineCall } from '../../platform/http/define-call';
import { rollOpenRuns } from '../labs/metering';

/** Cloud prices default to 80% of the platform's price. */
const CLOUD_SHARE = 0.8;
const cloud = (price: number) => Math.round(price * CLOUD_SHARE * 10_000) / 10_000;

/** Spec 02 §9: price per hour by RAM (GB), Linux / Windows; vCPUs are our choice. */
export const DEFAULT_VM_PRICES = [
  { memory: 2, virtual_cpu: 1, linux: 0.03, windows: 0.07 },
  { memory: 4, virtual_cpu: 2, linux: 0.05, windows: 0.2 },
  { memory: 8, virtual_cpu: 2, linux: 0.1, windows: 0.3 },
  { memory: 16, virtual_cpu: 4, linux: 0.2, windows: 0.6 },
  { memory: 32, virtual_cpu: 8, linux: 0.42, windows: 1.4 },
].map((p) => ({ ...p, cl_linux_price: cloud(p.linux), cl_windows_price: cloud(p.windows) }));
/** Spec 02 §9: storage 0.17 per GB (monthly). */
export const DEFAULT_STORAGE_PRICE = 0.17;
const STORAGE_ROW = 1;

/** Fills the price tables with the defaults the first time they are read (safe when raced). */
export async function ensureVmPriceDefaults(db: Db): Promise<void> {
  const [anyRow] = await db.select({ id: vmPrices.id }).from(vmPrices).limit(1);
  if (!anyRow) await db.insert(vmPrices).values(DEFAULT_VM_PRICES).onConflictDoNothing();
  const [storage] = await db
    .select({ id: vmStoragePrices.id })
    .from(vmStoragePrices)
    .where(eq(vmStoragePrices.id, STORAGE_ROW));
  if (!storage) {
    await db
      .insert(vmStoragePrices)
      .values({ id: STORAGE_ROW, storage_price: DEFAULT_STORAGE_PRICE, cl_storage_price: cloud(DEFAULT_STORAGE_PRICE) })
      .onConflictDoNothing();
  }
}

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
        await rollOpenRuns(tx, labNow(deps));
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
