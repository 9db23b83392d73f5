import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps';
import { categoryRoutes } from './categories';
import { certificationRoutes } from './certifications';
import { labLimitRoutes } from './lab-limits';
import { serviceRoutes } from './services';
import { templateRoutes } from './templates';
import { trainingCourseRoutes } from './training-courses';
import { vmPricingRoutes } from './vm-pricing';

/** Admin master data (spec 02 §2 'Admin master data', §7) and the Excel template download. */
export function masterDataRoutes(app: FastifyInstance, deps: Deps): void {
  categoryRoutes(app, deps);
  certificationRoutes(app, deps);
  trainingCourseRoutes(app, deps);
  serviceRoutes(app, deps);
  vmPricingRoutes(app, deps);
  labLimitRoutes(app, deps);
  templateRoutes(app, deps);
}
