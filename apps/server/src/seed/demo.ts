import type { Role } from '@trainlab/contract';
import { runCostPaise, USER_TYPES } from '@trainlab/contract';
import { count, eq } from 'drizzle-orm';
import {
  branches,
  categories,
  certificationMasters,
  certifications,
  courses,
  departments,
  labAccounts,
  linesOfBusiness,
  organizations,
  orgMemberships,
  orgSubadminRequests,
  sections,
  services,
  skills,
  syllabusTopics,
  trainerSkills,
  trainings,
  trainingTrainers,
  trainingUsers,
  users,
  vms,
  vmUsages,
} from '../db/schema';
import { currentRates, priceOf } from '../domains/labs/metering';
import { hashPassword } from '../platform/auth/passwords';
import type { Db } from '../platform/db/client';
import { makeSlug } from '../platform/slug';

export const DEMO_PASSWORD = 'Demo@12345';

export const DEMO_ACCOUNTS: { email: string; role: Role; first_name: string; last_name: string }[] = [
  { email: 'admin@demo.test', role: 'admin', first_name: 'Asha', last_name: 'Admin' },
  { email: 'provider@demo.test', role: 'provider', first_name: 'Priya', last_name: 'Provider' },
  { email: 'org@demo.test', role: 'organization', first_name: 'Omar', last_name: 'Organization' },
  { email: 'orgadmin@demo.test', role: 'org_subadmin', first_name: 'Sara', last_name: 'Subadmin' },
  { email: 'learner@demo.test', role: 'provider_user', first_name: 'Liam', last_name: 'Learner' },
  { email: 'orguser@demo.test', role: 'organization_user', first_name: 'Uma', last_name: 'Orguser' },
  { email: 'user@demo.test', role: 'user', first_name: 'Ravi', last_name: 'User' },
  { email: 'trainer@demo.test', role: 'trainer', first_name: 'Tara', last_name: 'Trainer' },
];

const LINES_OF_BUSINESS = ['Information Technology', 'Banking & Finance', 'Healthcare', 'Manufacturing', 'Education'];

export async function isEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(users);
  return (row?.n ?? 0) === 0;
}

/** One account per role, all with the demo password, around one organization and one provider. */
/** `labEngine`: the configured lab engine, so the demo learner's lab starts on it (made at its first start). */
export async function seedDemo(db: Db, labEngine = 'container'): Promise<void> {
  await db
    .insert(linesOfBusiness)
    .values(LINES_OF_BUSINESS.map((name) => ({ name })))
    .onConflictDoNothing();
  const [lob] = await db.select().from(linesOfBusiness).where(eq(linesOfBusiness.name, 'Information Technology'));
  const [org] = await db
    .insert(organizations)
    .values({
      slug: makeSlug('acme learning corp'),
      name: 'Acme Learning Corp',
      email: 'org@demo.test',
      org_domain: 'acme.example',
      ip_link: 'https://idp.acme.example/sso',
      description: 'Demo organization',
      status: 1,
      is_approved: 1,
    })
    .returning();
  const hash = await hashPassword(DEMO_PASSWORD);
  const ids: Partial<Record<Role, number>> = {};
  for (const account of DEMO_ACCOUNTS) {
    const inOrg = ['organization', 'org_subadmin', 'organization_user'].includes(account.role);
    const [row] = await db
      .insert(users)
      .values({
        slug: makeSlug(account.first_name, account.last_name),
        first_name: account.first_name,
        last_name: account.last_name,
        email: account.email,
        mobile_no: '9876543210',
        password_hash: hash,
        roles: [account.role],
        user_type: USER_TYPES[account.role],
        organization_id: inOrg ? org!.id : null,
        lob_id: account.role === 'organization' ? lob!.id : null,
        provider_id: account.role === 'provider_user' ? (ids.provider ?? null) : null,
      })
      .returning({ id: users.id });
    ids[account.role] = row!.id;
  }
  await seedOrganizationStructure(db, org!.id, ids);
  await seedMasterData(db);
  await seedTrainerSkills(db, ids.trainer!);
  await seedTrainings(db, org!.id, ids);
  await seedCatalogue(db, org!.id, ids, labEngine);
}

const DAY = 86_400_000;

