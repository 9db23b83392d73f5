import { lazy, Suspense } from 'react';
import { Loading } from '../../ui/Loading';

const LabWatchPanel = lazy(() => import('./LabWatchPanel'));

/**
 * The over-the-shoulder view for a live training's room, loaded only when a moderator is in it
 * (noVNC stays out of everyone else's download).
 */
export function LabWatch({ slug, moderator }: { slug: string; moderator: boolean }) {
  if (!moderator) return null;
  return (
    <Suspense fallback={<Loading label="Loading learners’ labs…" />}>
      <LabWatchPanel slug={slug} />
    </Suspense>
  );
}
