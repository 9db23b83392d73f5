import { lazy, Suspense } from 'react';
import { Loading } from '../../ui/Loading';
import type { ChartsAudience } from './DashboardCharts';

// the chart library (recharts) and its styles come with this chunk, after the page's number cards
const Charts = lazy(() => import('./DashboardCharts').then((m) => ({ default: m.DashboardCharts })));

/** A dashboard's charts, fetched and drawn once the page itself is on screen. */
export function LazyDashboardCharts({ audience }: { audience: ChartsAudience }) {
  return (
    <Suspense fallback={<Loading label="Loading charts…" />}>
      <Charts audience={audience} />
    </Suspense>
  );
}
