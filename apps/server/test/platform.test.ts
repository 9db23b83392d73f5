import { API_CALLS, PROTOCOL_ENDPOINTS, ROLES } from '@trainlab/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/platform/config';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ CORS_ORIGINS: 'https://mobile.example' });
});
afterAll(() => t.close());

describe('health and documentation', () => {
  it('GET /api/health answers ok when the database answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok' });
  });

  it('GET /api/openapi.json is OpenAPI 3.1 with every call of the contract', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    for (const call of API_CALLS) {
      const op = doc.paths[`/api/${call.path}`]?.post;
      expect(op, call.path).toBeDefined();
      const type = call.multipart ? 'multipart/form-data' : 'application/json';
      expect(op.requestBody.content[type].schema, call.path).toBeTypeOf('object');
    }
    expect(doc.paths['/api/login'].post.requestBody.content['application/json'].schema.properties).toHaveProperty(
      'email',
    );
  });

  it('serves a readable reference page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('/api/register');
  });
});

describe('permission table', () => {
  it('every API route on the server has an entry in the contract table, and every entry is served', async () => {
    const posts = t.app.registeredRoutes.filter((r) => r.method === 'POST' && r.url.startsWith('/api/'));
    for (const r of posts) expect(r.declared, `${r.url} was not defined through the permission table`).toBe(true);
    // endpoints of another protocol (tus) are declared in their own list, with an access rule
    const protocol = PROTOCOL_ENDPOINTS.map((e) => `/api/${e.path}`);
    const served = posts.map((r) => r.url).filter((u) => !protocol.includes(u));
    for (const path of protocol) expect(posts.map((r) => r.url)).toContain(path);
    const declared = API_CALLS.map((c) => `/api/${c.path}`);
    for (const path of served) expect(declared, `${path} has no permission entry`).toContain(path);
    for (const path of declared) expect(served).toContain(path);
  });

  it('every non-public call answers 401 without a token', async () => {
    for (const call of API_CALLS.filter((c) => c.access !== 'public')) {
      const res = await t.post(call.path, {});
      expect(res, call.path).toEqual({ status: 401, body: { message: 'Unauthenticated.' } });
    }
  });

  it('every call limited to some roles answers 403 to each other role, before reading its body', async () => {
    const tokens = new Map<string, string>();
    for (const role of ROLES) tokens.set(role, (await t.loginAs({ role })).token);
    const refused: string[] = [];
    for (const call of API_CALLS) {
      if (!Array.isArray(call.access)) continue;
      for (const role of ROLES.filter((r) => !(call.access as readonly string[]).includes(r))) {
        const res = await t.post(call.path, {}, tokens.get(role));
        if (res.status !== 403) refused.push(`${call.path} as ${role}: ${res.status}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it('role lists only name real roles', () => {
    for (const call of API_CALLS) {
      if (Array.isArray(call.access)) for (const r of call.access) expect(ROLES).toContain(r);
    }
  });
});

describe('transport conventions', () => {
  it('a call with no body at all reads as {}', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/get-line-of-business' });
    expect(res.statusCode).toBe(200);
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/get-org-register',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(json.statusCode).toBe(200);
  });

  it('malformed JSON is a clear 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'The request body is not valid JSON.' });
  });

  it('a non-object body is a 422, not a crash', async () => {
    const res = await t.post('login', [1, 2]);
    expect(res.status).toBe(422);
  });

  it('other methods answer 405, unknown paths 404', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH'] as const) {
      const res = await t.app.inject({ method, url: '/api/login' });
      expect(res.statusCode).toBe(405);
      expect(res.json()).toEqual({ message: 'Method Not Allowed' });
    }
    const res = await t.app.inject({ method: 'POST', url: '/api/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not Found' });
  });

  it('answers CORS preflight for configured origins only', async () => {
    const ok = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/login',
      headers: {
        origin: 'https://mobile.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(ok.statusCode).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe('https://mobile.example');
    expect(String(ok.headers['access-control-allow-headers'])).toContain('authorization');
    const other = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/login',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('never leaks internals on a 500', async () => {
    t.app.log.level = 'silent';
    const broken = await createTestApp();
    const user = await broken.createUser({ role: 'user' });
    broken.deps.mail.send = async () => {
      throw new Error('smtp://mailer:secret-password@mail.internal refused');
    };
    const res = await broken.post('forgot-password', { email: user.email });
    expect(res).toEqual({ status: 500, body: { message: 'Internal Server Error.' } });
    await broken.close();
  });

  it('a database that is down answers 503 with Retry-After on both engines, saying nothing more', async () => {
    const down = await createTestApp();
    await down.deps.database.close();
    const res = await down.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'a@b.test', password: 'whatever1' },
    });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
    expect(res.json()).toEqual({ message: 'Service temporarily unavailable.' });
    expect((await down.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(503);
    await down.app.close();
  });
});

describe('configuration', () => {
  it('refuses bad values and names the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ SMTP_URL: 'http://x' })).toThrow(/SMTP_URL/);
    expect(() => loadConfig({ NODE_ENV: 'staging' })).toThrow(/NODE_ENV/);
  });

  it('has working embedded defaults', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.PUBLIC_URL).toBe('http://localhost:3000');
    expect(c.DATABASE_URL).toBeUndefined();
    expect(loadConfig({ PORT: '4123' }).PUBLIC_URL).toBe('http://localhost:4123');
  });
});

describe('configuration from a copied .env.example', () => {
  it('reads empty variables as not set', () => {
    const c = loadConfig({ DATABASE_URL: '', SMTP_URL: '', PORT: '' });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.PORT).toBe(3000);
  });
});
