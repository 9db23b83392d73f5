import { randomInt } from 'node:crypto';
import { CERT_MSG, MSG, type updateCertificateSettingsRequest } from '@trainlab/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  certificateSettings,
  certificates,
  organizations,
  syllabusTopics,
  trainingAttendances,
  trainings,
  trainingUsers,
  users,
} from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { forbidden, notFound } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { enqueue, registerJobHandler } from '../../platform/jobs';
import { ownedBy, recordTenant, type Tenant, tenantColumns, tenantOf, tenantWhere } from '../../platform/tenancy';
import { postTestPercent } from '../assessments/scores';
import type { CertificateFacts } from './pdf';

type Training = typeof trainings.$inferSelect;
type Enrolment = typeof trainingUsers.$inferSelect;
type Certificate = typeof certificates.$inferSelect;

/**
 * The tenant a manager acts for (platform/tenancy.ts); an organization role without an organization
 * has none and gets the plain 403 here (the certificate calls never said "not linked").
 */
export function callerTenant(auth: AuthContext): Tenant {
  const tenant = tenantOf(auth.user);
  if (!tenant) throw forbidden();
  return tenant;
}

/** A training of the caller's tenant; any other (or none) is 404. */
async function managedTraining(deps: Deps, tenant: Tenant, where: { slug: string } | { id: number }) {
  const [t] = await deps.db
    .select()
    .from(trainings)
    .where('slug' in where ? eq(trainings.slug, where.slug) : eq(trainings.id, where.id));
  if (!t || !ownedBy(tenant, t)) throw notFound();
  return t;
}

// ---------------------------------------------------------------- settings

const settingsWhere = (tenant: Tenant) => tenantWhere(certificateSettings, tenant);

/** The tenant's settings, or defaults: the provider's (or organization's) name issues and signs. */
export async function settingsOf(deps: Deps, tenant: Tenant) {
  const [row] = await deps.db.select().from(certificateSettings).where(settingsWhere(tenant));
  if (row) {
    const { issuer_name, signatory_name, signatory_title, min_attendance_percent, min_post_score_percent } = row;
    return { issuer_name, signatory_name, signatory_title, min_attendance_percent, min_post_score_percent };
  }
  let name = 'TrainLab';
  if (tenant.kind === 'provider') {
    const [u] = await deps.db.select().from(users).where(eq(users.id, tenant.ownerId));
    if (u) name = `${u.first_name} ${u.last_name}`.trim();
  } else {
    const [o] = await deps.db.select().from(organizations).where(eq(organizations.id, tenant.organizationId));
    if (o) name = o.name;
  }
  return {
    issuer_name: name,
    signatory_name: name,
    signatory_title: 'Authorised Signatory',
    min_attendance_percent: 0,
    min_post_score_percent: 0,
  };
}

export async function updateSettings(
  deps: Deps,
  tenant: Tenant,
  body: z.output<typeof updateCertificateSettingsRequest>,
) {
  const values = { ...body, updated_at: new Date() };
  const [existing] = await deps.db
    .select({ id: certificateSettings.id })
    .from(certificateSettings)
    .where(settingsWhere(tenant));
  if (existing) {
    await deps.db.update(certificateSettings).set(values).where(eq(certificateSettings.id, existing.id));
  } else {
    await deps.db
      .insert(certificateSettings)
      .values({
        ...values,
        ...tenantColumns(tenant),
      })
      .onConflictDoUpdate({
        target: tenant.kind === 'provider' ? certificateSettings.owner_user_id : certificateSettings.organization_id,
        set: values,
      });
  }
  return { message: CERT_MSG.settingsUpdated };
}

// ---------------------------------------------------------------- the download rule

/**
 * Scheduled minutes of a training: the sum of its syllabus topics' no_of_min; when that is 0 (no
 * syllabus, or no topic has a duration yet) a full day per training day, total_training_day x 8 h.
 */
export async function scheduledMinutes(deps: Deps, t: Training): Promise<number> {
  const [row] = await deps.db
    .select({ n: sql<number>`coalesce(sum(${syllabusTopics.no_of_min}), 0)::int` })
    .from(syllabusTopics)
    .where(eq(syllabusTopics.training_id, t.id));
  const topics = Number(row?.n ?? 0);
  return topics > 0 ? topics : Math.max(1, t.total_training_day) * 8 * 60;
}

export async function attendedMinutes(deps: Deps, enrolmentId: number): Promise<number> {
  const [row] = await deps.db
    .select({ n: sql<number>`coalesce(sum(${trainingAttendances.minutes}), 0)::int` })
    .from(trainingAttendances)
    .where(eq(trainingAttendances.training_user_id, enrolmentId));
  return Number(row?.n ?? 0);
}

