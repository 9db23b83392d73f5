import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { organizations, users } from './accounts';
import { certifications } from './master-data';

/**
 * The public catalogue's cart and the payments domain (spec 01 §3 Cart item, §4 Payment; spec 02 §3
 * VM payment data and history). Money is integer paise; the wire shows rupees.
 */

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const ts = (name: string) => timestamp(name, { withTimezone: true });

/**
 * One cart line: an anonymous visitor's under their device key (user_id null), a signed-in
 * account's under user_id. The price is never stored: it is always read from the catalogue.
 */
export const cartItems = pgTable(
  'cart_items',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    device_key: text('device_key'),
    /** 'is_course' | 'is_certificate' */
    type: text('type').notNull(),
    type_id: integer('type_id').notNull(),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('cart_items_user_item_idx').on(t.user_id, t.type, t.type_id),
    uniqueIndex('cart_items_device_item_idx').on(t.device_key, t.type, t.type_id),
  ],
);

/**
 * A payment: one gateway order for an amount computed on the server. status 1 Success, 2 Failed,
 * 3 Pending. `purpose` 'cart' (a learner's purchase) or 'vm' (a tenant's VM bill, tenant columns set).
 * `fulfilled_at` is set once, in the same transaction as the purchase, so a replayed callback or
 * webhook can never fulfil twice.
 */
export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    receipt_no: text('receipt_no').notNull().unique(),
    purpose: text('purpose').notNull(),
    user_id: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    owner_user_id: integer('owner_user_id').references(() => users.id, { onDelete: 'cascade' }),
    organization_id: integer('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    gateway: text('gateway').notNull(),
    gateway_order_id: text('gateway_order_id').notNull().unique(),
    gateway_payment_id: text('gateway_payment_id'),
    currency: text('currency').notNull().default('INR'),
    /** what is charged, GST included */
    amount_paise: integer('amount_paise').notNull(),
    /** the GST included in amount_paise, and its rate in basis points (1800 = 18 %) */
    tax_paise: integer('tax_paise').notNull().default(0),
    gst_bp: integer('gst_bp').notNull().default(0),
    status: integer('status').notNull().default(3),
    failure_reason: text('failure_reason'),
    refunded_paise: integer('refunded_paise').notNull().default(0),
    paid_at: ts('paid_at'),
    fulfilled_at: ts('fulfilled_at'),
    created_at: createdAt(),
    updated_at: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    // the lists are newest first: the page reads its 20 rows off the index (decision 0047)
    index('payments_user_idx').on(t.user_id, t.created_at, t.id),
    index('payments_owner_idx').on(t.owner_user_id, t.purpose, t.created_at, t.id),
    index('payments_org_idx').on(t.organization_id, t.purpose, t.created_at, t.id),
  ],
);

/** What a payment buys: kind 'course' | 'certification' | 'vm_usage', with the price it was ordered at. */
export const paymentItems = pgTable(
  'payment_items',
  {
    id: serial('id').primaryKey(),
    payment_id: integer('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    ref_id: integer('ref_id').notNull(),
    name: text('name').notNull(),
    amount_paise: integer('amount_paise').notNull(),
  },
  (t) => [index('payment_items_payment_idx').on(t.payment_id), index('payment_items_ref_idx').on(t.kind, t.ref_id)],
);

/** Gateway webhook events already handled (by the gateway's event id), so a replay is a no-op. */
export const paymentEvents = pgTable('payment_events', {
  id: serial('id').primaryKey(),
  gateway: text('gateway').notNull(),
  event_id: text('event_id').notNull().unique(),
  type: text('type').notNull(),
  gateway_order_id: text('gateway_order_id'),
  created_at: createdAt(),
});

/** A certification bought in the catalogue (one row per learner and certification). */
export const certificationPurchases = pgTable(
  'certification_purchases',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    certification_id: integer('certification_id')
      .notNull()
      .references(() => certifications.id, { onDelete: 'cascade' }),
    payment_id: integer('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    created_at: createdAt(),
  },
  (t) => [uniqueIndex('certification_purchases_user_cert_idx').on(t.user_id, t.certification_id)],
);

/** A tenant's GST rate for its receipts (basis points); absent means the platform default. */
export const billingSettings = pgTable(
  'billing_settings',
  {
    id: serial('id').primaryKey(),
    owner_user_id: integer('owner_user_id').references(() => users.id, { onDelete: 'cascade' }),
    organization_id: integer('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    gst_bp: integer('gst_bp').notNull(),
    gstin: text('gstin'),
    updated_at: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('billing_settings_owner_idx').on(t.owner_user_id),
    uniqueIndex('billing_settings_org_idx').on(t.organization_id),
  ],
);
