import { decideAccess, ROLES, type Role, WEB_ROUTES, type WebRoute } from '@trainlab/contract';

/** Who walks the routes: each role of the contract, and a visitor without a session. */
export type Visitor = Role | 'anonymous';
export const VISITORS: readonly Visitor[] = ['anonymous', ...ROLES];

/**
 * The route patterns (with their `:params`) each visitor may open, straight from the contract's
 * route table: a route is a visitor's when the guard lets that visitor in. A pure function of the
 * table, so every walk over the routes (accessibility, security headers) shares one list.
 */
export function routesByRole(routes: readonly WebRoute[] = WEB_ROUTES): Record<Visitor, string[]> {
  const out = {} as Record<Visitor, string[]>;
  for (const visitor of VISITORS) {
    const roles = visitor === 'anonymous' ? null : [visitor];
    out[visitor] = routes.filter((r) => decideAccess(r, roles) === 'allow').map((r) => r.path);
  }
  return out;
}

/** The `:param` names of a route pattern, in order. */
export const paramsOf = (pattern: string): string[] => [...pattern.matchAll(/:(\w+)/g)].map((m) => m[1] as string);

/** A concrete path for a pattern: each `:param` from `values`, or `fallback` when not given. */
export function fillRoute(pattern: string, values: Record<string, string> = {}, fallback = 'missing'): string {
  return pattern.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(values[name] ?? fallback));
}
