import { sql } from 'drizzle-orm';
import { index, integer, numeric, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** Admin master data (spec 02 §3): global records, maintained by the platform admin. */

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
const money = (name: string) => numeric(name, { precision: 14, scale: 2, mode: 'number' });
const hourly = (name: string) => numeric(name, { precision: 12, scale: 4, mode: 'number' });

export const categories = pgTable(
  'categories',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    slug: text('slug').notNull().unique(),
    created_at: createdAt(),
  },
  (t) => [uniqueIndex('categories_name_unique').on(sql`lower(${t.name})`)],
);

/** Pick-list items of the certification form; `type` is one of CERTIFICATION_MASTER_TYPES. */
export const certificationMasters = pgTable(
  'certification_masters',
  {
    id: serial('id').primaryKey(),
    type: text('type').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    overview: text('overview'),
    created_at: createdAt(),
  },
  (t) => [uniqueIndex('certification_masters_type_name_unique').on(t.type, sql`lower(${t.name})`)],
);

export const certifications = pgTable(
  'certifications',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    level: text('level').notNull(),
    certification_type_id: integer('certification_type_id')
      .notNull()
      .references(() => certificationMasters.id),
    product_id: integer('product_id')
      .notNull()
      .references(() => certificationMasters.id),
    role_id: integer('role_id').references(() => certificationMasters.id),
    exam_id: integer('exam_id').references(() => certificationMasters.id),
    certification_role_id: integer('certification_role_id').references(() => certificationMasters.id),
    exam_link: text('exam_link'),
    product_link: text('product_link'),
    duration: text('duration'),
    certification_description: text('certification_description'),
    certification_prerequisites: text('certification_prerequisites'),
    certification_details: text('certification_details'),
    remark: text('remark'),
    cost_doller: money('cost_doller').notNull().default(0),
    cost_inr: money('cost_inr').notNull().default(0),
    recommended_experience: numeric('recommended_experience', { precision: 6, scale: 2, mode: 'number' })
      .notNull()
      .default(0),
    is_set: integer('is_set').notNull().default(0),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [index('certifications_type_idx').on(t.certification_type_id), index('certifications_name_idx').on(t.name)],
);

export const trainingCourses = pgTable(
  'training_courses',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    category_id: integer('category_id')
      .notNull()
      .references(() => categories.id),
    level: text('level').notNull(),
    duration: numeric('duration', { precision: 10, scale: 2, mode: 'number' }).notNull(),
    duration_type: text('duration_type').notNull(),
    price: money('price').notNull(),
    created_at: createdAt(),
  },
  (t) => [index('training_courses_category_idx').on(t.category_id)],
);

export const trainingModules = pgTable(
  'training_modules',
  {
    id: serial('id').primaryKey(),
    course_id: integer('course_id')
      .notNull()
      .references(() => trainingCourses.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    price: money('price').notNull(),
    duration: numeric('duration', { precision: 10, scale: 2, mode: 'number' }).notNull(),
    created_at: createdAt(),
  },
  (t) => [index('training_modules_course_idx').on(t.course_id)],
);

export const trainingTopics = pgTable(
  'training_topics',
  {
    id: serial('id').primaryKey(),
    course_id: integer('course_id')
      .notNull()
      .references(() => trainingCourses.id, { onDelete: 'cascade' }),
    module_id: integer('module_id')
      .notNull()
      .references(() => trainingModules.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    created_at: createdAt(),
  },
  (t) => [index('training_topics_module_idx').on(t.module_id), index('training_topics_course_idx').on(t.course_id)],
);

/** Service prices: one record per service option (SERVICE_OPTIONS). */
export const services = pgTable('services', {
  id: serial('id').primaryKey(),
  service: text('service').notNull().unique(),
  price: money('price').notNull(),
  valid_date: timestamp('valid_date', { withTimezone: true }),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

/** VM prices per hour by RAM: `linux`/`windows` are the platform's prices, `cl_*` the cloud's. */
export const vmPrices = pgTable('vm_prices', {
  id: serial('id').primaryKey(),
  memory: integer('memory').notNull().unique(),
  virtual_cpu: integer('virtual_cpu').notNull(),
  linux: hourly('linux').notNull(),
  windows: hourly('windows').notNull(),
  cl_linux_price: hourly('cl_linux_price').notNull(),
  cl_windows_price: hourly('cl_windows_price').notNull(),
  updated_at: updatedAt(),
});

/** Monthly storage prices per GB: a single row (id 1). */
export const vmStoragePrices = pgTable('vm_storage_prices', {
  id: integer('id').primaryKey(),
  storage_price: hourly('storage_price').notNull(),
  cl_storage_price: hourly('cl_storage_price').notNull(),
  updated_at: updatedAt(),
});
