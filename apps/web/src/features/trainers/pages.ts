import { type LazyPage, lazyPage } from '../../app/lazy-page';

/** The trainer's own screens and the take-call screens, by route pattern. */
export const TRAINER_PAGES: Record<string, LazyPage> = {
  '/trainer-home': lazyPage(() => import('./TrainerHomePage'), 'TrainerHomePage'),
  '/trainer/profile': lazyPage(() => import('./ProfilePages'), 'TrainerProfilePage'),
  '/trainer/update-profile': lazyPage(() => import('./ProfilePages'), 'TrainerUpdateProfilePage'),
  '/trainer/bank-details-list': lazyPage(() => import('./BankPages'), 'BankListPage'),
  '/trainer/add-bank-details': lazyPage(() => import('./BankPages'), 'AddBankPage'),
  '/trainer/update-bank-details/:id': lazyPage(() => import('./BankPages'), 'UpdateBankPage'),
  '/trainer/skill-list': lazyPage(() => import('./SkillPages'), 'SkillListPage'),
  '/trainer/skill-add': lazyPage(() => import('./SkillPages'), 'SkillAddPage'),
  '/trainer/skill-update/:id': lazyPage(() => import('./SkillPages'), 'SkillUpdatePage'),
  '/trainer/certificate/list': lazyPage(() => import('./CertificatePages'), 'CertificateListPage'),
  '/trainer/certificate/add': lazyPage(() => import('./CertificatePages'), 'CertificateAddPage'),
  '/trainer/certificate/update/:id': lazyPage(() => import('./CertificatePages'), 'CertificateUpdatePage'),
  '/trainer/reference/list': lazyPage(() => import('./ReferencePages'), 'ReferenceListPage'),
  '/trainer/reference/add': lazyPage(() => import('./ReferencePages'), 'ReferenceAddPage'),
  '/trainer/reference/update/:id': lazyPage(() => import('./ReferencePages'), 'ReferenceUpdatePage'),
  '/admin/trainer-bank-details': lazyPage(() => import('./AdminBankPages'), 'AdminBankListPage'),
  '/trainer-take-calls': lazyPage(() => import('./TrainerTakeCallPages'), 'TrainerTakeCallsPage'),
  '/confirm-training-requirement/:id': lazyPage(() => import('./TrainerTakeCallPages'), 'ConfirmRequirementPage'),
  '/take-calls': lazyPage(() => import('./TakeCallPages'), 'TakeCallListPage'),
  '/take-call-trainers/:id': lazyPage(() => import('./TakeCallPages'), 'TakeCallTrainersPage'),
  '/trainer/take/call/:slug': lazyPage(() => import('./TakeCallPages'), 'SearchTrainersPage'),
  '/trainer/requirement/confirm/:trainer_id/:take_call_id': lazyPage(
    () => import('./TakeCallPages'),
    'TrainerRequirementStatusPage',
  ),
};
