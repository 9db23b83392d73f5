import { LEARNER_ROLES, TRAINING_STAFF_ROLES } from '@trainlab/contract';
import { Navigate, useParams } from 'react-router';
import { useSession } from '../../api/session';

/**
 * /training/:slug, a training's shareable address: it opens the training's screen for whoever follows
 * it — its details for those who run or teach it, the learner's topics with Join for a learner. A
 * visitor without a session was already sent to /login by the route guard and comes back here.
 */
export function TrainingLinkPage() {
  const { slug = '' } = useParams();
  const session = useSession();
  if (!session) return null;
  // those who run or teach it get its details with topics and recordings
  const to = TRAINING_STAFF_ROLES.some((r) => session.roles.includes(r))
    ? `/training-details/${encodeURIComponent(slug)}`
    : LEARNER_ROLES.some((r) => session.roles.includes(r))
      ? `/user/training-details/${encodeURIComponent(slug)}`
      : '/not-authorized';
  return <Navigate to={to} replace />;
}
