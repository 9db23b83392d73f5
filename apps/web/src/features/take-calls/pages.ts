import { type LazyPage, lazyPage } from '../../app/lazy-page';

/** The take-call screens (a provider's call for trainers and a trainer's answer), by route pattern. */
export const TAKE_CALL_PAGES: Record<string, LazyPage> = {
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
