import type { ApiCall } from '../api-base.js';
import { call, empty } from '../api-base.js';
import type { Role } from '../roles.js';
import * as c from '../schemas/certificates.js';

const MANAGERS: readonly Role[] = ['provider', 'organization', 'org_subadmin'];

/** Certificates of completion (spec 01 §2, §7; spec 02 §2 'Certificates', §7 'Certificates'). */
export const CERTIFICATE_CALLS = {
  lpuDownloadCertificate: call(
    'lpu/download-certificate',
    'authenticated',
    "The signed-in learner's certificate for a training (when download is allowed and attendance suffices).",
    c.certSlugRequest,
    c.downloadCertificateResponse,
  ),
  certificatePdf: call(
    'certificate-pdf',
    'authenticated',
    "The signed-in learner's certificate as a PDF (application/pdf attachment), same rule as lpu/download-certificate.",
    c.certSlugRequest,
    c.certFileResponse,
  ),
  verifyCertificates: call(
    'verify-certificates',
    'public',
    "Public check of a certificate by its ref_no; 404 'NO Certificate Found'.",
    c.verifyCertificateRequest,
    c.verifyCertificateResponse,
  ),
  lpuSendCertificateEmail: call(
    'lpu/send-certificate-email',
    MANAGERS,
    'Queue an e-mail of the certificate PDF to a learner of one of your trainings (send_email_certificate = 1).',
    c.sendCertificateEmailRequest,
    c.certMessageResponse,
  ),
  downloadTrainingCertificates: call(
    'download-training-certificates',
    MANAGERS,
    'A ZIP of the certificates of every learner of one of your trainings who may download one.',
    c.certSlugRequest,
    c.certFileResponse,
  ),
  getCertificateSettings: call(
    'get-certificate-settings',
    MANAGERS,
    "Your certificates' issuer, signatory and minimum attendance.",
    empty,
    c.getCertificateSettingsResponse,
  ),
  updateCertificateSettings: call(
    'update-certificate-settings',
    MANAGERS,
    "Set your certificates' issuer, signatory and minimum attendance (0-100 %, 0 = no rule).",
    c.updateCertificateSettingsRequest,
    c.certMessageResponse,
  ),
} satisfies Record<string, ApiCall>;
