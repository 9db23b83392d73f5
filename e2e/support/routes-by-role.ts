import { decideAccess, ROLES, type Role, WEB_ROUTES } from '@trainlab/contract';

/** Who walks the routes: each of the eight roles, and nobody signed in. */
export type Visitor = Role | 'anonymous';
export const VISITORS: readonly Visitor[] = ['anonymous', ...ROLES];

/**
 * The route patterns (`/training/:slug`) each visitor may open, straight from the contract's route
 * table and its guard rule: a pure function of the contract, so every walk that visits "every route of
 * every role" (security policy, accessibility) reads the same list.
 */
export function routesByRole(): Record<Visitor, string[]> {
  const out = {} as Record<Visitor, string[]>;
  for (const visitor of VISITORS) {
    const roles = visitor === 'anonymous' ? null : [visitor];
    out[visitor] = WEB_ROUTES.filter((r) => decideAccess(r, roles) === 'allow').map((r) => r.path);
  }
  return out;
}

/** A concrete path for a pattern: each `:param` from `values`, or `fallback` when not given. */
export function fillRoute(pattern: string, values: Record<string, string> = {}, fallback = 'missing'): string {
  return pattern.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(values[name] ?? fallback));
}
