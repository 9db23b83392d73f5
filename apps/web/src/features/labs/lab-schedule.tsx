import { lazy, Suspense } from 'react';
import { LoadingLines } from '../../ui/Loading';

const LabSchedulePanel = lazy(() => import('./LabSchedulePanel'));

/** The training's lab schedule, for its syllabus page (loaded with the panel's own chunk). */
export function LabSchedule({ slug }: { slug: string }) {
  return (
    <Suspense fallback={<LoadingLines lines={2} />}>
      <LabSchedulePanel slug={slug} />
    </Suspense>
  );
}
