import { ComingSoonBody } from '../ui/ComingSoonBody';
import { useRouteTitle } from './route-title';

/** Body of a route whose screen belongs to a later issue. */
export function ComingSoonPage() {
  return <ComingSoonBody title={useRouteTitle()} />;
}
