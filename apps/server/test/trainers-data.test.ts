import { randomBytes } from 'node:crypto';
import { ORG_MSG, TRAINER_MSG } from '@trainlab/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trainerBankDetails, trainerProfiles } from '../src/db/schema';
import { FieldCipher, parseFieldKeys } from '../src/platform/field-cipher';
import type { TestApp } from './helpers';
import { expectGuarded } from './org-fixtures';
import {
  badChecksumAadhar,
  bankBody,
  image,
  makeCategory,
  postForm,
  profileFields,
  trainerTestApp,
  validAadhar,
} from './trainers-support';

let t: TestApp;
let cleanup: () => Promise<void>;
let trainer: string;
let trainerId: number;
let other: string;
let admin: string;
beforeAll(async () => {
  ({ t, cleanup } = await trainerTestApp());
  const a = await t.loginAs({ role: 'trainer', first_name: 'Tanvi' });
  trainer = a.token;
  trainerId = a.user.id;
  other = (await t.loginAs({ role: 'trainer', first_name: 'Other' })).token;
  admin = (await t.loginAs({ role: 'admin' })).token;
});
afterAll(() => cleanup());

const today = () => new Date().toISOString().slice(0, 10);
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

describe('guards', () => {
  it('trainer-only calls answer 401 without a session and 403 for every other role', async () => {
    await expectGuarded(
      t,
      [
        'get-trainer-profile',
        'update-trainer-profile',
        'trainer-dashboard',
        'add-bank-details',
        'update-bank-details',
        'delete-bank-details',
        'trainer-skill-list',
        'add-trainer-skill',
        'get-trainer-skill',
        'update-trainer-skill',
        'delete-trainer-skill',
        'trainer-certificate-list',
        'get-trainer-certificate',
        'add-trainer-certificate',
        'update-trainer-certificate',
        'delete-trainer-certificate',
        'trainer-reference-list',
        'get-trainer-reference',
        'add-trainer-reference',
        'update-trainer-reference',
        'delete-trainer-reference',
      ],
      ['trainer'],
    );
    await expectGuarded(t, ['bank-details-list', 'get-bank-details', 'create-skill'], ['trainer', 'admin']);
    await expectGuarded(
      t,
      ['get-skills', 'skill-categories'],
      ['trainer', 'admin', 'provider', 'organization', 'org_subadmin'],
    );
  });
});

