import type { ComponentType } from 'react';
import { AllTrainingsPage } from './AllTrainingsPage';
import { CompletedTrainingsPage, CompletedTrainingUsersPage } from './CompletedPages';
import { CreateTrainingPage } from './CreateTrainingPage';
import { ProviderDashboardPage, TrainerAssignedTrainingsPage } from './DashboardPages';
import { RecordingPage, TrainingDetailsPage } from './DetailsPages';
import { AddTrainingSyllabusPage, TrainingAttendancePage, TrainingSyllabusPage } from './SyllabusPages';
import { AddTrainingUserPage, AssignTrainerPage, ShowTrainingUsersPage } from './UsersPages';

/** Screens of providers' and organizations' live trainings, by route pattern. */
export const TRAINING_PAGES: Record<string, ComponentType> = {
  '/learning-provider': ProviderDashboardPage,
  '/create-training': CreateTrainingPage,
  '/all-trainings': AllTrainingsPage,
  '/completed-trainings': CompletedTrainingsPage,
  '/completed-training-users/:slug': CompletedTrainingUsersPage,
  '/training-details/:slug': TrainingDetailsPage,
  '/recording/:id': RecordingPage,
  '/add-training-user/:slug': AddTrainingUserPage,
  '/show-training-users/:slug': ShowTrainingUsersPage,
  '/assing/trainer/:slug': AssignTrainerPage,
  '/training-syllabus/:slug': TrainingSyllabusPage,
  '/add-training-syllabus/:slug': AddTrainingSyllabusPage,
  '/training-attendance/:id': TrainingAttendancePage,
  '/trainer/assigned-trainings': TrainerAssignedTrainingsPage,
};
