import { type CERTIFICATE_SORT_KEYS, certificateFields, type ListQuery, MSG, toFieldErrors } from '@trainlab/contract';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { skills, trainerCertificates } from '../../db/schema';
import { notFound, ValidationError } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { orderFor, pageWindow, searchWhere, toPage, totalAtFirstRow, totalOver } from '../../platform/http/paging';
import type { TrainerCtx } from './context';
import { deleteImages, readImageForm, storeImage, thumbDataUrl } from './images';
import { ownSkill } from './skills';

type CertRow = typeof trainerCertificates.$inferSelect;

const toCertificate = async (ctx: TrainerCtx, row: CertRow, name: string) => ({
  id: row.id,
  skill_id: row.skill_id,
  name,
  certificate_name: row.certificate_name,
  certificate_image: await thumbDataUrl(ctx.files, row.thumb_key),
  verify_link: row.verify_link,
  certify_date: row.certify_date,
});

export async function certificateList(
  ctx: TrainerCtx,
  auth: AuthContext,
  q: ListQuery<(typeof CERTIFICATE_SORT_KEYS)[number]>,
) {
  const w = pageWindow(q);
  const where = and(
    eq(trainerCertificates.trainer_id, auth.user.id),
    searchWhere(q.search, [trainerCertificates.certificate_name, skills.name]),
  );
  const query = () =>
    ctx.deps.db
      .select({ row: trainerCertificates, name: skills.name, total: totalOver() })
      .from(trainerCertificates)
      .innerJoin(skills, eq(skills.id, trainerCertificates.skill_id))
      .where(where);
  const rows = await query()
    .orderBy(
      ...orderFor(
        q.sort,
        {
          certificate_name: trainerCertificates.certificate_name,
          certify_date: trainerCertificates.certify_date,
          name: skills.name,
        },
        [desc(trainerCertificates.certify_date)],
        trainerCertificates.id,
      ),
    )
    .limit(w.limit)
    .offset(w.offset);
  const page = await toPage(
    rows,
    w,
    (r) => r,
    () => totalAtFirstRow(query().limit(1)),
  );
  return { ...page, list: await Promise.all(page.list.map((r) => toCertificate(ctx, r.row, r.name))) };
}

async function myCertificate(ctx: TrainerCtx, auth: AuthContext, id: number) {
  const [row] = await ctx.deps.db
    .select({ row: trainerCertificates, name: skills.name })
    .from(trainerCertificates)
    .innerJoin(skills, eq(skills.id, trainerCertificates.skill_id))
    .where(and(eq(trainerCertificates.id, id), eq(trainerCertificates.trainer_id, auth.user.id)));
  if (!row) throw notFound();
  return row;
}

export async function getCertificate(ctx: TrainerCtx, auth: AuthContext, id: number) {
  const { row, name } = await myCertificate(ctx, auth, id);
  return { success: await toCertificate(ctx, row, name) };
}

/** /add-trainer-certificate and /update-trainer-certificate (multipart). */
export async function saveCertificate(ctx: TrainerCtx, auth: AuthContext, request: FastifyRequest, update: boolean) {
  const form = await readImageForm(request, ['certificate_image']);
  const parsed = certificateFields.safeParse(form.fields);
  // every field's error of this submit at once, the image's included
  const errors: Record<string, string[]> = parsed.success ? {} : toFieldErrors(parsed.error.issues, form.fields);
  if (update && parsed.success && !parsed.data.id) errors.id = ['The id field is required.'];
  if (!update && !form.images.certificate_image)
    errors.certificate_image = ['The certificate image field is required.'];
  Object.assign(errors, form.errors);
  if (!parsed.success || Object.keys(errors).length) throw new ValidationError(errors);
  const b = parsed.data;
  const existing = update ? (await myCertificate(ctx, auth, b.id!)).row : null;
  await ownSkill(ctx.deps, auth, b.skill_id);
  const image = form.images.certificate_image
    ? await storeImage(ctx.files, `trainers/${auth.user.id}/certificates`, form.images.certificate_image)
    : null;
  const values = {
    skill_id: b.skill_id,
    certificate_name: b.certificate_name,
    verify_link: b.verify_link,
    certify_date: b.certify_date,
    ...(image ? { image_key: image.key, thumb_key: image.thumbKey } : {}),
  };
  if (existing) {
    await ctx.deps.db.update(trainerCertificates).set(values).where(eq(trainerCertificates.id, existing.id));
    if (image) await deleteImages(ctx.files, existing.image_key, existing.thumb_key);
    return { message: MSG.recordUpdated, id: existing.id };
  }
  const [row] = await ctx.deps.db
    .insert(trainerCertificates)
    .values({ trainer_id: auth.user.id, image_key: image!.key, thumb_key: image!.thumbKey, ...values })
    .returning({ id: trainerCertificates.id });
  return { message: MSG.recordAdded, id: row!.id };
}

export async function deleteCertificate(ctx: TrainerCtx, auth: AuthContext, id: number) {
  const { row } = await myCertificate(ctx, auth, id);
  await ctx.deps.db.delete(trainerCertificates).where(eq(trainerCertificates.id, row.id));
  await deleteImages(ctx.files, row.image_key, row.thumb_key);
  return { message: MSG.recordDeleted };
}
