import { API } from '@trainlab/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps';
import { defineCall } from '../../platform/http/define-call';
import { microCache } from '../../platform/micro-cache';
import { homeTrainings, searchCertifications, searchCourses } from './catalog';

/** The public catalogue (spec 01 §7 /get-home-trainings, /search-by-courses, /search-by-certifications). */
export function catalogRoutes(app: FastifyInstance, deps: Deps): void {
  // the same for every visitor: computed at most once every 10 s per instance
  const home = microCache(10_000, () => homeTrainings(deps));
  defineCall(app, deps, API.getHomeTrainings, () => home());
  defineCall(app, deps, API.searchByCourses, ({ body }) => searchCourses(deps, body));
  defineCall(app, deps, API.searchByCertifications, ({ body }) => searchCertifications(deps, body));
}
