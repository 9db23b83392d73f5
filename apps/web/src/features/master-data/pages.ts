import type { ComponentType } from 'react';
import { CategoriesPage } from './CategoriesPage';
import { CertificationCreatePage, CertificationEditPage, CertificationListPage } from './CertificationPages';
import { ServiceCreatePage, ServiceEditPage, ServiceListPage } from './ServicePages';
import { CreateTrainingCoursePage, TrainingCourseListPage } from './TrainingCoursePages';
import { VmPricingPage } from './VmPricingPage';

/** Screens of the admin's master data, by route pattern. */
export const MASTER_DATA_PAGES: Record<string, ComponentType> = {
  '/certification/create': CertificationCreatePage,
  '/certification/list': CertificationListPage,
  '/certification/edit/:id': CertificationEditPage,
  '/admin/categories': CategoriesPage,
  '/admin/create-training-course': CreateTrainingCoursePage,
  '/admin/training-course-list': TrainingCourseListPage,
  '/service/create': ServiceCreatePage,
  '/service/list': ServiceListPage,
  '/service/edit/:id': ServiceEditPage,
  '/admin/vm-pricing-chart': VmPricingPage,
};
