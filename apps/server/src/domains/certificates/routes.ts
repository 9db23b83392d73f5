import { API } from '@trainlab/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { audited } from '../../platform/audit';
import type { Deps } from '../../platform/deps';
import { defineCall } from '../../platform/http/define-call';
import {
  callerTenant,
  downloadCertificateList,
  learnerPdf,
  sendCertificateEmail,
  settingsOf,
  trainingCertificatesZip,
  updateSettings,
  verifyCertificate,
} from './service';

function attachment(reply: FastifyReply, type: string, file: { bytes: Uint8Array; fileName: string }) {
  reply.type(type).header('content-disposition', `attachment; filename="${file.fileName}"`);
  return Buffer.from(file.bytes);
}

/** Certificates of completion: learner download, public verification, manager e-mail and ZIP, settings. */
export function certificateRoutes(app: FastifyInstance, deps: Deps): void {
  defineCall(app, deps, API.lpuDownloadCertificate, ({ auth, body }) => downloadCertificateList(deps, auth, body.slug));
  defineCall(app, deps, API.certificatePdf, async ({ auth, body, reply }) =>
    attachment(reply, 'application/pdf', await learnerPdf(deps, auth, body.slug)),
  );
  defineCall(app, deps, API.verifyCertificates, ({ body }) => verifyCertificate(deps, body.ref_no));
  defineCall(app, deps, API.lpuSendCertificateEmail, ({ auth, body }) =>
    sendCertificateEmail(deps, callerTenant(auth), body.t_id, body.u_id),
  );
  defineCall(app, deps, API.downloadTrainingCertificates, async ({ auth, body, reply }) =>
    attachment(reply, 'application/zip', await trainingCertificatesZip(deps, callerTenant(auth), body.slug)),
  );
  defineCall(app, deps, API.getCertificateSettings, async ({ auth }) => ({
    success: await settingsOf(deps, callerTenant(auth)),
  }));
  defineCall(
    app,
    deps,
    API.updateCertificateSettings,
    audited(API.updateCertificateSettings, { type: 'certificate-settings' }, ({ auth, body }) =>
      updateSettings(deps, callerTenant(auth), body),
    ),
  );
}
