import { eq } from 'drizzle-orm';
import { vmPrices, vmStoragePrices } from '../../db/schema';
import type { Db } from '../../platform/db/client';

/**
 * The price sheet's defaults, written on first read. A module of its own: labs/metering.ts reads
 * prices through it, and vm-pricing.ts (the admin's update, which rolls open runs first) imports
 * metering, so neither imports the other's file both ways.
 */

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
export const STORAGE_ROW = 1;

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
