import { API } from '@trainlab/contract';
import type { FastifyInstance } from 'fastify';
import { audited, uploadTarget } from '../../platform/audit';
import type { Deps } from '../../platform/deps';
import { defineCall } from '../../platform/http/define-call';
import { PlaybackTokens } from '../recordings/tokens';
import * as assign from './assign';
import { deleteCaptions, saveTranscript, uploadCaptions } from './captions';
import * as courses from './courses';
import * as player from './player';
import * as topics from './topics';
import { courseUploadRoutes } from './uploads';

/**
 * Recorded courses: the POST calls of the permission table, and GET /api/course-media/:token/:file
 * (HLS playlists, segments and posters through short-lived signed tokens, byte ranges).
 */
export function courseRoutes(app: FastifyInstance, deps: Deps): void {
  const ctx: player.PlayerCtx = {
    deps,
    files: deps.files,
    tokens: new PlaybackTokens(() => deps.secrets.get('COURSE_MEDIA_SECRET')),
  };
  defineCall(app, deps, API.getCourses, ({ body, auth }) => courses.getCourses(deps, auth, body), {
    cache: { tables: courses.COURSE_LIST_TABLES },
  });
  defineCall(app, deps, API.getModules, ({ body, auth }) => courses.getModules(deps, auth, body.course_id));
  defineCall(
    app,
    deps,
    API.createCourse,
    audited(API.createCourse, { type: 'course' }, ({ body, auth }) => courses.createCourse(deps, auth, body)),
  );
  defineCall(
    app,
    deps,
    API.createModule,
    audited(API.createModule, { type: 'course_module' }, ({ body, auth }) => courses.createModule(deps, auth, body)),
  );
  defineCall(app, deps, API.getCourseDetails, ({ body, auth }) => courses.getCourseDetails(deps, auth, body.slug));
  defineCall(app, deps, API.courseList, ({ body }) => courses.courseList(deps, body));
  defineCall(
    app,
    deps,
    API.createAllCourse,
    audited(API.createAllCourse, uploadTarget('course_topic'), ({ auth, request }) =>
      topics.createTopic(ctx, auth, request),
    ),
  );
  defineCall(
    app,
    deps,
    API.updateAllCourse,
    audited(API.updateAllCourse, uploadTarget('course_topic', 'slug'), ({ auth, request }) =>
      topics.updateTopic(ctx, auth, request),
    ),
  );
  defineCall(app, deps, API.getCourseModuleTopicList, ({ body, auth }) => topics.topicList(deps, auth, body));
  defineCall(app, deps, API.getTopicDetails, ({ body, auth }) => topics.getTopicDetails(deps, auth, body.slug));
  defineCall(
    app,
    deps,
    API.deleteTopic,
    audited(API.deleteTopic, { type: 'course_topic', key: 'slug' }, ({ body, auth }) =>
      topics.deleteTopic(ctx, auth, body.slug),
    ),
  );
  defineCall(app, deps, API.uploadTopicCaptions, ({ auth, request }) => uploadCaptions(ctx, auth, request));
  defineCall(app, deps, API.deleteTopicCaptions, ({ body, auth }) => deleteCaptions(ctx, auth, body));
  defineCall(app, deps, API.saveTopicTranscript, ({ body, auth }) => saveTranscript(ctx, auth, body));
  defineCall(app, deps, API.retryTopicVideo, ({ body, auth }) => topics.retryTopicVideo(ctx, auth, body.slug));
  defineCall(app, deps, API.playCourseData, ({ body, auth }) => player.playCourseData(ctx, auth, body.slug));
  defineCall(app, deps, API.courseProgress, ({ body, auth }) => player.reportProgress(ctx, auth, body));
  defineCall(app, deps, API.getUserCourses, ({ auth }) => player.userCourses(deps, auth));
  defineCall(app, deps, API.getLpOrOrgUsers, ({ auth }) => assign.lpOrOrgUsers(deps, auth));
  defineCall(
    app,
    deps,
    API.assignCourseToUser,
    audited(API.assignCourseToUser, { type: 'course-assignment' }, ({ body, auth }) =>
      assign.assignCourse(deps, auth, body),
    ),
  );
  defineCall(app, deps, API.getCourseUsersList, ({ body, auth }) => assign.courseUsers(deps, auth, body));
  courseUploadRoutes(app, deps, ctx.files);
  app.get('/api/course-media/:token/:file', (request, reply) => player.sendCourseMedia(ctx, request, reply));
}