/** The demo organization's branches and departments, and its accepted sub-admin and member. */
async function seedOrganizationStructure(db: Db, organizationId: number, ids: Partial<Record<Role, number>>) {
  const [branch] = await db
    .insert(branches)
    .values({ organization_id: organizationId, name: 'Head Office' })
    .returning();
  const [department] = await db
    .insert(departments)
    .values({ organization_id: organizationId, name: 'Engineering' })
    .returning();
  const [section] = await db.insert(sections).values({ organization_id: organizationId, name: 'Platform' }).returning();
  const placement = {
    organization_id: organizationId,
    branch_id: branch!.id,
    department_id: department!.id,
    section_id: section!.id,
  };
  await db
    .insert(orgSubadminRequests)
    .values({ user_id: ids.org_subadmin!, ...placement, status: 1, decided_at: new Date() });
  await db.insert(orgMemberships).values([
    { user_id: ids.org_subadmin!, ...placement },
    { user_id: ids.organization_user!, ...placement },
  ]);
}

/** Service prices (spec 02 §9 options) and a few categories. */
async function seedMasterData(db: Db) {
  await db.insert(services).values([
    { service: 'TRAINING (Per Day)', price: 500 },
    { service: 'PRE-ASSESSMENT (Per Test)', price: 25 },
    { service: 'POST-ASSESSMENT (Per Test)', price: 25 },
  ]);
  await db
    .insert(categories)
    .values(['Cloud Computing', 'DevOps', 'Data Science', 'Security'].map((name) => ({ name, slug: makeSlug(name) })));
}

/** The demo trainer's skills, so a provider's trainer search by category finds someone. */
async function seedTrainerSkills(db: Db, trainerId: number) {
  const cats = await db.select({ id: categories.id, name: categories.name }).from(categories);
  const byName = new Map(cats.map((c) => [c.name, c.id]));
  const made = await db
    .insert(skills)
    .values(
      (
        [
          ['Cloud Computing', 'Google Cloud'],
          ['Cloud Computing', 'AWS'],
          ['DevOps', 'Kubernetes'],
          ['DevOps', 'Docker'],
          ['Data Science', 'Python for Data Analysis'],
          ['Security', 'Secure Code Review'],
        ] as const
      ).map(([category, name]) => ({ name, category_id: byName.get(category) ?? 0 })),
    )
    .returning({ id: skills.id });
  await db.insert(trainerSkills).values(
    made.map((s, i) => ({
      trainer_id: trainerId,
      skill_id: s.id,
      experience: 2 + (i % 4),
      type: 'Year',
      rate_per_hours: 40 + 5 * i,
    })),
  );
}

/** One upcoming training of the provider (with the learner and the trainer) and one of the organization. */
async function seedTrainings(db: Db, organizationId: number, ids: Partial<Record<Role, number>>) {
  const start = new Date(Date.now() + DAY);
  const [providerTraining] = await db
    .insert(trainings)
    .values({
      slug: makeSlug('kubernetes fundamentals'),
      link: makeSlug('meet').replace(/-/g, ''),
      name: 'Kubernetes Fundamentals',
      start_date: start,
      end_date: new Date(start.getTime() + 2 * DAY),
      total_training_day: 3,
      number_of_participants: 25,
      description: 'Pods, deployments, services and a first production cluster, hands-on.',
      requirements: ['A laptop with a modern browser', 'Basic Linux shell'],
      owner_user_id: ids.provider!,
      created_by: ids.provider!,
      cost: 1500,
    })
    .returning();
  await db.insert(trainingUsers).values({ training_id: providerTraining!.id, user_id: ids.provider_user! });
  await db.insert(trainingTrainers).values({ training_id: providerTraining!.id, trainer_id: ids.trainer! });
  await db.insert(syllabusTopics).values(
    ['Containers and images', 'Pods and deployments', 'Services and ingress'].map((session_topic) => ({
      training_id: providerTraining!.id,
      session_topic,
    })),
  );
  const [orgTraining] = await db
    .insert(trainings)
    .values({
      slug: makeSlug('secure coding'),
      link: makeSlug('meet').replace(/-/g, ''),
      name: 'Secure Coding for Teams',
      start_date: new Date(start.getTime() + 7 * DAY),
      end_date: new Date(start.getTime() + 8 * DAY),
      total_training_day: 2,
      number_of_participants: 40,
      description: 'The OWASP top ten in practice, for the whole engineering department.',
      organization_id: organizationId,
      created_by: ids.organization!,
      cost: 1000,
    })
    .returning();
  await db.insert(trainingUsers).values({ training_id: orgTraining!.id, user_id: ids.organization_user! });
}

/** Production start: the first admin comes from ADMIN_EMAIL / ADMIN_PASSWORD (or npm run create-admin). */
export async function ensureAdmin(db: Db, email: string, password: string): Promise<boolean> {
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email.toLowerCase()));
  if (existing) return false;
  await db.insert(users).values({
    slug: makeSlug('admin'),
    first_name: 'Admin',
    last_name: 'User',
    email: email.toLowerCase(),
    password_hash: await hashPassword(password),
    roles: ['admin'],
    user_type: USER_TYPES.admin,
  });
  return true;
}

