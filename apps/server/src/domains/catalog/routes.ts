import { API } from '@trainlab/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps';
import { defineCall } from '../../platform/http/define-call';
import { searchCertifications, searchCourses } from './catalog';
import { catalogueCourse } from './course-page';
import { cachedHome } from './home-cache';

/** The public catalogue (spec 01 §7 /get-home-trainings, /search-by-courses, /search-by-certifications; the course page). */
export function catalogRoutes(app: FastifyInstance, deps: Deps): void {
  defineCall(app, deps, API.getHomeTrainings, () => cachedHome(deps));
  defineCall(app, deps, API.searchByCourses, ({ body }) => searchCourses(deps, body));
  defineCall(app, deps, API.searchByCertifications, ({ body }) => searchCertifications(deps, body));
  defineCall(app, deps, API.getCatalogueCourse, ({ auth, body }) => catalogueCourse(deps, auth, body.slug));
}
