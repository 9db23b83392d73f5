import { Outlet } from 'react-router';
import { useFocusHeadingOnNavigate } from './use-focus-heading';
import { useSessionCheck } from './use-session-check';

/** The top of the tree: session checks and focus on navigation run once here for every layout. */
export function RootFrame() {
  useSessionCheck();
  useFocusHeadingOnNavigate();
  return <Outlet />;
}
