import type { ComponentType } from 'react';
import { CertificatePage } from './CertificatePage';
import { LearnerDashboardPage } from './LearnerDashboardPage';
import { MyTrainingsPage } from './MyTrainingsPage';
import { TrainingDetailsPage } from './TrainingDetailsPage';
import { TrainingRegisterPage } from './TrainingRegisterPage';
import { VerifyCertificatePage } from './VerifyCertificatePage';

/** Screens of learners, public student registration and certificates, by route pattern. */
export const LEARNER_PAGES: Record<string, ComponentType> = {
  '/my-trainings': MyTrainingsPage,
  '/user/training-details/:slug': TrainingDetailsPage,
  '/lpu-home': LearnerDashboardPage,
  '/users': LearnerDashboardPage,
  '/certificate/:slug': CertificatePage,
  '/certificate/verify/:ref_no': VerifyCertificatePage,
  '/training-register/:slug': TrainingRegisterPage,
};
