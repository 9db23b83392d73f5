import type { ApiCall } from '../api-base.js';
import { call, empty } from '../api-base.js';
import { LEARNER_ROLES, type Role } from '../roles.js';
import * as c from '../schemas/courses.js';

/** Providers, organizations and org sub-admins author and assign the courses of their own tenant. */
const MANAGERS: readonly Role[] = ['provider', 'organization', 'org_subadmin'];
const LEARNERS: readonly Role[] = LEARNER_ROLES;
/** Managers preview their courses; learners play the ones they are enrolled in. */
const PLAYERS: readonly Role[] = [...MANAGERS, ...LEARNERS];

/**
 * Recorded courses (spec 02 §7 'Courses'). Videos are served by GET /api/course-media/{token}/{file}
 * (short-lived signed token in the path, so the HLS playlists' relative URLs keep it; HTTP Range).
 */
export const COURSE_CALLS = {
  getCourses: call(
    'get-courses',
    MANAGERS,
    'Courses of the caller’s tenant; paged, searchable by name.',
    c.courseListRequest,
    c.authoredCoursePage,
  ),
  getModules: call(
    'get-modules',
    MANAGERS,
    'Modules of a course of the caller’s tenant.',
    c.getModulesRequest,
    c.moduleList,
  ),
  playCourseData: call(
    'play-course-data',
    PLAYERS,
    'The player’s data: course (name) and data (modules with topics holding name, url, description, the learner’s progress). Learners only for courses they are enrolled in, inside the assignment window.',
    c.courseSlugRequest,
    c.playCourseResponse,
  ),
  createCourse: call(
    'create-course',
    MANAGERS,
    'Create a course of the caller’s tenant (amount in rupees).',
    c.createCourseRequest,
    c.createCourseResponse,
  ),
  createModule: call(
    'create-module',
    MANAGERS,
    'Add a module to a course.',
    c.createModuleRequest,
    c.createModuleResponse,
  ),
  createAllCourse: call(
    'create-all-course',
    MANAGERS,
    'Add a topic (multipart: course_url video file, module_id, name, description). The video is checked by content and processed in the background (duration, poster, HLS renditions); the topic is "processing" until then.',
    c.topicUploadRequest,
    c.topicUploadResponse,
    { multipart: true },
  ),
  updateAllCourse: call(
    'update-all-course',
    MANAGERS,
    'Edit a topic (multipart: course_url file or empty, module_id, name, description, topic_id). A new video replaces the old one and is processed again.',
    c.topicUploadRequest,
    c.topicUploadResponse,
    { multipart: true },
  ),
  getCourseDetails: call(
    'get-course-details',
    MANAGERS,
    'One course of the caller’s tenant.',
    c.courseSlugRequest,
    c.courseDetails,
  ),
  getCourseModuleTopicList: call(
    'get-course-module-topic-list',
    MANAGERS,
    'Topics of a course (course, module, topic, tslug, video state); paged, searchable.',
    c.topicListRequest,
    c.topicPage,
  ),
  getTopicDetails: call(
    'get-topic-details',
    MANAGERS,
    'One topic (by topic slug) for the edit screen.',
    c.topicSlugRequest,
    c.topicDetails,
  ),
  deleteTopic: call(
    'delete-topic',
    MANAGERS,
    'Delete a topic (by topic slug) with its stored video, poster and renditions.',
    c.topicSlugRequest,
    c.courseMessageResponse,
  ),
  uploadTopicCaptions: call(
    'upload-topic-captions',
    MANAGERS,
    'Upload one WebVTT caption track of a topic’s video (multipart: slug, language, label, file; at most 512 KB, must start with WEBVTT); a track of the same language is replaced. The topic’s tracks are in /get-topic-details.',
    c.topicCaptionsRequest,
    c.courseMessageResponse,
    { multipart: true },
  ),
  deleteTopicCaptions: call(
    'delete-topic-captions',
    MANAGERS,
    'Delete the caption track of one language {slug, language} from a topic’s video, with its file.',
    c.deleteCaptionsRequest,
    c.courseMessageResponse,
  ),
  saveTopicTranscript: call(
    'save-topic-transcript',
    MANAGERS,
    'Set the transcript shown under a topic’s video {slug, transcript} or take it from a caption track {slug, from_language} (the cues’ text without timings); an empty transcript removes it.',
    c.saveTranscriptRequest,
    c.saveTranscriptResponse,
  ),
  retryTopicVideo: call(
    'retry-topic-video',
    MANAGERS,
    'Process a topic’s video again after a failure.',
    c.topicSlugRequest,
    c.courseMessageResponse,
  ),
  getUserCourses: call(
    'get-user-courses',
    LEARNERS,
    'The learner’s courses: Assigned (incomplete), Completed, and Enrolled (bought), each with the real percentage.',
    empty,
    c.userCoursesResponse,
  ),
  courseProgress: call(
    'course-progress',
    PLAYERS,
    'The player reports watched time for a topic (slug): seconds played since the last report and the position. Credit never exceeds the video’s duration nor the wall-clock time between reports; complete at 90 %.',
    c.courseProgressRequest,
    c.courseProgressResponse,
  ),
  getLpOrOrgUsers: call(
    'get-lp-or-org-users',
    MANAGERS,
    'Learners the caller may assign courses to (a provider’s provider users, an organization’s users).',
    empty,
    c.lpUserList,
  ),
  assignCourseToUser: call(
    'assign-course-to-user',
    MANAGERS,
    'Assign a course to learners for a window; assigning again updates the window.',
    c.assignCourseRequest,
    c.assignCourseResponse,
  ),
  getCourseUsersList: call(
    'get-course-users-list',
    MANAGERS,
    'Learners of a course with their window, progress and completion; paged, searchable.',
    c.courseUsersRequest,
    c.courseUserPage,
  ),
  courseList: call(
    'course-list',
    'authenticated',
    'Public courses (the catalogue); paged, searchable by name.',
    c.catalogueRequest,
    c.cataloguePage,
  ),
} satisfies Record<string, ApiCall>;