describe('profile', () => {
  it('saves every field with both pictures, shows codes upper-case, thumbnails and secrets encrypted at rest', async () => {
    const fields = profileFields({ pan_no: 'pqrst6789k' });
    const png = await image('png', 1200);
    const jpg = await image('jpeg', 300);
    const res = await postForm(t, 'update-trainer-profile', trainer, fields, [
      { field: 'profile_pic', filename: 'me.png', data: png },
      { field: 'address_proof', filename: 'proof.JPG', data: jpg },
    ]);
    expect(res).toEqual({ status: 200, body: { message: TRAINER_MSG.profileUpdated } });

    const got = await t.post('get-trainer-profile', {}, trainer);
    expect(got.status).toBe(200);
    expect(got.body.success).toMatchObject({
      first_name: 'Tanvi',
      email: fields.email,
      aadhar_no: fields.aadhar_no,
      pan_no: 'PQRST6789K',
      GSTIN_no: '27ABCDE1234F1Z0',
      MSME_reg_no: 'UDYAM-MH-01-0000001',
      state_code: '27',
      dob: '1990-04-01',
      experience_over_all: 8,
      email2: null,
      vat_no: null,
    });
    // a thumbnail, smaller than the original, as a data URL
    const thumb = Buffer.from(got.body.success.profile_pic.replace(/^data:image\/jpeg;base64,/, ''), 'base64');
    expect(got.body.success.profile_pic).toMatch(/^data:image\/jpeg;base64,/);
    expect(thumb.length).toBeGreaterThan(100);
    expect(thumb.length).toBeLessThan(png.length);
    expect(got.body.success.address_proof).toMatch(/^data:image\/jpeg;base64,/);

    // the database holds no readable Aadhar or PAN
    const dump = JSON.stringify(
      (await t.deps.db.execute(sql`select * from trainer_profiles`)) as unknown as { rows: unknown[] },
    );
    expect(dump).not.toContain(fields.aadhar_no);
    expect(dump).not.toContain('PQRST6789K');
    const [row] = await t.deps.db.select().from(trainerProfiles).where(eq(trainerProfiles.user_id, trainerId));
    expect(row!.aadhar_no).toMatch(/^fc1\./);
    expect(row!.pan_no).toMatch(/^fc1\./);
  });

  it('keeps the pictures when the form sends none, and a new one replaces the old', async () => {
    const before = (await t.post('get-trainer-profile', {}, trainer)).body.success;
    const res = await postForm(t, 'update-trainer-profile', trainer, profileFields({ email: before.email }));
    expect(res.status).toBe(200);
    const after = (await t.post('get-trainer-profile', {}, trainer)).body.success;
    expect(after.profile_pic).toBe(before.profile_pic);
    await postForm(t, 'update-trainer-profile', trainer, profileFields({ email: before.email }), [
      { field: 'profile_pic', filename: 'new.jpeg', data: await image('jpeg', 100) },
    ]);
    expect((await t.post('get-trainer-profile', {}, trainer)).body.success.profile_pic).not.toBe(before.profile_pic);
  });

  it('422 per field: required, PAN, GSTIN, Aadhar checksum, e-mail, mobile, future birth date', async () => {
    const res = await postForm(
      t,
      'update-trainer-profile',
      trainer,
      profileFields({
        first_name: '',
        email: 'not-mail',
        email2: 'also-bad',
        mobile_no: 'abc',
        pan_no: 'ABCD1234F',
        GSTIN_no: '27ABCDE1234F1Y5',
        aadhar_no: badChecksumAadhar(),
        state_code: '2A',
        dob: tomorrow(),
        experience_over_all: 71,
      }),
    );
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      first_name: ['The first name field is required.'],
      email: ['The email must be a valid email address.'],
      email2: ['The email2 must be a valid email address.'],
      mobile_no: ['The mobile no must be a valid phone number.'],
      pan_no: ['The pan no format is invalid.'],
      GSTIN_no: ['The GSTIN no format is invalid.'],
      aadhar_no: ['The aadhar no is not a valid Aadhar number.'],
      state_code: ['The state code format is invalid.'],
      dob: ['The dob must be a date before or equal to today.'],
      experience_over_all: ['The experience over all must not be greater than 70.'],
    });
    // limits: a birth date of today and experience 70 pass; an Aadhar starting with 1 fails
    const ok = await postForm(
      t,
      'update-trainer-profile',
      trainer,
      profileFields({
        dob: today(),
        experience_over_all: 70,
        aadhar_no: validAadhar('2345 6789 012'.replace(/ /g, '')),
      }),
    );
    expect(ok.status).toBe(200);
    const one = await postForm(
      t,
      'update-trainer-profile',
      trainer,
      profileFields({ aadhar_no: validAadhar('13456789012') }),
    );
    expect(one.body).toEqual({ aadhar_no: ['The aadhar no is not a valid Aadhar number.'] });
    // a GSTIN of the right shape whose check character is mistyped (valid: 27AAPFU0939F1ZV)
    const gstin = await postForm(t, 'update-trainer-profile', trainer, profileFields({ GSTIN_no: '27AAPFU0939F1ZX' }));
    expect(gstin.body).toEqual({ GSTIN_no: ['The GSTIN no is not valid: check it for a mistyped character.'] });
  });

  it('422 for a picture that is not a png/jpg by name or by content, and for a taken e-mail', async () => {
    const byName = await postForm(t, 'update-trainer-profile', trainer, profileFields(), [
      { field: 'profile_pic', filename: 'me.gif', data: await image('png') },
    ]);
    expect(byName).toEqual({ status: 422, body: { profile_pic: [TRAINER_MSG.imageType] } });
    const byContent = await postForm(t, 'update-trainer-profile', trainer, profileFields(), [
      { field: 'address_proof', filename: 'proof.png', data: Buffer.from('%PDF-1.4 not an image') },
    ]);
    expect(byContent).toEqual({ status: 422, body: { address_proof: [TRAINER_MSG.imageType] } });
    const someone = await t.createUser({ role: 'user' });
    const taken = await postForm(t, 'update-trainer-profile', trainer, profileFields({ email: someone.email }));
    expect(taken.status).toBe(422);
    expect(Object.keys(taken.body)).toEqual(['email']);
  });

  it('one 422 holds every field of the submit: both pictures’ types beside the Aadhar, PAN and a taken e-mail', async () => {
    const someone = await t.createUser({ role: 'user' });
    const before = (await t.post('get-trainer-profile', {}, trainer)).body.success;
    const res = await postForm(
      t,
      'update-trainer-profile',
      trainer,
      profileFields({ aadhar_no: badChecksumAadhar(), pan_no: 'ABCD1234F', email: someone.email }),
      [
        { field: 'profile_pic', filename: 'me.gif', data: await image('png') },
        { field: 'address_proof', filename: 'proof.png', data: Buffer.from('%PDF-1.4 not an image') },
      ],
    );
    // before, the picture's type came alone and the Aadhar only on the next submit
    expect(res).toEqual({
      status: 422,
      body: {
        profile_pic: [TRAINER_MSG.imageType],
        address_proof: [TRAINER_MSG.imageType],
        aadhar_no: ['The aadhar no is not a valid Aadhar number.'],
        pan_no: ['The pan no format is invalid.'],
        email: [ORG_MSG.emailTaken],
      },
    });
    // and nothing changed
    expect((await t.post('get-trainer-profile', {}, trainer)).body.success).toEqual(before);
  });

  it('a trainer without a profile reads the account fields and empty extras', async () => {
    const res = await t.post('get-trainer-profile', {}, other);
    expect(res.status).toBe(200);
    expect(res.body.success).toMatchObject({ first_name: 'Other', aadhar_no: null, profile_pic: null });
  });
});

