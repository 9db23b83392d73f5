import { type CartLine, type CartType, type CartView, MSG } from '@trainlab/contract';
import { and, asc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { cartItems, certifications, courses } from '../../db/schema';
import type { Db } from '../../platform/db/client';
import type { Deps } from '../../platform/deps';
import { AppError, invalidField, notFound } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { certificationPrice, coursePrice, inCatalogue, toPaise, toRupees } from '../catalog/catalog';
import { itemKey, ownedKeys } from './ownership';

/**
 * The cart (spec 01 §3 Cart item): a signed-in account's lines under user_id, an anonymous
 * visitor's under the device key kept in the browser. Lines hold no price: every view reads the
 * catalogue's current price, so the client's price is never trusted. A signed-in account's lines
 * it already owns (merged from the device, or bought since) stay visible, flagged `owned`, and
 * count for nothing: `cartView`'s total is the sum checkout-cart charges.
 */

export type Owner = { userId: number } | { deviceKey: string };

/** Whose cart a call works on; an anonymous call without a device key has no cart (422). */
export function cartOwner(auth: AuthContext | null, deviceKey: string | undefined): Owner {
  if (auth) return { userId: auth.user.id };
  if (!deviceKey) throw new AppError(422, MSG.givenDataInvalid, { device_key: ['The device key field is required.'] });
  return { deviceKey };
}

export const ownerWhere = (o: Owner): SQL =>
  'userId' in o
    ? eq(cartItems.user_id, o.userId)
    : and(isNull(cartItems.user_id), eq(cartItems.device_key, o.deviceKey))!;

export async function priceOf(db: Db, type: CartType, id: number) {
  return type === 'is_course' ? coursePrice(db, id) : certificationPrice(db, id);
}

/** The cart's lines with current prices and ownership; lines whose item left the catalogue are dropped. */
export async function cartLines(db: Db, owner: Owner): Promise<CartLine[]> {
  const rows = await db
    .select({
      id: cartItems.id,
      type: cartItems.type,
      type_id: cartItems.type_id,
      course_name: courses.name,
      course_slug: courses.slug,
      course_paise: courses.amount_paise,
      course_for_sale: sql<boolean>`coalesce(${inCatalogue()}, false)`,
      cert_name: certifications.name,
      cert_inr: certifications.cost_inr,
    })
    .from(cartItems)
    .leftJoin(courses, and(eq(cartItems.type, 'is_course'), eq(courses.id, cartItems.type_id)))
    .leftJoin(certifications, and(eq(cartItems.type, 'is_certificate'), eq(certifications.id, cartItems.type_id)))
    .where(ownerWhere(owner))
    .orderBy(asc(cartItems.id));
  const lines: CartLine[] = [];
  for (const r of rows) {
    if (r.type === 'is_course' && r.course_name && r.course_for_sale) {
      lines.push({
        id: r.id,
        type: 'is_course',
        type_id: r.type_id,
        name: r.course_name,
        slug: r.course_slug,
        price: toRupees(r.course_paise!),
        price_paise: r.course_paise!,
        owned: false,
      });
    } else if (r.type === 'is_certificate' && r.cert_name) {
      const p = toPaise(Number(r.cert_inr));
      lines.push({
        id: r.id,
        type: 'is_certificate',
        type_id: r.type_id,
        name: r.cert_name,
        slug: null,
        price: toRupees(p),
        price_paise: p,
        owned: false,
      });
    }
  }
  if (!('userId' in owner) || lines.length === 0) return lines;
  const owned = await ownedKeys(db, owner.userId, lines);
  return lines.map((l) => (owned.has(itemKey(l)) ? { ...l, owned: true } : l));
}

/** The lines checkout-cart charges for: the ones the buyer does not have yet. */
export const payableLines = (lines: CartLine[]) => lines.filter((l) => !l.owned);

export function cartView(lines: CartLine[]): CartView {
  const total_paise = payableLines(lines).reduce((s, l) => s + l.price_paise, 0);
  return { list: lines, total: toRupees(total_paise), total_paise, count: lines.length };
}

export async function showCart(deps: Deps, auth: AuthContext | null, deviceKey: string | undefined) {
  if (!auth && !deviceKey) return cartView([]);
  return cartView(await cartLines(deps.db, cartOwner(auth, deviceKey)));
}

export async function addCart(
  deps: Deps,
  auth: AuthContext | null,
  body: { type: CartType; type_id: number; device_key?: string },
) {
  const owner = cartOwner(auth, body.device_key);
  const item = await priceOf(deps.db, body.type, body.type_id);
  if (!item) throw notFound();
  if ('userId' in owner && (await ownedKeys(deps.db, owner.userId, [body])).size > 0) {
    // buying it again would charge for nothing
    throw invalidField('type_id', MSG.alreadyOwned);
  }
  await deps.db
    .insert(cartItems)
    .values({
      type: body.type,
      type_id: body.type_id,
      ...('userId' in owner
        ? { user_id: owner.userId, device_key: null }
        : { user_id: null, device_key: owner.deviceKey }),
    })
    .onConflictDoNothing();
  const view = cartView(await cartLines(deps.db, owner));
  return { ...view, message: body.type === 'is_course' ? MSG.itemAddedIntoCart : MSG.certificationAddedIntoCart };
}

export async function removeCart(
  deps: Deps,
  auth: AuthContext | null,
  body: { type: CartType; type_id: number; device_key?: string },
) {
  const owner = cartOwner(auth, body.device_key);
  const gone = await deps.db
    .delete(cartItems)
    .where(and(ownerWhere(owner), eq(cartItems.type, body.type), eq(cartItems.type_id, body.type_id)))
    .returning({ id: cartItems.id });
  if (gone.length === 0) throw notFound();
  return { ...cartView(await cartLines(deps.db, owner)), message: MSG.itemRemovedFromCart };
}

/** Sign-in: the device key's lines move to the account; lines the account already has are dropped. */
export async function mergeCart(deps: Deps, auth: AuthContext, deviceKey: string | undefined) {
  const owner = { userId: auth.user.id };
  if (deviceKey) {
    await deps.db.transaction(async (tx) => {
      const anon = await tx
        .select()
        .from(cartItems)
        .where(and(isNull(cartItems.user_id), eq(cartItems.device_key, deviceKey)));
      if (anon.length === 0) return;
      await tx
        .insert(cartItems)
        .values(anon.map((a) => ({ user_id: auth.user.id, device_key: null, type: a.type, type_id: a.type_id })))
        .onConflictDoNothing();
      await tx.delete(cartItems).where(
        inArray(
          cartItems.id,
          anon.map((a) => a.id),
        ),
      );
    });
  }
  return cartView(await cartLines(deps.db, owner));
}
