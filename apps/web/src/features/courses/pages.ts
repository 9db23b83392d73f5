import { type LazyPage, lazyPage } from '../../app/lazy-page';

/** Recorded courses: authoring and assignment (managers), the learner's list and the player. */
export const COURSE_PAGES: Record<string, LazyPage> = {
  '/all-courses': lazyPage(() => import('./AllCoursesPage'), 'AllCoursesPage'),
  '/create-course': lazyPage(() => import('./CreateCoursePage'), 'CreateCoursePage'),
  '/course-view/:slug': lazyPage(() => import('./CourseViewPage'), 'CourseViewPage'),
  '/edit-course/:slug': lazyPage(() => import('./EditCoursePage'), 'EditCoursePage'),
  '/course/assign-to-users/:slug': lazyPage(() => import('./AssignPages'), 'AssignCoursePage'),
  '/course/assign-users-list/:slug': lazyPage(() => import('./AssignPages'), 'CourseUsersPage'),
  '/user/courses/list': lazyPage(() => import('./LearnerPages'), 'UserCoursesPage'),
  '/course-list': lazyPage(() => import('./LearnerPages'), 'CourseCataloguePage'),
  '/course/:slug': lazyPage(() => import('./PlayerPage'), 'CoursePlayerPage'),
};