describe('bank details', () => {
  it('adds, lists masked and paged, reads whole (owner and admin), updates and deletes', async () => {
    const add = await t.post('add-bank-details', bankBody(), trainer);
    expect(add).toEqual({ status: 200, body: { message: 'Record Added Successfully!', id: expect.any(Number) } });
    await t.post('add-bank-details', bankBody({ bank_name: 'HDFC Bank', account_number: '998877665544' }), trainer);

    const list = await t.post('bank-details-list', { per_page: 1, sort: 'bank_name' }, trainer);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 2, page: 1, per_page: 1 });
    expect(list.body.list[0]).toMatchObject({
      bank_name: 'HDFC Bank',
      account_number: 'XXXXXXXX5544',
      ifsc_code: 'SBIN0001234',
    });

    const whole = await t.post('get-bank-details', { id: add.body.id }, trainer);
    expect(whole.body.success).toMatchObject({
      account_number: '123456789012',
      ifsc_code: 'SBIN0001234',
      micr_code: '411002003',
    });
    expect((await t.post('get-bank-details', { id: add.body.id }, admin)).body.success.account_number).toBe(
      '123456789012',
    );
    const adminList = await t.post('bank-details-list', { trainer_id: trainerId }, admin);
    expect(adminList.body.total).toBe(2);
    expect(adminList.body.list.map((b: { account_number: string }) => b.account_number)).toEqual(
      expect.arrayContaining(['XXXXXXXX9012', 'XXXXXXXX5544']),
    );

    // encrypted at rest
    const dump = JSON.stringify(await t.deps.db.select().from(trainerBankDetails));
    expect(dump).not.toContain('123456789012');
    expect(dump).not.toContain('998877665544');

    const upd = await t.post('update-bank-details', { ...bankBody({ bank_name: 'SBI' }), id: add.body.id }, trainer);
    expect(upd.body.message).toBe('Record updated successfully!');
    expect((await t.post('get-bank-details', { id: add.body.id }, trainer)).body.success.bank_name).toBe('SBI');

    const del = await t.post('delete-bank-details', { id: add.body.id }, trainer);
    expect(del.body.message).toBe('Record deleted successfully!');
    expect((await t.post('bank-details-list', {}, trainer)).body.total).toBe(1);
  });

  it("another trainer's account answers 404 for read, update and delete", async () => {
    const add = await t.post('add-bank-details', bankBody(), trainer);
    expect((await t.post('get-bank-details', { id: add.body.id }, other)).status).toBe(404);
    expect((await t.post('update-bank-details', { ...bankBody(), id: add.body.id }, other)).status).toBe(404);
    expect((await t.post('delete-bank-details', { id: add.body.id }, other)).status).toBe(404);
    expect((await t.post('bank-details-list', {}, other)).body.total).toBe(0);
  });

  it('stored account numbers still read after a key rotation (new key first, old kept)', async () => {
    const [row] = await t.deps.db.select().from(trainerBankDetails).limit(1);
    const rotated = new FieldCipher([
      { id: 'next', key: randomBytes(32) },
      ...parseFieldKeys(t.deps.config.FIELD_ENCRYPTION_KEYS!),
    ]);
    expect(rotated.decrypt(row!.account_number)).toMatch(/^[0-9A-Z]{6,34}$/);
    expect(rotated.needsRotation(row!.account_number)).toBe(true);
  });

  it('422 per field with the IFSC, MICR, BSR and IBAN formats; limits at and one past', async () => {
    const res = await t.post(
      'add-bank-details',
      {
        bank_name: '',
        account_number: '12AB',
        ifsc_code: 'SBIN1001234',
        micr_code: '4110020',
        bsr_code: '12',
        iban_code: 'X',
      },
      trainer,
    );
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      bank_name: ['The bank name field is required.'],
      bank_account_name: ['The bank account name field is required.'],
      account_number: ['The account number format is invalid.'],
      account_type: ['The account type field is required.'],
      ifsc_code: ['The ifsc code format is invalid.'],
      micr_code: ['The micr code format is invalid.'],
      iban_code: ['The iban code format is invalid.'],
      bsr_code: ['The bsr code format is invalid.'],
    });
    expect((await t.post('add-bank-details', bankBody({ bank_name: 'B'.repeat(191) }), trainer)).status).toBe(200);
    expect((await t.post('add-bank-details', bankBody({ bank_name: 'B'.repeat(192) }), trainer)).body).toEqual({
      bank_name: ['The bank name must not be greater than 191 characters.'],
    });
    expect(
      (await t.post('add-bank-details', bankBody({ iban_code: 'gb82 west 1234 5698 7654 32' }), trainer)).status,
    ).toBe(200);
  });
});