/** Why this learner may not have the certificate, or null when they may. */
async function refusal(
  deps: Deps,
  t: Training,
  e: Enrolment,
  minPercent: number,
  minPostScore = 0,
): Promise<string | null> {
  if (e.is_download_certificate !== 1) return CERT_MSG.downloadNotAllowed;
  if (minPercent > 0) {
    const scheduled = await scheduledMinutes(deps, t);
    const attended = await attendedMinutes(deps, e.id);
    const percent = Math.floor((attended * 100) / scheduled);
    if (percent < minPercent) return CERT_MSG.attendanceTooLow(percent, minPercent);
  }
  if (minPostScore > 0) {
    const post = await postTestPercent(deps, t.id, e.user_id);
    if (post === 'not taken') return CERT_MSG.postTestNotTaken(minPostScore);
    if (post !== 'no test' && post < minPostScore) return CERT_MSG.postScoreTooLow(post, minPostScore);
  }
  return null;
}

// ---------------------------------------------------------------- issuing

const REF_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const newRefNo = (at = new Date()): string =>
  `TL-${at.getUTCFullYear()}-${Array.from({ length: 6 }, () => REF_ALPHABET[randomInt(REF_ALPHABET.length)]).join('')}`;

/** The enrolment's certificate, issued (ref_no and printed facts fixed) on first need. */
export async function ensureCertificate(deps: Deps, t: Training, e: Enrolment): Promise<Certificate> {
  const [existing] = await deps.db.select().from(certificates).where(eq(certificates.training_user_id, e.id));
  if (existing) return existing;
  const tenant = recordTenant(t);
  const settings = tenant
    ? await settingsOf(deps, tenant)
    : { issuer_name: 'TrainLab', signatory_name: 'TrainLab', signatory_title: 'Authorised Signatory' };
  const [learner] = await deps.db.select().from(users).where(eq(users.id, e.user_id));
  const facts = {
    training_user_id: e.id,
    user_name: `${learner?.first_name ?? ''} ${learner?.last_name ?? ''}`.trim(),
    training_name: t.name,
    issuer_name: settings.issuer_name,
    signatory_name: settings.signatory_name,
    signatory_title: settings.signatory_title,
    start_date: t.start_date,
    end_date: t.end_date,
  };
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      // Two parallel first downloads: one insert wins, the other reads the winner's row.
      const [row] = await deps.db
        .insert(certificates)
        .values({ ...facts, ref_no: newRefNo() })
        .onConflictDoNothing({ target: certificates.training_user_id })
        .returning();
      if (row) return row;
      const [winner] = await deps.db.select().from(certificates).where(eq(certificates.training_user_id, e.id));
      if (winner) return winner;
    } catch (err) {
      const code =
        (err as { code?: string; cause?: { code?: string } }).code ??
        (err as { cause?: { code?: string } }).cause?.code;
      if (code !== '23505') throw err; // a ref_no collision: draw another
    }
  }
  throw new Error('could not issue a unique certificate ref_no');
}

const verifyUrl = (deps: Deps, refNo: string) =>
  `${deps.config.PUBLIC_URL}/certificate/verify/${encodeURIComponent(refNo)}`;

export function factsOf(deps: Deps, c: Certificate): CertificateFacts {
  return {
    user_name: c.user_name,
    training_name: c.training_name,
    issuer_name: c.issuer_name,
    signatory_name: c.signatory_name,
    signatory_title: c.signatory_title,
    start_date: c.start_date,
    end_date: c.end_date,
    issued_at: c.issued_at,
    ref_no: c.ref_no,
    verify_url: verifyUrl(deps, c.ref_no),
  };
}

/** pdf-lib, fontkit and the fonts load with the first certificate printed, not at start. */
export const pdfOf = async (deps: Deps, c: Certificate) =>
  (await import('./pdf')).renderCertificatePdf(factsOf(deps, c));

const fileName = (c: Certificate) =>
  `certificate-${c.ref_no}-${c.user_name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'learner'}.pdf`;

// ---------------------------------------------------------------- learner calls

/** The signed-in learner's certificate for the training `slug`: 404 when not enrolled, 403 when not allowed. */
export async function learnerCertificate(deps: Deps, auth: AuthContext, slug: string): Promise<Certificate> {
  const [row] = await deps.db
    .select({ training: trainings, enrolment: trainingUsers })
    .from(trainingUsers)
    .innerJoin(trainings, eq(trainings.id, trainingUsers.training_id))
    .where(and(eq(trainings.slug, slug), eq(trainingUsers.user_id, auth.user.id)));
  if (!row) throw notFound();
  const tenant = recordTenant(row.training);
  const rules = tenant ? await settingsOf(deps, tenant) : null;
  const why = await refusal(
    deps,
    row.training,
    row.enrolment,
    rules?.min_attendance_percent ?? 0,
    rules?.min_post_score_percent ?? 0,
  );
  if (why) throw forbidden(why);
  return ensureCertificate(deps, row.training, row.enrolment);
}

