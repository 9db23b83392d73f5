import { API_CALLS, type ApiCall, type Role } from '@trainlab/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';
import { roleTokens } from './master-support';
import { postForm } from './trainers-support';

let t: TestApp;
let tokens: Record<Role, string>;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', FORGOT_RATE_LIMIT: '1000' });
  tokens = await roleTokens(t);
});
afterAll(() => t.close());

/** The field names a call's request schema declares (through the wrappers zod puts around an object). */
function fieldsOf(call: ApiCall): string[] {
  // biome-ignore lint/suspicious/noExplicitAny: walking zod's internal definition
  let schema: any = call.request;
  for (let i = 0; i < 6 && schema; i++) {
    if (schema.shape) return Object.keys(schema.shape);
    schema = schema.def?.in ?? schema.def?.innerType ?? schema.def?.schema;
  }
  return [];
}

/** A caller each call lets in: a role it lists, any role for a signed-in call, nobody for a public one. */
const callerOf = (call: ApiCall) =>
  call.access === 'public' ? undefined : tokens[call.access === 'authenticated' ? 'user' : (call.access[0] as Role)];

// ending the caller's own session would leave the calls after it unauthenticated
const CALLS = API_CALLS.filter((c) => c.path !== 'logout');

describe('malformed input never reaches the database as a failure', () => {
  const cases: [string, unknown][] = [
    ['a NUL character', 'a\u0000b'],
    ['an object', { $gt: 1 }],
    ['an array', [1, 2]],
    ['a huge number', 1e308],
  ];
  for (const [name, value] of cases) {
    it(`every call answers ${name} in each of its fields with a 4xx`, async () => {
      const failed: string[] = [];
      for (const call of CALLS) {
        const body = Object.fromEntries(fieldsOf(call).map((f) => [f, value]));
        const res = await t.post(call.path, body, callerOf(call));
        if (res.status >= 500) failed.push(`${call.path}: ${res.status}`);
        if (name === 'a NUL character' && Object.keys(body).length && res.status !== 422) {
          failed.push(`${call.path}: ${res.status} for a NUL (expected 422)`);
        }
      }
      expect(failed).toEqual([]);
    });
  }

  it('a NUL character is named under its field, in a list too, and in a form sent with a file', async () => {
    const res = await t.post('create-category', { name: 'Cloud\u0000' }, tokens.admin);
    expect(res).toEqual({ status: 422, body: { name: ['The name format is invalid.'] } });
    const nested = await t.post('get-training-syllabus', { slug: ['x\u0000'] }, tokens.provider);
    expect(nested.status).toBe(422);
    expect(nested.body).toHaveProperty('slug');
    const form = await postForm(t, 'upload-training-syllabus', tokens.provider, { slug: 'x\u0000' }, [
      { field: 'file', filename: 's.xlsx', data: Buffer.from('not read') },
    ]);
    expect(form).toEqual({ status: 422, body: { slug: ['The slug format is invalid.'] } });
  });
});