describe('skills, certificates and references', () => {
  let categoryId: number;
  let skillId: number;
  let tsid: number;

  it('create-skill adds a skill to a category; a duplicate name in it is a 422', async () => {
    categoryId = (await makeCategory(t, 'Cloud')).id;
    const res = await t.post('create-skill', { name: 'Kubernetes', category_id: categoryId }, trainer);
    expect(res).toEqual({ status: 200, body: { message: 'Record Added Successfully!', id: expect.any(Number) } });
    skillId = res.body.id;
    expect((await t.post('create-skill', { name: 'kubernetes', category_id: categoryId }, admin)).body).toEqual({
      name: ['The Name has already been taken.'],
    });
    expect((await t.post('create-skill', { name: 'X', category_id: 999999 }, admin)).body).toEqual({
      category_id: [TRAINER_MSG.categoryInvalid],
    });
    expect((await t.post('create-skill', {}, admin)).body).toEqual({
      name: ['The name field is required.'],
      category_id: ['The category id field is required.'],
    });
    const skills = await t.post('get-skills', { category_id: categoryId }, trainer);
    expect(skills.body.list).toEqual([{ id: skillId, name: 'Kubernetes', category_id: categoryId }]);
    const cats = await t.post('skill-categories', {}, trainer);
    expect(cats.body.list).toContainEqual({ id: categoryId, name: 'Cloud', slug: 'cloud' });
  });

  it('adds, lists, reads, updates and deletes a trainer skill', async () => {
    const add = await t.post(
      'add-trainer-skill',
      { category_id: categoryId, skill_id: skillId, experience: 3, type: 'Year', rate_per_hours: 45 },
      trainer,
    );
    expect(add).toEqual({ status: 200, body: { message: TRAINER_MSG.skillAdded, id: expect.any(Number) } });
    tsid = add.body.id;
    const list = await t.post('trainer-skill-list', {}, trainer);
    expect(list.body).toMatchObject({ total: 1, page: 1 });
    expect(list.body.list[0]).toEqual({
      tsid,
      id: tsid,
      category_id: categoryId,
      skill_id: skillId,
      cname: 'Cloud',
      sname: 'Kubernetes',
      experience: 3,
      type: 'Year',
      rate_per_hours: 45,
    });
    expect(
      (
        await t.post(
          'add-trainer-skill',
          { category_id: categoryId, skill_id: skillId, experience: 1, type: 'Month', rate_per_hours: 1 },
          trainer,
        )
      ).body,
    ).toEqual({
      skill_id: [TRAINER_MSG.skillTaken],
    });
    const upd = await t.post(
      'update-trainer-skill',
      { id: tsid, category_id: categoryId, skill_id: skillId, experience: 30, type: 'Month', rate_per_hours: 50 },
      trainer,
    );
    expect(upd.body.message).toBe('Record updated successfully!');
    expect((await t.post('get-trainer-skill', { id: tsid }, trainer)).body.success).toMatchObject({
      experience: 30,
      type: 'Month',
      rate_per_hours: 50,
    });
    expect((await t.post('get-trainer-skill', { id: tsid }, other)).status).toBe(404);
    expect(
      (
        await t.post(
          'update-trainer-skill',
          { id: tsid, category_id: categoryId, skill_id: skillId, experience: 1, type: 'Year', rate_per_hours: 1 },
          other,
        )
      ).status,
    ).toBe(404);
    expect((await t.post('delete-trainer-skill', { id: tsid }, other)).status).toBe(404);
  });

  it('422 for trainer skill fields at their limits and one past', async () => {
    const base = { category_id: categoryId, skill_id: skillId, experience: 600, type: 'Year', rate_per_hours: 10000 };
    const other2 = (await t.loginAs({ role: 'trainer' })).token;
    expect((await t.post('add-trainer-skill', base, other2)).status).toBe(200);
    const res = await t.post(
      'add-trainer-skill',
      { category_id: categoryId, skill_id: skillId, experience: 601, type: 'Week', rate_per_hours: 10001 },
      other2,
    );
    expect(res.body).toEqual({
      experience: ['The experience must not be greater than 600.'],
      type: ['The selected type is invalid.'],
      rate_per_hours: ['The rate per hours must not be greater than 10000.'],
    });
    expect((await t.post('add-trainer-skill', { ...base, rate_per_hours: 0 }, other2)).body).toEqual({
      rate_per_hours: ['The rate per hours must be at least 1.'],
    });
    const foreignCategory = (await makeCategory(t, 'Data')).id;
    expect((await t.post('add-trainer-skill', { ...base, category_id: foreignCategory }, other2)).body).toEqual({
      skill_id: [TRAINER_MSG.skillInvalid],
    });
    expect((await t.post('add-trainer-skill', {}, other2)).body).toEqual({
      category_id: ['The category id field is required.'],
      skill_id: ['The skill id field is required.'],
      experience: ['The experience field is required.'],
      type: ['The type field is required.'],
      rate_per_hours: ['The rate per hours field is required.'],
    });
  });

  it('certificates: add with an image, list paged with thumbnails, update keeping the image, delete', async () => {
    const add = await postForm(
      t,
      'add-trainer-certificate',
      trainer,
      {
        skill_id: skillId,
        certificate_name: 'CKA',
        verify_link: 'https://verify.example.test/cka',
        certify_date: today(),
      },
      [{ field: 'certificate_image', filename: 'cka.jpg', data: await image('jpeg', 800) }],
    );
    expect(add).toEqual({ status: 200, body: { message: 'Record Added Successfully!', id: expect.any(Number) } });
    const list = await t.post('trainer-certificate-list', { per_page: 10 }, trainer);
    expect(list.body.total).toBe(1);
    expect(list.body.list[0]).toMatchObject({
      id: add.body.id,
      skill_id: skillId,
      name: 'Kubernetes',
      certificate_name: 'CKA',
      certify_date: today(),
      verify_link: 'https://verify.example.test/cka',
    });
    const thumb = list.body.list[0].certificate_image as string;
    expect(thumb).toMatch(/^data:image\/jpeg;base64,/);
    const upd = await postForm(t, 'update-trainer-certificate', trainer, {
      id: add.body.id,
      skill_id: skillId,
      certificate_name: 'CKAD',
      certify_date: '2024-01-31',
    });
    expect(upd.body.message).toBe('Record updated successfully!');
    const one = await t.post('get-trainer-certificate', { id: add.body.id }, trainer);
    expect(one.body.success).toMatchObject({ certificate_name: 'CKAD', verify_link: null, certificate_image: thumb });
    expect((await t.post('get-trainer-certificate', { id: add.body.id }, other)).status).toBe(404);
    expect(
      (
        await postForm(t, 'update-trainer-certificate', other, {
          id: add.body.id,
          skill_id: skillId,
          certificate_name: 'X',
          certify_date: today(),
        })
      ).status,
    ).toBe(404);
    expect((await t.post('delete-trainer-certificate', { id: add.body.id }, other)).status).toBe(404);
    expect((await t.post('delete-trainer-certificate', { id: add.body.id }, trainer)).body.message).toBe(
      'Record deleted successfully!',
    );
    expect((await t.post('trainer-certificate-list', {}, trainer)).body.total).toBe(0);
  });

  it('certificates: 422 per field, the date not in the future, the image required and an image', async () => {
    const res = await postForm(t, 'add-trainer-certificate', trainer, {
      skill_id: '',
      certificate_name: '',
      verify_link: 'ftp://x',
      certify_date: tomorrow(),
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      skill_id: ['The skill id field is required.'],
      certificate_name: ['The certificate name field is required.'],
      verify_link: ['The verify link must be a valid URL.'],
      certify_date: ['The certify date must be a date before or equal to today.'],
      certificate_image: ['The certificate image field is required.'],
    });
    const notImage = await postForm(
      t,
      'add-trainer-certificate',
      trainer,
      { skill_id: skillId, certificate_name: 'X', certify_date: today() },
      [{ field: 'certificate_image', filename: 'x.png', data: Buffer.from('GIF89a not really') }],
    );
    expect(notImage.body).toEqual({ certificate_image: [TRAINER_MSG.imageType] });
    // a skill the trainer does not list
    const otherSkill = (await t.post('create-skill', { name: 'Terraform', category_id: categoryId }, trainer)).body.id;
    const foreign = await postForm(
      t,
      'add-trainer-certificate',
      trainer,
      { skill_id: otherSkill, certificate_name: 'X', certify_date: today() },
      [{ field: 'certificate_image', filename: 'x.png', data: await image() }],
    );
    expect(foreign.body).toEqual({ skill_id: [TRAINER_MSG.skillInvalid] });
    expect(
      (
        await postForm(
          t,
          'add-trainer-certificate',
          trainer,
          { skill_id: skillId, certificate_name: 'C'.repeat(192), certify_date: today() },
          [{ field: 'certificate_image', filename: 'x.png', data: await image() }],
        )
      ).body,
    ).toEqual({
      certificate_name: ['The certificate name must not be greater than 191 characters.'],
    });
  });

  it('references: add, list, read, update, delete; 404 for another trainer; 422 per field', async () => {
    const body = {
      skill_id: skillId,
      company_name: 'Acme',
      company_description: 'Cloud consulting',
      training_conducted_date: '2025-06-01',
    };
    const add = await t.post('add-trainer-reference', body, trainer);
    expect(add).toEqual({ status: 200, body: { message: 'Record Added Successfully!', id: expect.any(Number) } });
    const list = await t.post('trainer-reference-list', { search: 'acm' }, trainer);
    expect(list.body).toMatchObject({ total: 1, list: [{ ...body, id: add.body.id, name: 'Kubernetes' }] });
    const upd = await t.post(
      'update-trainer-reference',
      { ...body, company_name: 'Acme Ltd', id: add.body.id },
      trainer,
    );
    expect(upd.body.message).toBe('Record updated successfully!');
    expect((await t.post('get-trainer-reference', { id: add.body.id }, trainer)).body.success.company_name).toBe(
      'Acme Ltd',
    );
    expect((await t.post('get-trainer-reference', { id: add.body.id }, other)).status).toBe(404);
    expect((await t.post('update-trainer-reference', { ...body, id: add.body.id }, other)).status).toBe(404);
    expect((await t.post('delete-trainer-reference', { id: add.body.id }, other)).status).toBe(404);
    expect((await t.post('add-trainer-reference', {}, trainer)).body).toEqual({
      skill_id: ['The skill id field is required.'],
      company_name: ['The company name field is required.'],
      company_description: ['The company description field is required.'],
      training_conducted_date: ['The training conducted date field is required.'],
    });
    expect(
      (await t.post('add-trainer-reference', { ...body, training_conducted_date: tomorrow() }, trainer)).body,
    ).toEqual({
      training_conducted_date: ['The training conducted date must be a date before or equal to today.'],
    });
    expect(
      (await t.post('add-trainer-reference', { ...body, training_conducted_date: '2025-02-30' }, trainer)).status,
    ).toBe(422);
    expect((await t.post('add-trainer-reference', { ...body, training_conducted_date: today() }, trainer)).status).toBe(
      200,
    );
    expect((await t.post('delete-trainer-reference', { id: add.body.id }, trainer)).body.message).toBe(
      'Record deleted successfully!',
    );
  });

  it('a page past the end of a search answers the search’s total, not the whole list’s', async () => {
    const { token: own } = await t.loginAs({ role: 'trainer' });
    const skill = { category_id: categoryId, skill_id: skillId, experience: 2, type: 'Year', rate_per_hours: 40 };
    expect((await t.post('add-trainer-skill', skill, own)).status).toBe(200);
    for (const company_name of ['Acme', 'Acme Two', 'Globex']) {
      const body = { skill_id: skillId, company_name, company_description: 'd', training_conducted_date: '2025-06-01' };
      expect((await t.post('add-trainer-reference', body, own)).status).toBe(200);
    }
    const past = (search: string) => t.post('trainer-reference-list', { search, page: 3, per_page: 5 }, own);
    expect((await past('acme')).body).toMatchObject({ list: [], total: 2, page: 3 });
    // the skill's name lives in a joined table
    expect((await past('kubernetes')).body).toMatchObject({ list: [], total: 3 });
    expect((await past('initech')).body).toMatchObject({ list: [], total: 0 });
  });
});

describe('dashboard', () => {
  it('reports profile completeness and nothing waiting for a new trainer', async () => {
    const fresh = (await t.loginAs({ role: 'trainer' })).token;
    const res = await t.post('trainer-dashboard', {}, fresh);
    expect(res).toEqual({
      status: 200,
      body: {
        open_take_calls: [],
        open_take_call_count: 0,
        assigned_trainings: [],
        profile_completeness: 0,
        profile_missing: expect.arrayContaining(['Profile picture', 'PAN']),
      },
    });
    expect((await t.post('trainer-dashboard', {}, trainer)).body.profile_completeness).toBe(100);
  });
});
