import { counterpartOf, decideAccess, type WebRoute } from '@trainlab/contract';
import type { ReactNode } from 'react';
import { Navigate, type Params, useLocation, useParams } from 'react-router';
import { REDIRECT_KEY, useSession } from '../api/session';

/** A pattern's `:params` from the current route's, each encoded: a slug that spells a path stays one. */
const fill = (pattern: string, params: Params) =>
  pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));

/** The browser side of spec 01 §6 (convenience only: the server enforces every rule). */
export function RouteGuard({ route, children }: { route: WebRoute; children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  const params = useParams();
  const decision = decideAccess(route, session ? session.roles : null);
  switch (decision) {
    case 'allow':
      return <>{children}</>;
    case 'not-authorized':
      return <Navigate to="/not-authorized" replace />;
    case 'counterpart':
      // the same record on the screen this role has for it (a learner's link to a training, say)
      return <Navigate to={`${fill(counterpartOf(route, session?.roles ?? [])!, params)}${location.search}`} replace />;
    case 'to-home':
      return <Navigate to="/" replace />;
    case 'to-login':
      // remembered so that login brings the visitor back here (idempotent, safe during render)
      localStorage.setItem(REDIRECT_KEY, `${location.pathname}${location.search}`);
      return <Navigate to="/login" replace />;
  }
}
