import { randomBytes } from 'node:crypto';
import { certificationMasters, certifications, courses, vms, vmUsages } from '../src/db/schema';
import type { TestApp } from './helpers';

const hex = () => randomBytes(4).toString('hex');

/** A catalogue course of a provider (public and paid unless told otherwise). */
export async function makeCourse(t: TestApp, opts: Partial<typeof courses.$inferInsert> & { ownerId?: number } = {}) {
  const owner = opts.ownerId ?? (await t.createUser({ role: 'provider' })).id;
  const [row] = await t.deps.db
    .insert(courses)
    .values({
      slug: `course-${hex()}`,
      name: `Course ${hex()}`,
      amount_paise: 49_900,
      is_paid: 1,
      is_public: 1,
      owner_user_id: owner,
      description: 'A recorded course',
      ...opts,
    })
    .returning();
  return row!;
}

const masters = new WeakMap<TestApp, Map<string, number>>();
async function master(t: TestApp, type: string, name: string) {
  const m = masters.get(t) ?? new Map<string, number>();
  masters.set(t, m);
  const key = `${type}:${name}`;
  if (m.has(key)) return m.get(key)!;
  const [row] = await t.deps.db.insert(certificationMasters).values({ type, name }).returning();
  m.set(key, row!.id);
  return row!.id;
}

/** An admin certification of a vendor (AWS, Google or Microsoft). */
export async function makeCertification(
  t: TestApp,
  opts: { vendor?: string; name?: string; level?: string; cost_inr?: number; cost_doller?: number } = {},
) {
  const [row] = await t.deps.db
    .insert(certifications)
    .values({
      name: opts.name ?? `Cert ${hex()}`,
      level: opts.level ?? 'Beginner',
      certification_type_id: await master(t, 'CertificationType', opts.vendor ?? 'AWS'),
      product_id: await master(t, 'Product', 'Cloud'),
      cost_inr: opts.cost_inr ?? 8_000,
      cost_doller: opts.cost_doller ?? 100,
      certification_description: 'An exam',
    })
    .returning();
  return row!;
}

/** A provider's VM with closed, costed runs (what the labs metering writes). */
export async function makeVmUsage(t: TestApp, ownerId: number, costs: number[], userId?: number) {
  const [vm] = await t.deps.db
    .insert(vms)
    .values({
      vm_name: `vm-${hex()}`,
      name: `Lab ${hex()}`,
      image: 'ubuntu',
      protocol: 'ssh',
      zone: 'asia-south1-a',
      ram: 4,
      storage: 20,
      engine: 'local',
      owner_user_id: ownerId,
    })
    .returning();
  const rows = [];
  for (const cost of costs) {
    const [u] = await t.deps.db
      .insert(vmUsages)
      .values({
        vm_id: vm!.id,
        user_id: userId ?? null,
        status: 3,
        vm_start: new Date(Date.now() - 3600_000),
        vm_stop: new Date(),
        used_min: 60,
        cost_paise: cost,
      })
      .returning();
    rows.push(u!);
  }
  return { vm: vm!, usages: rows };
}
