import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  API,
  counterpartOf,
  decideAccess,
  homeForRoles,
  LEARNER_ROLES,
  menuForRoles,
  ROLE_HOME,
  ROLES,
  SIDEBAR,
  toFieldErrors,
  WEB_ROUTES,
} from '../src';

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

  it('an open screen serves exactly the roles its call accepts; the others go to a counterpart or /not-authorized', () => {
    /** the call each such screen makes first, whose refusal would be all the screen could show */
    const screenCall: Record<string, string> = {
      '/recording/:id': 'get-recording',
      '/training-details/:slug': 'get-training-details',
      '/user/training-details/:slug': 'get-user-training-details',
      '/vm/:name': 'vm-connection',
      '/my-trainings': 'lpu/get-trainings',
      '/conference/:slug': 'get-meeting-link',
      '/training/start/:id': 'get-meeting-link',
      '/course/:slug': 'play-course-data',
      '/white-board': 'get-whiteboard',
      '/user/courses/list': 'get-user-courses',
    };
    const served = WEB_ROUTES.filter((r) => r.serves);
    expect(served.map((r) => r.path).sort()).toEqual(Object.keys(screenCall).sort());
    for (const route of served) {
      const call = Object.values(API).find((c) => c.path === screenCall[route.path]);
      expect([...(call!.access as string[])].sort(), route.path).toEqual([...route.serves!].sort());
      for (const role of ROLES) {
        const target = counterpartOf(route, [role]);
        const expected = route.serves!.includes(role) ? 'allow' : target ? 'counterpart' : 'not-authorized';
        expect(decideAccess(route, [role]), `${role} → ${route.path}`).toBe(expected);
        // a counterpart is a route the role may open, with the same params
        if (target) {
          const other = WEB_ROUTES.find((r) => r.path === target)!;
          expect(decideAccess(other, [role]), `${role} → ${target}`).toBe('allow');
          expect(target.match(/:\w+/g) ?? [], target).toEqual(route.path.match(/:\w+/g) ?? []);
        }
      }
      // anonymous visitors are still sent to sign in (or let in) as before
      expect(['to-login', 'allow']).toContain(decideAccess(route, null));
    }
    expect(decideAccess(WEB_ROUTES.find((r) => r.path === '/my-trainings')!, ['admin'])).toBe('not-authorized');
    expect(decideAccess(WEB_ROUTES.find((r) => r.path === '/my-trainings')!, ['admin', 'user'])).toBe('allow');
    const courses = WEB_ROUTES.find((r) => r.path === '/user/courses/list')!;
    expect(counterpartOf(courses, ['provider'])).toBe('/all-courses');
    expect(decideAccess(courses, ['trainer'])).toBe('not-authorized');
    // the route table's learner list is the trainings schemas' one
    const learnerDetails = WEB_ROUTES.find((r) => r.path === '/user/training-details/:slug');
    expect([...(learnerDetails?.serves ?? [])]).toEqual([...LEARNER_ROLES]);
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
