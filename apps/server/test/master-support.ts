import { randomBytes } from 'node:crypto';
import { type Role, USER_TYPES } from '@trainlab/contract';
import { expect } from 'vitest';
import { createTestApp, rolesExcept, type TestApp } from './helpers';

export const ALL_ROLES = Object.keys(USER_TYPES) as Role[];

/** One signed-in account per role, reused by the access checks of a test file. */
export async function roleTokens(t: TestApp): Promise<Record<Role, string>> {
  const tokens = {} as Record<Role, string>;
  for (const role of ALL_ROLES) tokens[role] = (await t.loginAs({ role })).token;
  return tokens;
}

/** 401 without a token, 403 for every role outside `allowed`. */
export async function expectAccess(
  t: TestApp,
  tokens: Record<Role, string>,
  path: string,
  body: unknown,
  allowed: Role[],
): Promise<void> {
  expect((await t.post(path, body)).status, `${path} without a token`).toBe(401);
  for (const role of rolesExcept(...allowed)) {
    const res = await t.post(path, body, tokens[role]);
    expect(res.status, `${path} as ${role}`).toBe(403);
  }
}

export interface Part {
  name: string;
  filename?: string;
  content: Buffer | string;
  contentType?: string;
}

/** A multipart/form-data request through app.inject. */
export async function postMultipart(t: TestApp, path: string, parts: Part[], token?: string) {
  const boundary = `----trainlab${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = p.filename
      ? `form-data; name="${p.name}"; filename="${p.filename}"`
      : `form-data; name="${p.name}"`;
    const type = p.filename ? `\r\nContent-Type: ${p.contentType ?? 'application/octet-stream'}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(p.content) ? p.content : Buffer.from(p.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/${path}`,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    payload: Buffer.concat(chunks),
  });
  let body: unknown = res.body;
  try {
    body = JSON.parse(res.body);
  } catch {
    /* non-JSON stays text */
  }
  // biome-ignore lint/suspicious/noExplicitAny: asserted field by field
  return { status: res.statusCode, body: body as any };
}

/** Certification master items of every type, named as in the import template's sample row. */
export async function seedMasters(t: TestApp, token: string, suffix = '') {
  const add = async (type: string, name: string) => {
    const res = await t.post(
      'create-certification-master',
      { type, name: `${name}${suffix}`, description: `${name} description`, overview: `${name} overview` },
      token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.id as number;
  };
  return {
    certification_type: await add('CertificationType', 'AWS'),
    product: await add('Product', 'Amazon Web Services'),
    role: await add('RolesType', 'Architect'),
    exam: await add('Exam', 'SAA-C03'),
    certification_role: await add('CertificationRoles', 'Solutions Architect'),
  };
}

/**
 * The test app of a certification master import test file: one signed-in account per role, and the
 * master items the import template's sample row names.
 */
export async function certificationImportApp(): Promise<{ t: TestApp; tokens: Record<Role, string> }> {
  const t = await createTestApp();
  const tokens = await roleTokens(t);
  await seedMasters(t, tokens.admin);
  return { t, tokens };
}
