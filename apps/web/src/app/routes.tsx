import { WEB_ROUTES, type WebRoute } from '@trainlab/contract';
import { type ReactNode, Suspense } from 'react';
import type { RouteObject } from 'react-router';
import { NotFoundPage } from '../features/public/NotFoundPage';
import { Loading } from '../ui/Loading';
import { type LayoutKind, layoutFor } from './layout-kind';
import { BareLayout } from './layouts/BareLayout';
import { PublicLayout } from './layouts/PublicLayout';
import { lazyPage } from './lazy-page';
import { pageFor } from './page-registry';
import { titleForPath } from './page-titles';
import { LIKELY_NEXT, PrefetchNext } from './prefetch-next';
import { RootFrame } from './RootFrame';
import { RouteGuard } from './RouteGuard';
import { RouteTitle } from './route-title';

// The signed-in frame (sidebar, account menu) is not needed by the landing or /login: its own chunk.
const ShellLayout = lazyPage(() => import('./layouts/ShellLayout'), 'ShellLayout');
const MailboxPage = lazyPage(() => import('../features/dev/MailboxPage'), 'MailboxPage');

/** Routes that exist only in the web app (not part of the spec's route table). */
const WEB_ONLY_ROUTES: { route: WebRoute; element: ReactNode }[] = [
  { route: { path: '/dev/mailbox', access: 'open' }, element: <MailboxPage /> },
];

function toRouteObject(route: WebRoute, element?: ReactNode): RouteObject {
  const Page = pageFor(route.path);
  const next = LIKELY_NEXT[route.path];
  // the signed-in frame comes with any signed-in screen
  const nextPages = next && [
    ...next.map(pageFor),
    ...(next.some((p) => layoutFor(p) === 'shell') ? [ShellLayout] : []),
  ];
  return {
    path: route.path,
    element: (
      <RouteGuard key={route.path} route={route}>
        <RouteTitle title={titleForPath(route.path)}>
          <Suspense fallback={<Loading />}>{element ?? <Page />}</Suspense>
          {nextPages && <PrefetchNext pages={nextPages} />}
        </RouteTitle>
      </RouteGuard>
    ),
  };
}

/** The whole router, generated from the contract's route table (spec 01 §2). */
export function buildRoutes(): RouteObject[] {
  const byLayout: Record<LayoutKind, RouteObject[]> = { public: [], shell: [], bare: [] };
  for (const route of WEB_ROUTES) byLayout[layoutFor(route.path)].push(toRouteObject(route));
  for (const { route, element } of WEB_ONLY_ROUTES) byLayout.public.push(toRouteObject(route, element));
  byLayout.public.push({ path: '*', element: <NotFoundPage /> });

  return [
    {
      element: <RootFrame />,
      children: [
        { element: <PublicLayout />, children: byLayout.public },
        {
          element: (
            <Suspense fallback={<Loading />}>
              <ShellLayout />
            </Suspense>
          ),
          children: byLayout.shell,
        },
        { element: <BareLayout />, children: byLayout.bare },
      ],
    },
  ];
}
