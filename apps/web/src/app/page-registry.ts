import type { ComponentType } from 'react';
import { ChangePasswordPage } from '../features/auth/ChangePasswordPage';
import { ForgotPasswordPage } from '../features/auth/ForgotPasswordPage';
import { LoginPage } from '../features/auth/LoginPage';
import { RegisterPage } from '../features/auth/RegisterPage';
import { ResetPasswordPage } from '../features/auth/ResetPasswordPage';
import { CONFERENCE_PAGES } from '../features/conference/pages';
import { RoleHomePage } from '../features/home/RoleHomePage';
import { LEARNER_PAGES } from '../features/learner/pages';
import { MASTER_DATA_PAGES } from '../features/master-data/pages';
import { ORGANIZATION_PAGES } from '../features/organizations/pages';
import { CommingSoonPage } from '../features/public/CommingSoonPage';
import { LandingPage } from '../features/public/LandingPage';
import { NotAuthorizedPage } from '../features/public/NotAuthorizedPage';
import { PrivacyPolicyPage } from '../features/public/PrivacyPolicyPage';
import { TermsPage } from '../features/public/TermsPage';
import { RECORDING_PAGES } from '../features/recording/pages';
import { TRAINING_PAGES } from '../features/trainings/pages';
import { ComingSoonPage } from './ComingSoonPage';

/** The screen of each route pattern built so far; any other route shows the 'Coming soon' body. */
const PAGES: Record<string, ComponentType> = {
  '/': LandingPage,
  '/training-home': LandingPage,
  '/login': LoginPage,
  '/register': RegisterPage,
  '/forgot-password': ForgotPasswordPage,
  '/reset-password/:i_t': ResetPasswordPage,
  '/change-password': ChangePasswordPage,
  '/not-authorized': NotAuthorizedPage,
  '/privacy-policy': PrivacyPolicyPage,
  '/terms-and-conditions': TermsPage,
  '/comming-soon': CommingSoonPage,
  '/users': RoleHomePage,
  '/learning-provider': RoleHomePage,
  '/organization': RoleHomePage,
  '/ou/home': RoleHomePage,
  '/admin/home': RoleHomePage,
  '/lpu-home': RoleHomePage,
  '/trainer-home': RoleHomePage,
};

/** Later features register their screens in their own folder; they take precedence. */
const FEATURE_PAGES: Record<string, ComponentType> = {
  ...ORGANIZATION_PAGES,
  ...MASTER_DATA_PAGES,
  ...TRAINING_PAGES,
  ...LEARNER_PAGES,
  ...CONFERENCE_PAGES,
  ...RECORDING_PAGES,
};

export function pageFor(pattern: string): ComponentType {
  return FEATURE_PAGES[pattern] ?? PAGES[pattern] ?? ComingSoonPage;
}
