import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { trainerBankDetails, trainerProfiles } from '../src/db/schema';
import { encryptClearKyc } from '../src/domains/trainers/encrypt-clear-kyc';
import { createTestApp, type TestApp } from './helpers';
import { bankBody } from './trainers-support';

/** GSTINs and IBANs stored in clear before they were encrypted are encrypted at start, once. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

it('encrypts the clear values in place, leaves encrypted ones, and the trainer still reads them whole', async () => {
  const trainer = await t.loginAs({ role: 'trainer' });
  const gstin = '27PQRST6789K1Z5';
  const iban = 'GB29NWBK60161331926819';
  // rows as an older version wrote them
  await t.deps.db.insert(trainerProfiles).values({ user_id: trainer.user.id, gstin_no: gstin });
  const added = await t.post('add-bank-details', bankBody(), trainer.token);
  expect(added.status).toBe(200);
  await t.deps.db.update(trainerBankDetails).set({ iban_code: iban }).where(eq(trainerBankDetails.id, added.body.id));
  // a clear value reads as it was stored meanwhile
  expect((await t.post('get-trainer-profile', {}, trainer.token)).body.success.GSTIN_no).toBe(gstin);

  expect(await encryptClearKyc(t.deps)).toBe(2);
  expect(await encryptClearKyc(t.deps)).toBe(0);
  const [profile] = await t.deps.db.select().from(trainerProfiles).where(eq(trainerProfiles.user_id, trainer.user.id));
  const [bank] = await t.deps.db.select().from(trainerBankDetails).where(eq(trainerBankDetails.id, added.body.id));
  expect(profile!.gstin_no).toMatch(/^fc1\./);
  expect(bank!.iban_code).toMatch(/^fc1\./);
  expect((await t.post('get-trainer-profile', {}, trainer.token)).body.success.GSTIN_no).toBe(gstin);
  expect((await t.post('get-bank-details', { id: added.body.id }, trainer.token)).body.success.iban_code).toBe(iban);
});
