import { call } from '../api-base.js';
import * as cat from '../schemas/catalog.js';
import * as c from '../schemas/payments.js';

/** The public catalogue (spec 01 §2): the landing's trending items, search, a course's own page. */
export const CATALOG_CALLS = {
  getHomeTrainings: call(
    'get-home-trainings',
    'public',
    'The landing: trending public paid courses of every tenant (`list`, also as `courses`) and the admin’s certifications.',
    c.showCartRequest.partial(),
    cat.homeTrainingsResponse,
  ),
  searchByCourses: call(
    'search-by-courses',
    'public',
    'Public paid courses, paged; search by name, price range in rupees.',
    cat.searchCoursesRequest,
    cat.coursePage,
  ),
  searchByCertifications: call(
    'search-by-certifications',
    'public',
    'Certifications, paged; certification_type AWS/Google/Microsoft/All (default AWS), level, price range in rupees, search.',
    cat.searchCertificationsRequest,
    cat.certificationPage,
  ),
  getCatalogueCourse: call(
    'get-catalogue-course',
    'public',
    'The public page of a catalogue course {slug}: description, price, offered by, modules with topic titles and lengths, and whether the signed-in caller already has it (404 when it is not for sale).',
    cat.catalogueCourseRequest,
    cat.catalogueCourseDetails,
  ),
};