export async function downloadCertificateList(deps: Deps, auth: AuthContext, slug: string) {
  const c = await learnerCertificate(deps, auth, slug);
  return { list: [{ user_name: c.user_name, training_name: c.training_name, ref_no: c.ref_no }] };
}

export async function learnerPdf(deps: Deps, auth: AuthContext, slug: string) {
  const c = await learnerCertificate(deps, auth, slug);
  return { bytes: await pdfOf(deps, c), fileName: fileName(c) };
}

export async function verifyCertificate(deps: Deps, refNo: string) {
  const [c] = await deps.db.select().from(certificates).where(eq(certificates.ref_no, refNo.trim().toUpperCase()));
  if (!c) throw notFound(MSG.noCertificateFound);
  return {
    success: {
      user_name: c.user_name,
      training_name: c.training_name,
      issuer_name: c.issuer_name,
      start_date: c.start_date.toISOString(),
      end_date: c.end_date.toISOString(),
      issued_at: c.issued_at.toISOString(),
      ref_no: c.ref_no,
    },
  };
}

// ---------------------------------------------------------------- manager calls

export const EMAIL_JOB = 'certificates.email';

/**
 * Queues the certificate e-mail and marks the enrolment send_email_certificate = 1 in one
 * transaction; the request never waits for (or fails because of) the mail server.
 */
export async function sendCertificateEmail(deps: Deps, tenant: Tenant, trainingId: number, userId: number) {
  const t = await managedTraining(deps, tenant, { id: trainingId });
  const [e] = await deps.db
    .select()
    .from(trainingUsers)
    .where(and(eq(trainingUsers.training_id, t.id), eq(trainingUsers.user_id, userId)));
  if (!e) throw notFound();
  const c = await ensureCertificate(deps, t, e);
  await deps.db.transaction(async (tx) => {
    await enqueue({ db: tx as unknown as Deps['db'] }, EMAIL_JOB, { certificate_id: c.id });
    await tx.update(trainingUsers).set({ send_email_certificate: 1 }).where(eq(trainingUsers.id, e.id));
  });
  return { message: CERT_MSG.emailQueued };
}

registerJobHandler(EMAIL_JOB, async (deps, payload) => {
  const [row] = await deps.db
    .select({ certificate: certificates, email: users.email, first_name: users.first_name })
    .from(certificates)
    .innerJoin(trainingUsers, eq(trainingUsers.id, certificates.training_user_id))
    .innerJoin(users, eq(users.id, trainingUsers.user_id))
    .where(eq(certificates.id, Number(payload.certificate_id)));
  if (!row) return; // the enrolment was removed meanwhile
  const c = row.certificate;
  await deps.mail.send({
    to: row.email,
    subject: `Your certificate: ${c.training_name}`,
    text:
      `Hello ${row.first_name},\n\nCongratulations on completing ${c.training_name}. Your certificate (No. ${c.ref_no}) is attached.\n\n` +
      `Anyone can check it at ${verifyUrl(deps, c.ref_no)}\n\n${c.issuer_name}\n`,
    attachments: [{ filename: fileName(c), content: await pdfOf(deps, c), contentType: 'application/pdf' }],
  });
});

/** A ZIP with one PDF per learner of the training who may download a certificate. */
export async function trainingCertificatesZip(deps: Deps, tenant: Tenant, slug: string) {
  const t = await managedTraining(deps, tenant, { slug });
  const rules = await settingsOf(deps, tenant);
  const enrolments = await deps.db
    .select()
    .from(trainingUsers)
    .where(and(eq(trainingUsers.training_id, t.id), eq(trainingUsers.is_download_certificate, 1)))
    .orderBy(asc(trainingUsers.id));
  const { default: JSZip } = await import('jszip');
  const zip = new JSZip();
  let count = 0;
  for (const e of enrolments) {
    if (await refusal(deps, t, e, rules.min_attendance_percent, rules.min_post_score_percent)) continue;
    const c = await ensureCertificate(deps, t, e);
    zip.file(fileName(c), await pdfOf(deps, c), { date: c.issued_at });
    count++;
  }
  if (!count) throw notFound(CERT_MSG.noCertificates);
  const bytes = await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
  return { bytes, fileName: `certificates-${t.slug}.zip` };
}
