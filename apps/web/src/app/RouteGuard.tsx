import { decideAccess, type WebRoute } from '@trainlab/contract';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { REDIRECT_KEY, useSession } from '../api/session';

/** The browser side of spec 01 §6 (convenience only: the server enforces every rule). */
export function RouteGuard({ route, children }: { route: WebRoute; children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  const decision = decideAccess(route, session ? session.roles : null);
  switch (decision) {
    case 'allow':
      return <>{children}</>;
    case 'not-authorized':
      return <Navigate to="/not-authorized" replace />;
    case 'to-home':
      return <Navigate to="/" replace />;
    case 'to-login':
      // remembered so that login brings the visitor back here (idempotent, safe during render)
      localStorage.setItem(REDIRECT_KEY, `${location.pathname}${location.search}`);
      return <Navigate to="/login" replace />;
  }
}
