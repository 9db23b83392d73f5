import { type LazyPage, lazyPage } from '../../app/lazy-page';

/** Screens of learners, public student registration and certificates, by route pattern. */
export const LEARNER_PAGES: Record<string, LazyPage> = {
  '/my-trainings': lazyPage(() => import('./MyTrainingsPage'), 'MyTrainingsPage'),
  '/user/training-details/:slug': lazyPage(() => import('./TrainingDetailsPage'), 'TrainingDetailsPage'),
  '/lpu-home': lazyPage(() => import('./LearnerDashboardPage'), 'LearnerDashboardPage'),
  '/users': lazyPage(() => import('./LearnerDashboardPage'), 'LearnerDashboardPage'),
  '/certificate/:slug': lazyPage(() => import('./CertificatePage'), 'CertificatePage'),
  '/certificate/verify/:ref_no': lazyPage(() => import('./VerifyCertificatePage'), 'VerifyCertificatePage'),
  '/training-register/:slug': lazyPage(() => import('./TrainingRegisterPage'), 'TrainingRegisterPage'),
};
