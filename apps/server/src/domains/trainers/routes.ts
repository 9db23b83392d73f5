import { API } from '@trainlab/contract';
import type { FastifyInstance } from 'fastify';
import { audited } from '../../platform/audit';
import type { Deps } from '../../platform/deps';
import { defineCall } from '../../platform/http/define-call';
import * as bank from './bank';
import * as certificates from './certificates';
import type { TrainerCtx } from './context';
import { trainerDashboard } from './dashboard';
import * as profile from './profile';
import * as references from './references';
import * as skills from './skills';

/** The trainer's own data (spec 02 §7 'Trainer data'): profile, bank details, skills, certificates, references. */
export function trainerRoutes(app: FastifyInstance, deps: Deps): void {
  const ctx: TrainerCtx = { deps, files: deps.files };
  defineCall(app, deps, API.getTrainerProfile, ({ auth }) => profile.getProfile(ctx, auth));
  defineCall(app, deps, API.updateTrainerProfile, ({ auth, request }) => profile.updateProfile(ctx, auth, request));
  defineCall(app, deps, API.trainerDashboard, ({ auth }) => trainerDashboard(ctx, auth));

  defineCall(app, deps, API.bankDetailsList, ({ auth, body }) => bank.bankList(deps, auth, body));
  defineCall(app, deps, API.addBankDetails, ({ auth, body }) => bank.addBank(deps, auth, body));
  defineCall(app, deps, API.adminBankDetailsList, ({ body }) => bank.adminBankList(deps, body));
  // the admin reading a trainer's account whole is audited (a trainer reading their own is not)
  defineCall(
    app,
    deps,
    API.getBankDetails,
    audited(API.getBankDetails, { type: 'trainer-bank-details' }, ({ auth, body }) =>
      bank.getBank(deps, auth, body.id),
    ),
  );
  defineCall(app, deps, API.updateBankDetails, ({ auth, body }) => bank.updateBank(deps, auth, body));
  defineCall(app, deps, API.deleteBankDetails, ({ auth, body }) => bank.deleteBank(deps, auth, body.id));

  defineCall(app, deps, API.skillCategories, () => skills.skillCategories(deps));
  defineCall(app, deps, API.getSkills, ({ body }) => skills.getSkills(deps, body.category_id));
  defineCall(
    app,
    deps,
    API.createSkill,
    audited(API.createSkill, { type: 'skill' }, ({ body }) => skills.createSkill(deps, body)),
  );
  defineCall(app, deps, API.trainerSkillList, ({ auth, body }) => skills.trainerSkillList(deps, auth, body));
  defineCall(app, deps, API.addTrainerSkill, ({ auth, body }) => skills.addTrainerSkill(deps, auth, body));
  defineCall(app, deps, API.getTrainerSkill, ({ auth, body }) => skills.getTrainerSkill(deps, auth, body.id));
  defineCall(app, deps, API.updateTrainerSkill, ({ auth, body }) => skills.updateTrainerSkill(deps, auth, body));
  defineCall(app, deps, API.deleteTrainerSkill, ({ auth, body }) => skills.deleteTrainerSkill(deps, auth, body.id));

  defineCall(app, deps, API.trainerCertificateList, ({ auth, body }) => certificates.certificateList(ctx, auth, body));
  defineCall(app, deps, API.getTrainerCertificate, ({ auth, body }) => certificates.getCertificate(ctx, auth, body.id));
  defineCall(app, deps, API.addTrainerCertificate, ({ auth, request }) =>
    certificates.saveCertificate(ctx, auth, request, false),
  );
  defineCall(app, deps, API.updateTrainerCertificate, ({ auth, request }) =>
    certificates.saveCertificate(ctx, auth, request, true),
  );
  defineCall(app, deps, API.deleteTrainerCertificate, ({ auth, body }) =>
    certificates.deleteCertificate(ctx, auth, body.id),
  );

  defineCall(app, deps, API.trainerReferenceList, ({ auth, body }) => references.referenceList(deps, auth, body));
  defineCall(app, deps, API.getTrainerReference, ({ auth, body }) => references.getReference(deps, auth, body.id));
  defineCall(app, deps, API.addTrainerReference, ({ auth, body }) => references.addReference(deps, auth, body));
  defineCall(app, deps, API.updateTrainerReference, ({ auth, body }) => references.updateReference(deps, auth, body));
  defineCall(app, deps, API.deleteTrainerReference, ({ auth, body }) =>
    references.deleteReference(deps, auth, body.id),
  );
}
