import { type LazyPage, lazyPage } from '../../app/lazy-page';

/** The trainer's own screens, by route pattern (the take-call screens are in ../take-calls). */
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
};
