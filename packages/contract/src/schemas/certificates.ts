import { z } from 'zod';
import { idField, requiredText } from '../validation.js';

/** Texts of the certificate calls that the spec does not name ('NO Certificate Found' is MSG.noCertificateFound). */
export const CERT_MSG = {
  downloadNotAllowed: 'Certificate download is not enabled for you in this training yet.',
  attendanceTooLow: (percent: number, required: number) =>
    `Your attendance is ${percent}% and the certificate needs at least ${required}%.`,
  postScoreTooLow: (percent: number, required: number) =>
    `Your post-assessment score is ${percent}% and the certificate needs at least ${required}%.`,
  postTestNotTaken: (required: number) =>
    `The certificate needs a post-assessment score of at least ${required}%; take the post-assessment first.`,
  emailQueued: 'Certificate e-mail is being sent.',
  settingsUpdated: 'Certificate settings updated successfully!',
  noCertificates: 'No learner of this training may download a certificate yet.',
} as const;

export const certSlugRequest = z.object({ slug: requiredText(200) });
export const verifyCertificateRequest = z.object({ ref_no: requiredText(64) });
export const sendCertificateEmailRequest = z.object({ t_id: idField(), u_id: idField() });

export const certificateListItem = z.object({ user_name: z.string(), training_name: z.string(), ref_no: z.string() });
export const downloadCertificateResponse = z.object({ list: z.array(certificateListItem) });

export const verifiedCertificate = z.object({
  user_name: z.string(),
  training_name: z.string(),
  issuer_name: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  issued_at: z.string(),
  ref_no: z.string(),
});
export const verifyCertificateResponse = z.object({ success: verifiedCertificate });

export const certificateSettingsRecord = z.object({
  issuer_name: z.string(),
  signatory_name: z.string(),
  signatory_title: z.string(),
  min_attendance_percent: z.number(),
  /** 0 = no rule; else the post-test percent needed (only when the training has a post-test) */
  min_post_score_percent: z.number(),
});
export const getCertificateSettingsResponse = z.object({ success: certificateSettingsRecord });
export const updateCertificateSettingsRequest = z.object({
  issuer_name: requiredText(150),
  signatory_name: requiredText(150),
  signatory_title: requiredText(150),
  min_attendance_percent: z.coerce
    .number({ message: 'The min attendance percent must be a number.' })
    .int({ message: 'The min attendance percent must be an integer.' })
    .min(0)
    .max(100),
  min_post_score_percent: z.coerce
    .number({ message: 'The min post score percent must be a number.' })
    .int({ message: 'The min post score percent must be an integer.' })
    .min(0)
    .max(100)
    .optional()
    .default(0),
});

export const certMessageResponse = z.object({ message: z.string() });
/** Binary answers (application/pdf, application/zip): described for the API reference only. */
export const certFileResponse = z.any().meta({ description: 'file bytes (see content-type)' });
