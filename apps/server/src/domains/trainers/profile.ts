import { ORG_MSG, TRAINER_MSG, toFieldErrors, trainerProfileFields } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { trainerProfiles, users } from '../../db/schema';
import { ValidationError } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { emailTaken } from '../organizations/shared';
import type { TrainerCtx } from './context';
import { deleteImages, readImageForm, storeImage, thumbDataUrl } from './images';

type ProfileRow = typeof trainerProfiles.$inferSelect;

export async function profileRow(ctx: TrainerCtx, userId: number): Promise<ProfileRow | null> {
  const [row] = await ctx.deps.db.select().from(trainerProfiles).where(eq(trainerProfiles.user_id, userId));
  return row ?? null;
}

const reveal = (ctx: TrainerCtx, v: string | null) => (v ? ctx.deps.cipher.decrypt(v) : null);
/** The GSTIN holds its owner's PAN (characters 3 to 12), so it is encrypted like the PAN; one saved
 * before that reads as it was stored until the trainer saves the profile again. */
const revealGstin = (ctx: TrainerCtx, v: string | null) => (v?.startsWith('fc1.') ? reveal(ctx, v) : v);

/** /get-trainer-profile: the caller's own profile, secrets whole (only they see it). */
export async function getProfile(ctx: TrainerCtx, auth: AuthContext) {
  const p = await profileRow(ctx, auth.user.id);
  const u = auth.user;
  return {
    success: {
      first_name: u.first_name,
      last_name: u.last_name,
      email: u.email,
      mobile_no: u.mobile_no ?? '',
      email2: p?.email2 ?? null,
      email3: p?.email3 ?? null,
      mobile_no2: p?.mobile_no2 ?? null,
      mobile_no3: p?.mobile_no3 ?? null,
      base_location: p?.base_location ?? null,
      address: p?.address ?? null,
      dob: p?.dob ?? null,
      aadhar_no: reveal(ctx, p?.aadhar_no ?? null),
      pan_no: reveal(ctx, p?.pan_no ?? null),
      GSTIN_no: revealGstin(ctx, p?.gstin_no ?? null),
      state_code: p?.state_code ?? null,
      MSME_reg_no: p?.msme_reg_no ?? null,
      type_of_enterprise: p?.type_of_enterprise ?? null,
      category_of_service: p?.category_of_service ?? null,
      services_rendered: p?.services_rendered ?? null,
      vat_no: p?.vat_no ?? null,
      experience_over_all: p?.experience_over_all ?? null,
      profile_pic: await thumbDataUrl(ctx.files, p?.profile_pic_thumb_key ?? null),
      address_proof: await thumbDataUrl(ctx.files, p?.address_proof_thumb_key ?? null),
    },
  };
}

/** /update-trainer-profile (multipart): every field; a picture part replaces the stored one. */
export async function updateProfile(ctx: TrainerCtx, auth: AuthContext, request: FastifyRequest) {
  const { deps, files } = ctx;
  const form = await readImageForm(request, ['profile_pic', 'address_proof']);
  const parsed = trainerProfileFields.safeParse(form.fields);
  // every field's error of this submit at once: the pictures' and the other fields'
  const errors = { ...(parsed.success ? {} : toFieldErrors(parsed.error.issues, form.fields)), ...form.errors };
  const email = parsed.success ? parsed.data.email : form.fields.email;
  if (!errors.email && email && (await emailTaken(deps.db, email, auth.user.id))) {
    errors.email = [ORG_MSG.emailTaken];
  }
  if (!parsed.success || Object.keys(errors).length) throw new ValidationError(errors);
  const b = parsed.data;
  const old = await profileRow(ctx, auth.user.id);
  const pic = form.images.profile_pic
    ? await storeImage(files, `trainers/${auth.user.id}/profile`, form.images.profile_pic)
    : null;
  const proof = form.images.address_proof
    ? await storeImage(files, `trainers/${auth.user.id}/address-proof`, form.images.address_proof)
    : null;
  const values = {
    email2: b.email2,
    email3: b.email3,
    mobile_no2: b.mobile_no2,
    mobile_no3: b.mobile_no3,
    base_location: b.base_location,
    address: b.address,
    dob: b.dob,
    aadhar_no: b.aadhar_no ? deps.cipher.encrypt(b.aadhar_no) : null,
    pan_no: b.pan_no ? deps.cipher.encrypt(b.pan_no) : null,
    gstin_no: b.GSTIN_no ? deps.cipher.encrypt(b.GSTIN_no) : null,
    state_code: b.state_code,
    msme_reg_no: b.MSME_reg_no,
    type_of_enterprise: b.type_of_enterprise,
    category_of_service: b.category_of_service,
    services_rendered: b.services_rendered,
    vat_no: b.vat_no,
    experience_over_all: b.experience_over_all,
    ...(pic ? { profile_pic_key: pic.key, profile_pic_thumb_key: pic.thumbKey } : {}),
    ...(proof ? { address_proof_key: proof.key, address_proof_thumb_key: proof.thumbKey } : {}),
    updated_at: new Date(),
  };
  await deps.db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ first_name: b.first_name, last_name: b.last_name, email: b.email, mobile_no: b.mobile_no })
      .where(eq(users.id, auth.user.id));
    await tx
      .insert(trainerProfiles)
      .values({ user_id: auth.user.id, ...values })
      .onConflictDoUpdate({ target: trainerProfiles.user_id, set: values });
  });
  // replaced pictures go once the new ones are recorded
  if (pic) await deleteImages(files, old?.profile_pic_key, old?.profile_pic_thumb_key);
  if (proof) await deleteImages(files, old?.address_proof_key, old?.address_proof_thumb_key);
  return { message: TRAINER_MSG.profileUpdated };
}

/** What the dashboard counts as a complete profile. */
export const PROFILE_CHECKLIST = [
  ['profile_pic', 'Profile picture'],
  ['address', 'Address'],
  ['base_location', 'Base location'],
  ['dob', 'Date of birth'],
  ['pan_no', 'PAN'],
  ['aadhar_no', 'Aadhar'],
  ['address_proof', 'Address proof'],
  ['experience_over_all', 'Overall experience'],
] as const;

export function profileMissing(p: ProfileRow | null): string[] {
  const has: Record<string, unknown> = {
    profile_pic: p?.profile_pic_key,
    address: p?.address,
    base_location: p?.base_location,
    dob: p?.dob,
    pan_no: p?.pan_no,
    aadhar_no: p?.aadhar_no,
    address_proof: p?.address_proof_key,
    experience_over_all: p?.experience_over_all ?? null,
  };
  return PROFILE_CHECKLIST.filter(([k]) => has[k] === null || has[k] === undefined || has[k] === '').map(([, l]) => l);
}
