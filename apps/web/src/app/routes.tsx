import { WEB_ROUTES, type WebRoute } from '@trainlab/contract';
import { type ReactNode, Suspense } from 'react';
import type { PatchRoutesOnNavigationFunction, RouteObject } from 'react-router';
import { NotFoundPage } from '../features/public/NotFoundPage';
import { Loading } from '../ui/Loading';
import { type LayoutKind, layoutFor } from './layout-kind';
import { BareLayout } from './layouts/BareLayout';
import { PublicLayout } from './layouts/PublicLayout';
import { lazyPage } from './lazy-page';
import { LIKELY_NEXT, SHELL } from './likely-next';
import { pageFor } from './page-registry';
import { titleForPath } from './page-titles';
import { PrefetchNext } from './prefetch-next';
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
  const withShell = next?.some((p) => layoutFor(p) === 'shell');
  const nextKeys = next && [...next, ...(withShell ? [SHELL] : [])];
  const nextPages = next && [...next.map(pageFor), ...(withShell ? [ShellLayout] : [])];
  return {
    path: route.path,
    element: (
      <RouteGuard key={route.path} route={route}>
        <RouteTitle title={titleForPath(route.path)}>
          <Suspense fallback={<Loading />}>{element ?? <Page />}</Suspense>
          {nextKeys && nextPages && <PrefetchNext keys={nextKeys} pages={nextPages} />}
        </RouteTitle>
      </RouteGuard>
    ),
  };
}

const LAYOUTS: LayoutKind[] = ['public', 'shell', 'bare'];
type ByLayout = Record<LayoutKind, RouteObject[]>;

/** Every route of the contract's table (spec 01 §2) and the web-only ones, under its frame. */
function routesByLayout(): ByLayout {
  const byLayout: ByLayout = { public: [], shell: [], bare: [] };
  for (const route of WEB_ROUTES) byLayout[layoutFor(route.path)].push(toRouteObject(route));
  for (const { route, element } of WEB_ONLY_ROUTES) byLayout.public.push(toRouteObject(route, element));
  byLayout.public.push(NOT_FOUND);
  return byLayout;
}

const NOT_FOUND: RouteObject = { path: '*', element: <NotFoundPage /> };

/** The frames, each holding its routes; the ids let routes be added to a frame later. */
function tree(children: ByLayout): RouteObject[] {
  return [
    {
      id: 'root',
      element: <RootFrame />,
      children: [
        { id: 'public', element: <PublicLayout />, children: children.public },
        {
          id: 'shell',
          element: (
            <Suspense fallback={<Loading />}>
              <ShellLayout />
            </Suspense>
          ),
          children: children.shell,
        },
        { id: 'bare', element: <BareLayout />, children: children.bare },
      ],
    },
  ];
}

/**
 * The router, generated from the contract's route table (spec 01 §2), for a page opened at `pathname`.
 * React Router ranks and matches every route of its table each time it matches a location (about 250
 * here, a regular expression built for each), which on a slow phone was a long task of its own before
 * the first page could appear. When the page opened is a route without parameters (the landing,
 * /login, most links), the router starts with that route alone (and the not-found page) and receives
 * the rest of the table at the first navigation that needs it; any other address starts with the
 * whole table.
 */
export function routerSetup(pathname: string): {
  routes: RouteObject[];
  patchRoutesOnNavigation?: PatchRoutesOnNavigationFunction;
} {
  const all = routesByLayout();
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const kind =
    path.includes(':') || path.includes('*') ? undefined : LAYOUTS.find((k) => all[k].some((r) => r.path === path));
  if (!kind) return { routes: tree(all) };
  const first: ByLayout = { public: [NOT_FOUND], shell: [], bare: [] };
  first[kind].unshift(all[kind].find((r) => r.path === path)!);
  let patched = false;
  return {
    routes: tree(first),
    patchRoutesOnNavigation: ({ patch }) => {
      if (patched) return;
      patched = true;
      for (const k of LAYOUTS)
        patch(
          k,
          all[k].filter((r) => !first[k].includes(r)),
        );
    },
  };
}
