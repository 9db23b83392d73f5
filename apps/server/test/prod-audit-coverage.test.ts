import { CERTIFICATION_IMPORT_COLUMNS, IMPORT_TEMPLATES } from '@trainlab/contract';
import { desc, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../src/db/schema';
import { BANK_HEADER, bankRow, question, XLSX_TYPE } from './assessments-fixtures';
import { makeVmUsage } from './catalog-fixtures';
import { createTestApp, type TestApp } from './helpers';
import { postMultipart, seedMasters } from './master-support';
import { orgWithOwner } from './org-fixtures';
import { TEST_SECRET } from './payments-support';
import { book, makeTraining, person } from './trainings-fixtures';

/**
 * Master data, payments, the question bank, the syllabus and the Excel imports: each change an admin
 * or a tenant's manager makes writes one audit row with its actor, action and target; an import
 * writes one row with its counts, not one per imported row.
 */
let t: TestApp;
type Actor = { token: string; id: number; role: string };
let admin: Actor;
let provider: Actor;
let org: Actor & { organizationId: number };
let masters: Awaited<ReturnType<typeof seedMasters>>;

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', TEST_GATEWAY_SECRET: TEST_SECRET });
  const a = await t.loginAs({ role: 'admin' });
  admin = { token: a.token, id: a.user.id, role: 'admin' };
  const p = await t.loginAs({ role: 'provider' });
  provider = { token: p.token, id: p.user.id, role: 'provider' };
  const o = await orgWithOwner(t);
  org = { token: o.token, id: o.owner.id, role: 'organization', organizationId: o.organization.id };
  masters = await seedMasters(t, admin.token);
});
afterAll(() => t?.close());

type Row = typeof auditLog.$inferSelect;
const lastId = async () => (await t.deps.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1))[0]?.id ?? 0;
const rowsAfter = (id: number) => t.deps.db.select().from(auditLog).where(gt(auditLog.id, id)).orderBy(auditLog.id);

