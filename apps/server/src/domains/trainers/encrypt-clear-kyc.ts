import { and, eq, isNotNull, notLike } from 'drizzle-orm';
import { trainerBankDetails, trainerProfiles } from '../../db/schema';
import type { Deps } from '../../platform/deps';

/**
 * GSTINs (which hold their owner's PAN) and IBANs (which hold the account number) were once stored in
 * clear. At start, any such value still in clear is encrypted in place; encrypted ones (`fc1.…`) are
 * left alone, so running it again changes nothing. Answers how many values it encrypted.
 */
export async function encryptClearKyc(deps: Pick<Deps, 'db' | 'cipher'>): Promise<number> {
  let done = 0;
  const profiles = await deps.db
    .select({ id: trainerProfiles.user_id, value: trainerProfiles.gstin_no })
    .from(trainerProfiles)
    .where(and(isNotNull(trainerProfiles.gstin_no), notLike(trainerProfiles.gstin_no, 'fc1.%')));
  for (const p of profiles) {
    await deps.db
      .update(trainerProfiles)
      .set({ gstin_no: deps.cipher.encrypt(p.value!) })
      .where(and(eq(trainerProfiles.user_id, p.id), eq(trainerProfiles.gstin_no, p.value!)));
    done++;
  }
  const banks = await deps.db
    .select({ id: trainerBankDetails.id, value: trainerBankDetails.iban_code })
    .from(trainerBankDetails)
    .where(and(isNotNull(trainerBankDetails.iban_code), notLike(trainerBankDetails.iban_code, 'fc1.%')));
  for (const b of banks) {
    await deps.db
      .update(trainerBankDetails)
      .set({ iban_code: deps.cipher.encrypt(b.value!) })
      .where(and(eq(trainerBankDetails.id, b.id), eq(trainerBankDetails.iban_code, b.value!)));
    done++;
  }
  return done;
}
