import {
  type ADMIN_BANK_SORT_KEYS,
  type adminBankListRequest,
  type BANK_SORT_KEYS,
  type bankListRequest,
  type bankRequest,
  MSG,
  maskTail,
  type updateBankRequest,
} from '@trainlab/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { trainerBankDetails, users } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { notFound } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { countWhere, orderFor, pageWindow, searchWhere, toPage, totalOver } from '../../platform/http/paging';

/**
 * Bank accounts of a trainer. The account number is encrypted at rest; lists show it masked from
 * the stored last four characters (no decryption); only its trainer and the admin read it whole.
 * The IBAN, which holds the account number, is encrypted too and shown masked in lists.
 */

type BankRow = typeof trainerBankDetails.$inferSelect;
const isAdmin = (auth: AuthContext) => auth.user.roles.includes('admin');

/** An IBAN as stored: encrypted, or in clear when saved before IBANs were encrypted. */
const ibanOf = (deps: Deps, stored: string | null) =>
  stored?.startsWith('fc1.') ? deps.cipher.decrypt(stored) : stored;

const toBank = (row: BankRow, account_number: string, iban_code: string | null) => ({
  id: row.id,
  bank_name: row.bank_name,
  bank_address: row.bank_address,
  bank_account_name: row.bank_account_name,
  account_number,
  account_type: row.account_type,
  ifsc_code: row.ifsc_code,
  micr_code: row.micr_code,
  iban_code,
  bsr_code: row.bsr_code,
});

/** A bank row of the calling trainer (any trainer's for the admin); 404 otherwise. */
async function bankFor(deps: Deps, auth: AuthContext, id: number): Promise<BankRow> {
  const owner = isAdmin(auth) ? undefined : eq(trainerBankDetails.trainer_id, auth.user.id);
  const [row] = await deps.db
    .select()
    .from(trainerBankDetails)
    .where(and(eq(trainerBankDetails.id, id), owner));
  if (!row) throw notFound();
  return row;
}

export async function bankList(deps: Deps, auth: AuthContext, q: z.output<typeof bankListRequest>) {
  const trainerId = isAdmin(auth) ? (q.trainer_id ?? 0) : auth.user.id;
  const w = pageWindow(q);
  const where = and(
    eq(trainerBankDetails.trainer_id, trainerId),
    searchWhere(q.search, [
      trainerBankDetails.bank_name,
      trainerBankDetails.bank_account_name,
      trainerBankDetails.ifsc_code,
    ]),
  );
  const keys: Record<(typeof BANK_SORT_KEYS)[number], typeof trainerBankDetails.bank_name> = {
    bank_name: trainerBankDetails.bank_name,
    created_at: trainerBankDetails.created_at as never,
  };
  const rows = await deps.db
    .select({ row: trainerBankDetails, total: totalOver() })
    .from(trainerBankDetails)
    .where(where)
    .orderBy(...orderFor(q.sort, keys, [sql`${trainerBankDetails.created_at} desc`], trainerBankDetails.id))
    .limit(w.limit)
    .offset(w.offset);
  return toPage(
    rows,
    w,
    (r) => toBank(r.row, maskTail(`XXXXXXXX${r.row.account_last4}`)!, maskTail(ibanOf(deps, r.row.iban_code))),
    () => countWhere(deps.db, trainerBankDetails, where),
  );
}

/** /admin-bank-details-list: every trainer's accounts, masked from the stored last four (no decryption). */
export async function adminBankList(deps: Deps, q: z.output<typeof adminBankListRequest>) {
  const w = pageWindow(q);
  const trainerName = sql<string>`${users.first_name} || ' ' || ${users.last_name}`;
  const where = searchWhere(q.search, [
    users.first_name,
    users.last_name,
    users.email,
    trainerBankDetails.bank_name,
    trainerBankDetails.bank_account_name,
    trainerBankDetails.ifsc_code,
  ]);
  const keys: Record<(typeof ADMIN_BANK_SORT_KEYS)[number], typeof trainerBankDetails.bank_name> = {
    trainer_name: trainerName as never,
    bank_name: trainerBankDetails.bank_name,
    created_at: trainerBankDetails.created_at as never,
  };
  const rows = await deps.db
    .select({ row: trainerBankDetails, trainer_name: trainerName, trainer_email: users.email, total: totalOver() })
    .from(trainerBankDetails)
    .innerJoin(users, eq(users.id, trainerBankDetails.trainer_id))
    .where(where)
    .orderBy(...orderFor(q.sort, keys, [sql`${trainerBankDetails.created_at} desc`], trainerBankDetails.id))
    .limit(w.limit)
    .offset(w.offset);
  return toPage(
    rows,
    w,
    (r) => ({
      ...toBank(r.row, maskTail(`XXXXXXXX${r.row.account_last4}`)!, maskTail(ibanOf(deps, r.row.iban_code))),
      trainer_id: r.row.trainer_id,
      trainer_name: r.trainer_name.trim(),
      trainer_email: r.trainer_email,
    }),
    async () => {
      const [n] = await deps.db
        .select({ n: sql<number>`count(*)::int` })
        .from(trainerBankDetails)
        .innerJoin(users, eq(users.id, trainerBankDetails.trainer_id))
        .where(where);
      return Number(n?.n ?? 0);
    },
  );
}

const columns = (deps: Deps, b: z.output<typeof bankRequest>) => ({
  bank_name: b.bank_name,
  bank_address: b.bank_address,
  bank_account_name: b.bank_account_name,
  account_number: deps.cipher.encrypt(b.account_number),
  account_last4: b.account_number.slice(-4),
  account_type: b.account_type,
  ifsc_code: b.ifsc_code,
  micr_code: b.micr_code,
  iban_code: b.iban_code ? deps.cipher.encrypt(b.iban_code) : null,
  bsr_code: b.bsr_code,
});

export async function addBank(deps: Deps, auth: AuthContext, body: z.output<typeof bankRequest>) {
  const [row] = await deps.db
    .insert(trainerBankDetails)
    .values({ trainer_id: auth.user.id, ...columns(deps, body) })
    .returning({ id: trainerBankDetails.id });
  return { message: MSG.recordAdded, id: row!.id };
}

export async function getBank(deps: Deps, auth: AuthContext, id: number) {
  const row = await bankFor(deps, auth, id);
  return { success: toBank(row, deps.cipher.decrypt(row.account_number), ibanOf(deps, row.iban_code)) };
}

export async function updateBank(deps: Deps, auth: AuthContext, body: z.output<typeof updateBankRequest>) {
  const row = await bankFor(deps, auth, body.id);
  await deps.db.update(trainerBankDetails).set(columns(deps, body)).where(eq(trainerBankDetails.id, row.id));
  return { message: MSG.recordUpdated, id: row.id };
}

export async function deleteBank(deps: Deps, auth: AuthContext, id: number) {
  const row = await bankFor(deps, auth, id);
  await deps.db.delete(trainerBankDetails).where(eq(trainerBankDetails.id, row.id));
  return { message: MSG.recordDeleted };
}
