import { sql } from 'drizzle-orm';
import { date, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { categories } from './master-data';
import { trainings } from './trainings';

/**
 * The trainer's own data and take calls (spec 02 §3). Aadhar, PAN, GSTIN and account numbers are stored
 * encrypted (`deps.cipher`, text `fc1.…`); pictures are file-store keys.
 */

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
const ts = (name: string) => timestamp(name, { withTimezone: true });
const trainerRef = () =>
  integer('trainer_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

/** The profile beyond the account's name, e-mail and mobile (which stay on users). */
export const trainerProfiles = pgTable('trainer_profiles', {
  user_id: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  email2: text('email2'),
  email3: text('email3'),
  mobile_no2: text('mobile_no2'),
  mobile_no3: text('mobile_no3'),
  base_location: text('base_location'),
  address: text('address'),
  dob: date('dob', { mode: 'string' }),
  /** encrypted */
  aadhar_no: text('aadhar_no'),
  /** encrypted */
  pan_no: text('pan_no'),
  /** encrypted (characters 3 to 12 of a GSTIN are its holder's PAN) */
  gstin_no: text('gstin_no'),
  state_code: text('state_code'),
  msme_reg_no: text('msme_reg_no'),
  type_of_enterprise: text('type_of_enterprise'),
  category_of_service: text('category_of_service'),
  services_rendered: text('services_rendered'),
  vat_no: text('vat_no'),
  experience_over_all: integer('experience_over_all'),
  /** file-store keys of the original and its thumbnail */
  profile_pic_key: text('profile_pic_key'),
  profile_pic_thumb_key: text('profile_pic_thumb_key'),
  address_proof_key: text('address_proof_key'),
  address_proof_thumb_key: text('address_proof_thumb_key'),
  updated_at: updatedAt(),
});

export const trainerBankDetails = pgTable(
  'trainer_bank_details',
  {
    id: serial('id').primaryKey(),
    trainer_id: trainerRef(),
    bank_name: text('bank_name').notNull(),
    bank_address: text('bank_address'),
    bank_account_name: text('bank_account_name').notNull(),
    /** encrypted */
    account_number: text('account_number').notNull(),
    /** last four characters, for masked lists without decrypting */
    account_last4: text('account_last4').notNull(),
    account_type: text('account_type').notNull(),
    ifsc_code: text('ifsc_code').notNull(),
    micr_code: text('micr_code'),
    iban_code: text('iban_code'),
    bsr_code: text('bsr_code'),
    created_at: createdAt(),
  },
  (t) => [index('trainer_bank_details_trainer_idx').on(t.trainer_id)],
);

/** Skills of a category (spec 02 §3 Skill); `/create-skill` adds one. */
export const skills = pgTable(
  'skills',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    category_id: integer('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
    created_at: createdAt(),
  },
  (t) => [uniqueIndex('skills_category_name_unique').on(t.category_id, sql`lower(${t.name})`)],
);

/** A trainer's skill with experience and rate; `id` travels as tsid. */
export const trainerSkills = pgTable(
  'trainer_skills',
  {
    id: serial('id').primaryKey(),
    trainer_id: trainerRef(),
    skill_id: integer('skill_id')
      .notNull()
      .references(() => skills.id, { onDelete: 'cascade' }),
    experience: integer('experience').notNull(),
    /** Month or Year */
    type: text('type').notNull(),
    /** whole dollars per hour */
    rate_per_hours: integer('rate_per_hours').notNull(),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('trainer_skills_trainer_skill_unique').on(t.trainer_id, t.skill_id),
    index('trainer_skills_skill_idx').on(t.skill_id),
  ],
);

export const trainerCertificates = pgTable(
  'trainer_certificates',
  {
    id: serial('id').primaryKey(),
    trainer_id: trainerRef(),
    skill_id: integer('skill_id')
      .notNull()
      .references(() => skills.id, { onDelete: 'cascade' }),
    certificate_name: text('certificate_name').notNull(),
    image_key: text('image_key').notNull(),
    thumb_key: text('thumb_key').notNull(),
    verify_link: text('verify_link'),
    certify_date: date('certify_date', { mode: 'string' }).notNull(),
    created_at: createdAt(),
  },
  (t) => [index('trainer_certificates_trainer_idx').on(t.trainer_id)],
);

export const trainerReferences = pgTable(
  'trainer_references',
  {
    id: serial('id').primaryKey(),
    trainer_id: trainerRef(),
    skill_id: integer('skill_id')
      .notNull()
      .references(() => skills.id, { onDelete: 'cascade' }),
    company_name: text('company_name').notNull(),
    company_description: text('company_description').notNull(),
    training_conducted_date: date('training_conducted_date', { mode: 'string' }).notNull(),
    created_at: createdAt(),
  },
  (t) => [index('trainer_references_trainer_idx').on(t.trainer_id)],
);

/** A manager's request to sound out trainers for one training (tenant: the training's). */
export const takeCalls = pgTable(
  'take_calls',
  {
    id: serial('id').primaryKey(),
    slug: text('slug').notNull().unique(),
    training_id: integer('training_id')
      .notNull()
      .references(() => trainings.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    start: ts('start').notNull(),
    end: ts('end').notNull(),
    /** calendar SEQUENCE of the invitation: raised on every reschedule */
    sequence: integer('sequence').notNull().default(0),
    created_by: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    created_at: createdAt(),
    /**
     * The training's tenant, copied by a trigger on every insert (migration 0026; a training never
     * changes tenant), so the tenant's list reads its own calls latest first off one index
     */
    owner_user_id: integer('owner_user_id'),
    organization_id: integer('organization_id'),
  },
  (t) => [
    index('take_calls_training_idx').on(t.training_id),
    // the list is latest first within a tenant: walked backwards, the page stops after its 20 rows
    // however the other tenants' calls lie in time (decision 0050)
    index('take_calls_owner_start_idx').on(t.owner_user_id, t.start, t.id),
    index('take_calls_org_start_idx').on(t.organization_id, t.start, t.id),
  ],
);

/** One trainer in a take call (the take call detail): the trainer's answer. */
export const takeCallTrainers = pgTable(
  'take_call_trainers',
  {
    id: serial('id').primaryKey(),
    take_call_id: integer('take_call_id')
      .notNull()
      .references(() => takeCalls.id, { onDelete: 'cascade' }),
    trainer_id: trainerRef(),
    /** 0 Schedule, 1 Available, 2 Reschedule, 3 Not Interested */
    status: integer('status').notNull().default(0),
    propose_date1: ts('propose_date1'),
    propose_date2: ts('propose_date2'),
    propose_date3: ts('propose_date3'),
    remark: text('remark'),
    /** 1 once assigned to the training (spec spelling) */
    is_assing: integer('is_assing').notNull().default(0),
    answered_at: ts('answered_at'),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('take_call_trainers_unique').on(t.take_call_id, t.trainer_id),
    index('take_call_trainers_trainer_idx').on(t.trainer_id),
  ],
);

/** The training's requirements as one trainer confirms them (status 1 selected). */
export const takeCallRequirements = pgTable(
  'take_call_requirements',
  {
    id: serial('id').primaryKey(),
    take_call_trainer_id: integer('take_call_trainer_id')
      .notNull()
      .references(() => takeCallTrainers.id, { onDelete: 'cascade' }),
    requirement: text('requirement').notNull(),
    status: integer('status').notNull().default(0),
    position: integer('position').notNull().default(0),
  },
  (t) => [index('take_call_requirements_detail_idx').on(t.take_call_trainer_id)],
);
