import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { decideAccess, homeForRoles, menuForRoles, ROLE_HOME, ROLES, SIDEBAR, toFieldErrors, WEB_ROUTES } from '../src';

describe('route table', () => {
  it('has no duplicate paths and every role home is a route that role may open', () => {
    const paths = WEB_ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const role of ROLES) {
      const route = WEB_ROUTES.find((r) => r.path === ROLE_HOME[role]);
      expect(route, role).toBeDefined();
      expect(decideAccess(route!, [role])).toBe('allow');
    }
  });

  it('every sidebar entry is a route its role may open', () => {
    for (const role of ROLES) {
      for (const item of SIDEBAR[role]) {
        const route = WEB_ROUTES.find((r) => r.path === item.path);
        expect(route, `${role} → ${item.path}`).toBeDefined();
        expect(decideAccess(route!, [role]), `${role} → ${item.path}`).toBe('allow');
      }
    }
  });

  it('applies the guard rule of spec 01 §6', () => {
    const admin = WEB_ROUTES.find((r) => r.path === '/admin/home')!;
    expect(decideAccess(admin, null)).toBe('to-home');
    expect(decideAccess(admin, ['provider'])).toBe('not-authorized');
    expect(decideAccess(admin, ['provider', 'admin'])).toBe('allow');
    const conference = WEB_ROUTES.find((r) => r.path === '/conference/:slug')!;
    expect(decideAccess(conference, null)).toBe('to-login');
  });

  it('admin sees admin menus only; every other role has My Trainings', () => {
    expect(menuForRoles(['admin', 'provider']).some((m) => m.path === '/my-trainings')).toBe(false);
    for (const role of ROLES.filter((r) => r !== 'admin')) {
      expect(
        SIDEBAR[role].some((m) => m.path === '/my-trainings'),
        role,
      ).toBe(true);
    }
    expect(homeForRoles(['user', 'provider'])).toBe('/learning-provider');
  });
});

describe('field errors', () => {
  it('word messages like the original server', () => {
    const schema = z.object({ first_name: z.string().min(1), email: z.email(), age: z.number() });
    const input = { email: 'x', age: 'y' };
    const result = schema.safeParse(input);
    expect(toFieldErrors(result.error!.issues, input)).toEqual({
      first_name: ['The first name field is required.'],
      email: ['The email must be a valid email address.'],
      age: ['The age must be a number.'],
    });
  });
});