async function ok(path: string, body: Record<string, unknown>, who: Actor) {
  const res = await t.post(path, body, who.token);
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}
async function upload(
  path: string,
  who: Actor,
  rows: (string | number | null)[][],
  fields: Record<string, string> = {},
) {
  const res = await postMultipart(
    t,
    path,
    [
      ...Object.entries(fields).map(([name, content]) => ({ name, content })),
      { name: 'file', filename: 'import.xlsx', content: book(rows), contentType: XLSX_TYPE },
    ],
    who.token,
  );
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

// ids made by earlier cases and used by later ones
const made: Record<string, number | string> = {};
const keep = (name: string, value: number | string) => {
  made[name] = value;
  return value;
};
const certificationForm = (over: Record<string, unknown> = {}) => ({
  name: 'Audited Certification',
  level: 'Intermediate',
  ...masters,
  exam_link: 'https://aws.example/exam',
  product_link: 'https://aws.example/',
  duration: '130 minutes',
  certification_description: 'Design on AWS.',
  certification_prerequisites: 'One year on AWS.',
  certification_details: '65 questions.',
  remark: 'Popular',
  cost_doller: 150,
  cost_inr: '12500.50',
  recommended_experiance: 0,
  ...over,
});

interface Case {
  action: string;
  type: string;
  actor: () => Actor;
  /** makes the change; answers the expected target id */
  run: () => Promise<number | string | null>;
  /** what the row's changes must show */
  changes?: (c: Row['changes']) => void;
}

const CASES: Case[] = [
  // master data
  {
    action: 'create-category',
    type: 'category',
    actor: () => admin,
    run: async () => keep('category', (await ok('create-category', { name: 'Audited Category' }, admin)).id),
    changes: (c) => expect(c.name).toEqual({ before: null, after: 'Audited Category' }),
  },
  {
    action: 'update-category',
    type: 'category',
    actor: () => admin,
    run: async () => (await ok('update-category', { id: made.category, name: 'Renamed Category' }, admin)).id,
    changes: (c) => expect(c.name).toEqual({ before: 'Audited Category', after: 'Renamed Category' }),
  },
  {
    action: 'create-skill',
    type: 'skill',
    actor: () => admin,
    run: async () => (await ok('create-skill', { name: 'Audited Skill', category_id: made.category }, admin)).id,
  },
  {
    action: 'add-line-of-business',
    type: 'line-of-business',
    actor: () => admin,
    run: async () => (await ok('add-line-of-business', { name: 'Audited Business' }, admin)).id,
  },
  {
    action: 'create-certification-master',
    type: 'certification-master',
    actor: () => admin,
    run: async () =>
      (
        await ok(
          'create-certification-master',
          { type: 'Exam', name: 'AUD-01', description: 'Audited exam', overview: 'Audited' },
          admin,
        )
      ).id,
  },
  {
    action: 'create-certification',
    type: 'certification',
    actor: () => admin,
    run: async () => keep('certification', (await ok('create-certification', certificationForm(), admin)).id),
  },
  {
    action: 'update-certification',
    type: 'certification',
    actor: () => admin,
    run: async () => {
      await ok('update-certification', certificationForm({ id: made.certification, cost_inr: '9999' }), admin);
      return made.certification!;
    },
    // a price change: the price before and after, and nothing else of the record
    changes: (c) => {
      expect(c.cost_inr).toEqual({ before: 12500.5, after: 9999 });
      expect(c.name).toBeUndefined();
    },
  },
  {
    action: 'delete-certification',
    type: 'certification',
    actor: () => admin,
    run: async () => {
      await ok('delete-certification', { id: made.certification }, admin);
      return made.certification!;
    },
    changes: (c) => expect(c.name).toEqual({ before: 'Audited Certification', after: null }),
  },
  {
    action: 'upload-certification-master',
    type: 'certification-import',
    actor: () => admin,
    run: async () => {
      const sample = IMPORT_TEMPLATES.certification.sample as Record<string, string | number | null>;
      const row = (n: number) => CERTIFICATION_IMPORT_COLUMNS.map((c) => (c === 'name' ? `Imported ${n}` : sample[c]!));
      await upload('upload-certification-master', admin, [[...CERTIFICATION_IMPORT_COLUMNS], row(1), row(2), row(3)]);
      return null;
    },
    changes: (c) =>
      expect(c).toEqual({ file: { before: null, after: 'import.xlsx' }, imported: { before: null, after: 3 } }),
  },
  {
    action: 'create-training-course',
    type: 'training-course',
    actor: () => admin,
    run: async () =>
      keep(
        'course',
        (
          await ok(
            'create-training-course',
            {
              name: 'Audited Course',
              category: made.category,
              level: 'Beginner',
              duration: 3,
              duration_type: 'Days',
              price: '499.99',
            },
            admin,
          )
        ).id,
      ),
  },
  {
    action: 'create-training-module',
    type: 'training-module',
    actor: () => admin,
    run: async () =>
      keep(
        'module',
        (await ok('create-training-module', { name: 'M1', course: made.course, price: 10, duration: 2 }, admin)).id,
      ),
  },
  {
    action: 'create-training-topic',
    type: 'training-topic',
    actor: () => admin,
    run: async () => {
      const res = await ok(
        'create-training-topic',
        { course: made.course, module: made.module, topics: ['T1'] },
        admin,
      );
      made.topic = res.ids[0];
      return null;
    },
    changes: (c) => expect(c.topics).toEqual({ before: null, after: ['T1'] }),
  },
  {
    action: 'delete-training-topic',
    type: 'training-topic',
    actor: () => admin,
    run: async () => {
      await ok('delete-training-topic', { topic_id: made.topic }, admin);
      return made.topic!;
    },
  },
  {
    action: 'delete-training-module',
    type: 'training-module',
    actor: () => admin,
    run: async () => {
      await ok('delete-training-module', { module_id: made.module }, admin);
      return made.module!;
    },
  },
  {
    action: 'delete-training-course',
    type: 'training-course',
    actor: () => admin,
    run: async () => {
      await ok('delete-training-course', { course_id: made.course }, admin);
      return made.course!;
    },
    changes: (c) => expect(c.name).toEqual({ before: 'Audited Course', after: null }),
  },
  {
    action: 'create-service',
    type: 'service-price',
    actor: () => admin,
    run: async () =>
      keep('service', (await ok('create-service', { service: 'TRAINING (Per Day)', price: '1000' }, admin)).id),
  },
  {
    action: 'update-service',
    type: 'service-price',
    actor: () => admin,
    run: async () =>
      (await ok('update-service', { id: made.service, service: 'TRAINING (Per Day)', price: '1500' }, admin)).id,
    changes: (c) => expect(c.price).toBeDefined(),
  },

  // the question bank
  {
    action: 'add-question',
    type: 'question',
    actor: () => provider,
    run: async () =>
      keep('question', (await ok('add-question', question({ question: 'Audited?' }), provider)).success.id),
    changes: (c) => expect(c.question).toEqual({ before: null, after: 'Audited?' }),
  },
  {
    action: 'update-question',
    type: 'question',
    actor: () => provider,
    run: async () => {
      await ok('update-question', { ...question({ question: 'Audited again?' }), id: made.question }, provider);
      return made.question!;
    },
    changes: (c) => expect(c.question).toEqual({ before: 'Audited?', after: 'Audited again?' }),
  },
  {
    action: 'delete-question',
    type: 'question',
    actor: () => provider,
    run: async () => {
      await ok('delete-question', { id: made.question }, provider);
      return made.question!;
    },
  },
  {
    action: 'upload-question-bank',
    type: 'question-import',
    actor: () => org,
    run: async () => {
      await upload('upload-question-bank', org, [BANK_HEADER, bankRow('Imported one?'), bankRow('Imported two?')]);
      return null;
    },
    changes: (c) => expect(c.imported).toEqual({ before: null, after: 2 }),
  },

  // the syllabus and training users
  {
    action: 'add-training-syllabus',
    type: 'syllabus-topic',
    actor: () => provider,
    run: async () => {
      made.training = (await makeTraining(t, provider.token, { name: 'Audited Syllabus' })).slug;
      return keep(
        'syllabusTopic',
        (await ok('add-training-syllabus', { slug: made.training, topic_name: 'Opening' }, provider)).id,
      );
    },
    changes: (c) => expect(c.topic_name).toEqual({ before: null, after: 'Opening' }),
  },
  {
    action: 'delete-training-syllabus',
    type: 'syllabus-topic',
    actor: () => provider,
    run: async () => {
      await ok('delete-training-syllabus', { id: made.syllabusTopic }, provider);
      return made.syllabusTopic!;
    },
    changes: (c) => expect(c.session_topic).toEqual({ before: 'Opening', after: null }),
  },
  {
    action: 'upload-training-syllabus',
    type: 'syllabus-import',
    actor: () => provider,
    run: async () => {
      await upload(
        'upload-training-syllabus',
        provider,
        [
          ['topic_name', 'start_time', 'end_time'],
          ['One', null, null],
          ['Two', null, null],
        ],
        { slug: String(made.training) },
      );
      const [training] = await t.deps.db.query.trainings.findMany({
        where: (tr, { eq }) => eq(tr.slug, String(made.training)),
      });
      return training!.id;
    },
    changes: (c) =>
      expect(c).toEqual({
        file: { before: null, after: 'import.xlsx' },
        slug: { before: null, after: made.training },
        imported: { before: null, after: 2 },
      }),
  },
  {
    action: 'lp/import-training-user',
    type: 'enrolment-import',
    actor: () => provider,
    run: async () => {
      const people = [person('imp1'), person('imp2'), person('imp3')];
      await upload(
        'lp/import-training-user',
        provider,
        [
          ['firstname', 'lastname', 'email', 'mobileno'],
          ...people.map((p) => [p.first_name, p.last_name, p.email, p.mobile_no]),
        ],
        { slug: String(made.training) },
      );
      const [training] = await t.deps.db.query.trainings.findMany({
        where: (tr, { eq }) => eq(tr.slug, String(made.training)),
      });
      return training!.id;
    },
    changes: (c) => expect(c.imported).toEqual({ before: null, after: 3 }),
  },

  // payments
  {
    action: 'save-billing-settings',
    type: 'billing-settings',
    actor: () => org,
    run: async () => {
      await ok('save-billing-settings', { gst_percent: 12 }, org);
      return null;
    },
    changes: (c) => expect(c.gst_percent).toEqual({ before: null, after: 12 }),
  },
  {
    action: 'vm-checkout',
    type: 'payment',
    actor: () => provider,
    run: async () => {
      await makeVmUsage(t, provider.id, [2_500]);
      const order = await ok('vm-checkout', {}, provider);
      made.order = order.order_id;
      made.payment = order.id;
      return order.id;
    },
    changes: (c) => expect(c.amount_paise).toEqual({ before: null, after: 2_500 }),
  },
  {
    action: 'save-vm-payment-data',
    type: 'payment',
    actor: () => provider,
    run: async () => {
      const cb = await t.post('test-gateway-pay', { order_id: made.order, outcome: 'pay' });
      made.signature = cb.body.razorpay_signature;
      const saved = await ok(
        'save-vm-payment-data',
        {
          payment_id: cb.body.razorpay_payment_id,
          razorpay_order_id: made.order,
          razorpay_signature: cb.body.razorpay_signature,
        },
        provider,
      );
      return saved.payment.id;
    },
    // the gateway's signature is a secret of the callback: never written
    changes: (c) => expect(c.razorpay_signature).toEqual({ before: undefined, after: '[redacted]' }),
  },
];

describe('each newly audited call writes one row with its actor, action and target', () => {
  for (const c of CASES) {
    it(`${c.action} (${c.type})`, async () => {
      const before = await lastId();
      const targetId = await c.run();
      const rows = (await rowsAfter(before)).filter((r) => r.action === c.action);
      expect(rows, `one row for ${c.action}`).toHaveLength(1);
      const row = rows[0]!;
      const actor = c.actor();
      expect(row).toMatchObject({ actor_id: actor.id, actor_role: actor.role, target_type: c.type });
      if (targetId !== null) expect(row.target_id).toBe(String(targetId));
      if (actor.role === 'provider') expect(row.tenant_owner_id).toBe(provider.id);
      if (actor.role === 'organization') expect(row.tenant_organization_id).toBe(org.organizationId);
      c.changes?.(row.changes);
    });
  }

  it('no secret reached a row: the payment signature and the session tokens are nowhere', async () => {
    const everything = JSON.stringify(await t.deps.db.select().from(auditLog));
    expect(everything).not.toContain(String(made.signature));
    for (const who of [admin, provider, org]) expect(everything).not.toContain(who.token);
  });
});

describe('a tenant reads its own rows of these calls only', () => {
  it('the provider sees its bank, syllabus, import and payment rows; the organization sees none of them', async () => {
    const mine = await t.post('get-audit-log', { per_page: 100 }, provider.token);
    const actions = new Set(mine.body.list.map((r: { action: string }) => r.action));
    for (const a of ['add-question', 'upload-training-syllabus', 'lp/import-training-user', 'vm-checkout']) {
      expect(actions.has(a), a).toBe(true);
    }
    expect(mine.body.list.every((r: { actor_id: number }) => r.actor_id === provider.id)).toBe(true);

    const theirs = await t.post('get-audit-log', { per_page: 100 }, org.token);
    expect(theirs.body.list.every((r: { actor_id: number }) => r.actor_id === org.id)).toBe(true);
    expect(theirs.body.list.map((r: { action: string }) => r.action).sort()).toEqual([
      'save-billing-settings',
      'upload-question-bank',
    ]);
    // asked by the other tenant's target, nothing comes back
    const payment = mine.body.list.find((r: { action: string }) => r.action === 'vm-checkout');
    expect(
      (await t.post('get-audit-log', { target_type: 'payment', target_id: payment.target_id }, org.token)).body.total,
    ).toBe(0);
    // the admin's master data rows are the admin's alone
    expect(actions.has('create-category')).toBe(false);
  });
});
