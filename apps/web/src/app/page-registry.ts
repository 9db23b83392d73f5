import type { ComponentType } from 'react';
import { ASSESSMENT_PAGES } from '../features/assessments/pages';
import { AUDIT_PAGES } from '../features/audit/pages';
import { LoginPage } from '../features/auth/LoginPage';
import { CATALOG_PAGES } from '../features/catalog/pages';
import { CONFERENCE_PAGES } from '../features/conference/pages';
import { COURSE_PAGES } from '../features/courses/pages';
import { LAB_PAGES } from '../features/labs/pages';
import { LEARNER_PAGES } from '../features/learner/pages';
import { MASTER_DATA_PAGES } from '../features/master-data/pages';
import { ORGANIZATION_PAGES } from '../features/organizations/pages';
import { PAYMENT_PAGES } from '../features/payments/pages';
import { LandingPage } from '../features/public/LandingPage';
import { NotFoundPage } from '../features/public/NotFoundPage';
import { RECORDING_PAGES } from '../features/recordings/pages';
import { SSO_PAGES } from '../features/sso/pages';
import { TAKE_CALL_PAGES } from '../features/take-calls/pages';
import { TRAINER_PAGES } from '../features/trainers/pages';
import { TRAINING_PAGES } from '../features/trainings/pages';
import { type LazyPage, lazyPage } from './lazy-page';

const RoleHomePage = lazyPage(() => import('../features/home/RoleHomePage'), 'RoleHomePage');

/**
 * The screen of each route pattern (every route of the contract's table has one: a test holds it).
 * The landing and /login are in the first bundle (they are the first page most people open);
 * every other screen is its own chunk, loaded when its route opens.
 */
const PAGES: Record<string, ComponentType | LazyPage> = {
  '/': LandingPage,
  '/training-home': LandingPage,
  '/login': LoginPage,
  '/register': lazyPage(() => import('../features/auth/RegisterPage'), 'RegisterPage'),
  '/forgot-password': lazyPage(() => import('../features/auth/ForgotPasswordPage'), 'ForgotPasswordPage'),
  '/reset-password/:i_t': lazyPage(() => import('../features/auth/ResetPasswordPage'), 'ResetPasswordPage'),
  '/change-password': lazyPage(() => import('../features/auth/ChangePasswordPage'), 'ChangePasswordPage'),
  '/not-authorized': lazyPage(() => import('../features/public/NotAuthorizedPage'), 'NotAuthorizedPage'),
  '/privacy-policy': lazyPage(() => import('../features/public/PrivacyPolicyPage'), 'PrivacyPolicyPage'),
  '/terms-and-conditions': lazyPage(() => import('../features/public/TermsPage'), 'TermsPage'),
  '/comming-soon': lazyPage(() => import('../features/public/CommingSoonPage'), 'CommingSoonPage'),
  '/users': RoleHomePage,
  '/learning-provider': RoleHomePage,
  '/organization': RoleHomePage,
  '/ou/home': RoleHomePage,
  '/admin/home': RoleHomePage,
  '/lpu-home': RoleHomePage,
  '/trainer-home': RoleHomePage,
};

/** Later features register their screens in their own folder; they take precedence. */
const FEATURE_PAGES: Record<string, LazyPage> = {
  ...ORGANIZATION_PAGES,
  ...MASTER_DATA_PAGES,
  ...TRAINING_PAGES,
  ...LEARNER_PAGES,
  ...CONFERENCE_PAGES,
  ...RECORDING_PAGES,
  ...LAB_PAGES,
  ...ASSESSMENT_PAGES,
  ...CATALOG_PAGES,
  ...PAYMENT_PAGES,
  ...COURSE_PAGES,
  ...SSO_PAGES,
  ...TRAINER_PAGES,
  ...TAKE_CALL_PAGES,
  ...AUDIT_PAGES,
};

/** The screen of a route pattern, or undefined for a pattern no screen is registered for. */
export function screenFor(pattern: string): ComponentType | LazyPage | undefined {
  return FEATURE_PAGES[pattern] ?? PAGES[pattern];
}

/** The screen of a route pattern; a pattern without one answers as an unknown path does. */
export function pageFor(pattern: string): ComponentType | LazyPage {
  return screenFor(pattern) ?? NotFoundPage;
}
