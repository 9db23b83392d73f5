import type { CartType } from '@trainlab/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { certificationPurchases, courseEnrolments } from '../../db/schema';
import type { Db } from '../../platform/db/client';

/**
 * What a buyer already has: a course they are enrolled in (bought or assigned) or a certification
 * they bought. The one rule behind add-cart's refusal, the cart's `owned` flag and checkout's items,
 * so the total shown and the amount charged can never disagree.
 */

export type ItemRef = { type: CartType; type_id: number };
export const itemKey = (i: ItemRef) => `${i.type}:${i.type_id}`;

/** The keys (`itemKey`) of the given items that the user already has. */
export async function ownedKeys(db: Db, userId: number, items: readonly ItemRef[]): Promise<Set<string>> {
  const courseIds = items.filter((i) => i.type === 'is_course').map((i) => i.type_id);
  const certIds = items.filter((i) => i.type === 'is_certificate').map((i) => i.type_id);
  const [courses, certs] = await Promise.all([
    courseIds.length
      ? db
          .select({ id: courseEnrolments.course_id })
          .from(courseEnrolments)
          .where(and(eq(courseEnrolments.user_id, userId), inArray(courseEnrolments.course_id, courseIds)))
      : [],
    certIds.length
      ? db
          .select({ id: certificationPurchases.certification_id })
          .from(certificationPurchases)
          .where(
            and(eq(certificationPurchases.user_id, userId), inArray(certificationPurchases.certification_id, certIds)),
          )
      : [],
  ]);
  return new Set([
    ...courses.map((r) => itemKey({ type: 'is_course', type_id: r.id })),
    ...certs.map((r) => itemKey({ type: 'is_certificate', type_id: r.id })),
  ]);
}
