import { integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * One-time codes of the public student registration (/training-register/{slug}). One live code per
 * channel and destination; a new request replaces it. Only a hash of the code is stored.
 */
export const otpCodes = pgTable(
  'otp_codes',
  {
    id: serial('id').primaryKey(),
    /** 'mobile' or 'email' */
    channel: text('channel').notNull(),
    /** the normalised mobile number or lower-cased e-mail */
    destination: text('destination').notNull(),
    code_hash: text('code_hash').notNull(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** wrong guesses so far; the code is dead once the limit is reached */
    attempts: integer('attempts').notNull().default(0),
    verified_at: timestamp('verified_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('otp_codes_destination_unique').on(t.channel, t.destination)],
);
