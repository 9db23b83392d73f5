import { Outlet } from 'react-router';
import { useSessionCheck } from './use-session-check';

/** The top of the tree: session checks run once here for every layout. */
export function RootFrame() {
  useSessionCheck();
  return <Outlet />;
}
