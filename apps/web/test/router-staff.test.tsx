import { describe } from 'vitest';
import { walkEveryRouteAs } from './route-walk';

// the other identities of the route walk, in their own file so both halves run in parallel
describe('router generated from WEB_ROUTES (staff roles)', () => {
  walkEveryRouteAs(['organization', 'organization_user', 'org_subadmin', 'trainer', 'admin']);
});