/** The public catalogue: public paid courses of the provider and the organization, and two certifications. */
async function seedCatalogue(db: Db, organizationId: number, ids: Partial<Record<Role, number>>, labEngine: string) {
  await db.insert(courses).values([
    {
      slug: makeSlug('docker from scratch'),
      name: 'Docker from Scratch',
      description: 'Images, containers, volumes and compose, with a lab for every chapter.',
      amount_paise: 49_900,
      is_paid: 1,
      is_public: 1,
      owner_user_id: ids.provider!,
      created_by: ids.provider!,
    },
    {
      slug: makeSlug('terraform on aws'),
      name: 'Terraform on AWS',
      description: 'Infrastructure as code for VPCs, EC2 and RDS, reviewed and tested.',
      amount_paise: 129_900,
      is_paid: 1,
      is_public: 1,
      owner_user_id: ids.provider!,
      created_by: ids.provider!,
    },
    {
      slug: makeSlug('secure code review'),
      name: 'Secure Code Review',
      description: 'Finding the OWASP top ten in real pull requests.',
      amount_paise: 99_900,
      is_paid: 1,
      is_public: 1,
      organization_id: organizationId,
      created_by: ids.organization!,
    },
  ]);
  // the provider's lab account, signed in: its lab exists already, so Create VM opens straight away
  await db.insert(labAccounts).values({
    owner_user_id: ids.provider!,
    username: 'demolabs',
    email: 'labs@demo.test',
    first_name: 'Demo',
    last_name: 'Labs',
    password_hash: await hashPassword(DEMO_PASSWORD),
    authorized_at: new Date(),
  });
  // a lab the provider's learner used twice: an unpaid VM bill on /cloud-payment
  const [vm] = await db
    .insert(vms)
    .values({
      vm_name: makeSlug('demo lab'),
      name: 'Demo Ubuntu Lab',
      image: 'ubuntu',
      protocol: 'ssh',
      zone: 'asia-south1-a',
      ram: 4,
      storage: 20,
      status: 2,
      engine: labEngine,
      owner_user_id: ids.provider!,
      created_by: ids.provider!,
      assigned_user_id: ids.provider_user!,
      assigned_at: new Date(Date.now() - 3 * DAY),
    })
    .returning();
  const hour = 3_600_000;
  // costed by the one price rule at the admin's current prices, as the meter would have
  const perHour = priceOf(await currentRates(db), vm!).perHour;
  await db.insert(vmUsages).values(
    [
      [2, 90],
      [1, 45],
    ].map(([daysAgo, minutes]) => {
      const start = new Date(Date.now() - daysAgo! * DAY);
      return {
        vm_id: vm!.id,
        user_id: ids.provider_user!,
        status: 3,
        vm_start: start,
        vm_stop: new Date(start.getTime() + (minutes! / 60) * hour),
        used_min: minutes!,
        cost_paise: runCostPaise(perHour, minutes!),
      };
    }),
  );
  const masters = await db
    .insert(certificationMasters)
    .values([
      { type: 'CertificationType', name: 'AWS' },
      { type: 'CertificationType', name: 'Google' },
      { type: 'CertificationType', name: 'Microsoft' },
      { type: 'Product', name: 'Amazon Web Services' },
      { type: 'Product', name: 'Google Cloud' },
    ])
    .onConflictDoNothing()
    .returning();
  const id = (type: string, name: string) => masters.find((m) => m.type === type && m.name === name)?.id;
  const aws = id('CertificationType', 'AWS');
  const google = id('CertificationType', 'Google');
  const awsProduct = id('Product', 'Amazon Web Services');
  const gcpProduct = id('Product', 'Google Cloud');
  if (!aws || !google || !awsProduct || !gcpProduct) return; // masters already kept by the admin
  await db.insert(certifications).values([
    {
      name: 'AWS Certified Solutions Architect - Associate',
      level: 'Intermediate',
      certification_type_id: aws,
      product_id: awsProduct,
      duration: '130 minutes',
      exam_link: 'https://aws.amazon.com/certification/certified-solutions-architect-associate/',
      certification_description: 'Design secure, resilient, high-performing and cost-optimised architectures on AWS.',
      cost_doller: 150,
      cost_inr: 12_500,
    },
    {
      name: 'Google Cloud Associate Cloud Engineer',
      level: 'Beginner',
      certification_type_id: google,
      product_id: gcpProduct,
      duration: '2 hours',
      exam_link: 'https://cloud.google.com/learn/certification/cloud-engineer',
      certification_description:
        'Deploy applications, monitor operations and manage enterprise solutions on Google Cloud.',
      cost_doller: 125,
      cost_inr: 10_400,
    },
  ]);
}
