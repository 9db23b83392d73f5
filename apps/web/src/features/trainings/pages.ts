import { type LazyPage, lazyPage } from '../../app/lazy-page';

/** Screens of providers' and organizations' live trainings, by route pattern. */
export const TRAINING_PAGES: Record<string, LazyPage> = {
  '/learning-provider': lazyPage(() => import('./DashboardPages'), 'ProviderDashboardPage'),
  '/create-training': lazyPage(() => import('./CreateTrainingPage'), 'CreateTrainingPage'),
  '/all-trainings': lazyPage(() => import('./AllTrainingsPage'), 'AllTrainingsPage'),
  '/completed-trainings': lazyPage(() => import('./CompletedPages'), 'CompletedTrainingsPage'),
  '/completed-training-users/:slug': lazyPage(() => import('./CompletedPages'), 'CompletedTrainingUsersPage'),
  '/training-details/:slug': lazyPage(() => import('./DetailsPages'), 'TrainingDetailsPage'),
  '/training/:slug': lazyPage(() => import('./TrainingLinkPage'), 'TrainingLinkPage'),
  '/add-training-user/:slug': lazyPage(() => import('./UsersPages'), 'AddTrainingUserPage'),
  '/show-training-users/:slug': lazyPage(() => import('./UsersPages'), 'ShowTrainingUsersPage'),
  '/assing/trainer/:slug': lazyPage(() => import('./UsersPages'), 'AssignTrainerPage'),
  '/training-syllabus/:slug': lazyPage(() => import('./SyllabusPages'), 'TrainingSyllabusPage'),
  '/add-training-syllabus/:slug': lazyPage(() => import('./SyllabusPages'), 'AddTrainingSyllabusPage'),
  '/training-attendance/:id': lazyPage(() => import('./SyllabusPages'), 'TrainingAttendancePage'),
  '/trainer/assigned-trainings': lazyPage(() => import('./DashboardPages'), 'TrainerAssignedTrainingsPage'),
};
