import type { CartType } from '@trainlab/contract';
import { apiPost } from '../../api/client';
import { getToken } from '../../api/session';

/**
 * The anonymous cart's device key (spec 01 §3 Cart item): generated once and kept in the browser.
 * Small on purpose: the landing and the login page (first bundle) use it.
 */
const KEY = 'device_key';

export function deviceKey(): string {
  let key = localStorage.getItem(KEY);
  if (!key) {
    key =
      typeof crypto !== 'undefined' && 'randomUUID' in crypto
        ? crypto.randomUUID()
        : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    localStorage.setItem(KEY, key);
  }
  return key;
}

/** Right after sign-in: the device's cart moves into the account's (duplicates dropped). Never throws. */
export async function mergeDeviceCart(): Promise<void> {
  const key = localStorage.getItem(KEY);
  if (!key || !getToken()) return;
  try {
    await apiPost('merge-cart', { device_key: key });
  } catch {
    /* the items stay under the device key; the next sign-in merges them */
  }
}

export type CartItemType = CartType;

/** /add-cart for the account when signed in, else for this device. */
export function addToCart(type: CartItemType, typeId: number, price: number) {
  return apiPost('add-cart', {
    type,
    type_id: typeId,
    price,
    device_key: deviceKey(),
  });
}
