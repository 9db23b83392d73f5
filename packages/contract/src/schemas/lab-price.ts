import { isWindows } from './labs.js';

/**
 * The one price rule of a cloud lab (decision 0053), used by the server's meter, VM Details, Cloud
 * Payment, the demo data and the create form's estimate alike, so that a person can check any bill
 * against the price shown:
 *
 * - A lab is charged the platform price of its RAM row for its OS (`linux` / `windows`, per hour)
 *   plus its storage at the platform's monthly price per GB (`storage_price`), spread over a
 *   720-hour month and charged for the hours the lab runs. The cloud prices (`cl_*`) are what the
 *   cloud charges the platform; they are the admin's reference and are not billed to anyone.
 * - Prices are held in hundredths of a paisa (₹0.0001): the admin's rupee prices are rounded to 4
 *   decimals, and the storage per hour to a hundredth of a paisa, so the price per hour shown
 *   (₹0.0547) is exactly the one charged.
 * - A run is charged by whole minutes (its length rounded to the nearest minute):
 *   cost in paise = price per hour × minutes ÷ 60, rounded half up to a paisa once per run.
 */

/** Hundredths of a paisa in a rupee. */
export const PRICE_UNITS_PER_RUPEE = 10_000;
/** Hours in the month over which a monthly storage price is spread. */
export const HOURS_PER_MONTH = 720;

/** Admin's rupees (at most 4 decimals count) → hundredths of a paisa. */
export const priceUnits = (rupees: number) => Math.round(rupees * PRICE_UNITS_PER_RUPEE);
/** Hundredths of a paisa → rupees (exact to 4 decimals). */
export const unitsToRupees = (units: number) => units / PRICE_UNITS_PER_RUPEE;

export interface PriceRow {
  memory: number;
  linux: number;
  windows: number;
}
export interface PriceSheet {
  list: PriceRow[];
  /** platform storage price per GB per month, in rupees */
  storage_price: number;
}

/** The price of one lab, in hundredths of a paisa. */
export interface LabPrice {
  machinePerHour: number;
  storagePerMonth: number;
  storagePerHour: number;
  /** machinePerHour + storagePerHour: what one running hour costs */
  perHour: number;
}

/** The price of one lab of this OS, RAM and storage; null when no price row has that RAM. */
export function labPrice(sheet: PriceSheet, vm: { image: string; ram: number; storage: number }): LabPrice | null {
  const row = sheet.list.find((p) => p.memory === vm.ram);
  if (!row) return null;
  const machinePerHour = priceUnits(isWindows(vm.image) ? row.windows : row.linux);
  const storagePerMonth = priceUnits(sheet.storage_price) * Math.max(0, vm.storage);
  const storagePerHour = Math.round(storagePerMonth / HOURS_PER_MONTH);
  return { machinePerHour, storagePerMonth, storagePerHour, perHour: machinePerHour + storagePerHour };
}

/** Whole minutes of a run from its start to `at` (nearest minute; never negative). */
export const runMinutes = (startMs: number, atMs: number) => Math.max(0, Math.round((atMs - startMs) / 60_000));

/**
 * What `minutes` at `perHour` (hundredths of a paisa) cost, in micro-paise: the exact amount a
 * meter accrues between price changes. A run's cost is its sum rounded once with `toPaise`.
 */
export const minutesMicroPaise = (perHour: number, minutes: number) => Math.round((perHour * minutes * 10_000) / 60);
/** Micro-paise → whole paise, half up. */
export const toPaise = (microPaise: number) => Math.round(microPaise / 1_000_000);
/** The cost in paise of one run of `minutes` at one price: price per hour × minutes ÷ 60. */
export const runCostPaise = (perHour: number, minutes: number) => toPaise(minutesMicroPaise(perHour, minutes));
