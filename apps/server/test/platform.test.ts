import { API_CALLS, PROTOCOL_ENDPOINTS, ROLES } from '@trainlab/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLabs } from '../src/adapters/labs';
import { LAB_WS_PROTOCOLS } from '../src/domains/labs/ws';
import { OTHER_ENDPOINTS } from '../src/other-endpoints';
import { ConfigError, loadConfig } from '../src/platform/config';
import { createTestApp, type TestApp } from './helpers';
import { roleTokens } from './master-support';

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

  it('GET /api/health asks the lab engine at most once per 5 s however often it is polled; a new engine at once', async () => {
    const real = t.deps.labs;
    let asked = 0;
    const counting = Object.assign(new MemoryLabs(), {
      problem: async () => {
        asked++;
        return asked > 1 ? 'second answer' : null;
      },
    });
    t.deps.labs = counting;
    try {
      const polls = await Promise.all(
        [...Array(20)].map(() => t.app.inject({ method: 'GET', url: '/api/health' }).then((r) => r.json())),
      );
      expect(asked).toBe(1);
      expect(polls.every((p) => p.labs.ready === true)).toBe(true);
      const other = Object.assign(new MemoryLabs(), { problem: async () => 'Docker is down.' });
      t.deps.labs = other;
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.json().labs).toMatchObject({ ready: false, problem: 'Docker is down.' });
    } finally {
      t.deps.labs = real;
    }
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
    // every method of a path, not only the first
    for (const method of ['HEAD', 'PATCH', 'DELETE']) {
      expect(res.body).toContain(`<span class="m">${method}</span> /api/course-uploads/{id}`);
    }
    expect(res.body).toContain('<span class="m">GET</span> /ws/labs/terminal/{name}');
  });
});

describe('the endpoints that are not calls', () => {
  const openApiPath = (url: string) => url.replace(/:(\w+)(\([^)]*\))?/g, '{$1}');
  type Param = { name: string; in: string; required?: boolean; description?: string };
  type Answer = { headers?: Record<string, unknown>; content?: Record<string, unknown> };
  type Op = {
    summary?: string;
    description?: string;
    security?: unknown;
    parameters: Param[];
    requestBody: { content: Record<string, unknown> };
    responses: Record<string, Answer>;
    'x-only'?: string;
    'x-websocket': { subprotocols: string; clientMessage?: unknown };
  };
  type Doc = { paths: Record<string, Record<string, Op>> };
  let doc: Doc;
  beforeAll(async () => {
    doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  });

  it('every route the server registers is in /api/openapi.json with its method', () => {
    const callPaths = new Set(API_CALLS.map((c) => `/api/${c.path}`));
    const missing: string[] = [];
    for (const r of t.app.registeredRoutes) {
      if (r.hidden) continue; // the web app's static files
      if (callPaths.has(r.url) && r.method !== 'POST') continue; // the 405 answers of define-call.ts
      const ops = doc.paths[openApiPath(r.url)];
      const method = r.method.toLowerCase();
      // Fastify answers HEAD beside every GET; a HEAD of its own (tus) must be documented
      if (!(ops?.[method] ?? (method === 'head' ? ops?.get : undefined))) missing.push(`${r.method} ${r.url}`);
    }
    expect(missing, "undocumented: add them to the domain's other-endpoints.ts").toEqual([]);
  });

  it('every documented endpoint is served, except those only registered under some configuration', () => {
    const served = new Set(t.app.registeredRoutes.map((r) => `${r.method} ${openApiPath(r.url)}`));
    const stale: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (op['x-only']) continue;
        if (!served.has(`${method.toUpperCase()} ${path}`)) stale.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(stale).toEqual([]);
  });

  it('each one says who may call it, what it answers, and names its path parameters', () => {
    const declared = new Set(OTHER_ENDPOINTS.map((e) => e.path));
    for (const path of declared) {
      for (const [method, op] of Object.entries(doc.paths[path]!)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect(op.summary, where).toBeTruthy();
        expect(op.description, where).toBeTruthy();
        expect(Array.isArray(op.security), where).toBe(true);
        expect(Object.keys(op.responses).length, where).toBeGreaterThan(0);
        for (const name of [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])) {
          const param = op.parameters.find((p) => p.in === 'path' && p.name === name);
          expect(param?.description, `${where} {${name}}`).toBeTruthy();
        }
      }
    }
  });

  const op = (path: string, method: string): Op => {
    const found = doc.paths[path]?.[method];
    if (!found) throw new Error(`${method.toUpperCase()} ${path} is not documented`);
    return found;
  };
  const answer = (o: Op, status: number): Answer => o.responses[status] ?? {};

  it('documents the tus upload: creation, then HEAD, PATCH (204 with Upload-Offset) and DELETE', () => {
    expect(answer(op('/api/course-uploads', 'post'), 201).headers).toHaveProperty('Location');
    expect(Object.keys(doc.paths['/api/course-uploads/{id}'] ?? {}).sort()).toEqual(['delete', 'head', 'patch']);
    const patch = op('/api/course-uploads/{id}', 'patch');
    expect(patch.security).toEqual([{ bearer: [] }]);
    expect(patch.parameters.filter((p) => p.in === 'header')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'Tus-Resumable', required: true }),
        expect.objectContaining({ name: 'Upload-Offset', required: true }),
      ]),
    );
    expect(Object.keys(patch.requestBody.content)).toEqual(['application/offset+octet-stream']);
    expect(answer(patch, 204).headers).toHaveProperty('Upload-Offset');
    expect(patch.responses).toHaveProperty('409');
    expect(answer(op('/api/course-uploads/{id}', 'head'), 200).headers).toHaveProperty('Upload-Offset');
  });

  it('documents the signed course media with byte ranges (206)', () => {
    const media = op('/api/course-media/{token}/{file}', 'get');
    expect(media.security).toEqual([]);
    expect(media.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(
      expect.arrayContaining(['path:token', 'path:file', 'header:Range']),
    );
    expect(answer(media, 206).headers).toHaveProperty('Content-Range');
    expect(Object.keys(answer(media, 206).content ?? {})[0]).toContain('video/mp2t');
    expect(media.responses).toHaveProperty('416');
    expect(op('/api/recording-file/{id}', 'get').responses).toHaveProperty('206');
  });

  it('documents the WebSockets as upgrades, with the subprotocols the server answers', () => {
    for (const [kind, protocol] of Object.entries(LAB_WS_PROTOCOLS)) {
      const socket = op(`/ws/labs/${kind}/{name}`, 'get');
      expect(socket.responses).toHaveProperty('101');
      expect(socket['x-websocket'].subprotocols).toContain(protocol);
    }
    const conference = op('/ws/conference', 'get');
    expect(conference.responses).toHaveProperty('101');
    expect(conference['x-websocket'].clientMessage).toHaveProperty('oneOf');
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
      expect(res, call.path).toEqual({ status: 401, body: { message: 'Unauthenticated.', code: 'unauthenticated' } });
    }
  });

  it('every call limited to some roles answers 403 to each other role, before reading its body', async () => {
    const tokens = await roleTokens(t);
    const refused: string[] = [];
    for (const call of API_CALLS) {
      if (!Array.isArray(call.access)) continue;
      for (const role of ROLES.filter((r) => !(call.access as readonly string[]).includes(r))) {
        const res = await t.post(call.path, {}, tokens[role]);
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
    expect(res.json()).toEqual({ message: 'The request body is not valid JSON.', code: 'invalid_json' });
  });

  it('a non-object body is a 422, not a crash', async () => {
    const res = await t.post('login', [1, 2]);
    expect(res.status).toBe(422);
  });

  it('other methods answer 405, unknown paths 404', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH'] as const) {
      const res = await t.app.inject({ method, url: '/api/login' });
      expect(res.statusCode).toBe(405);
      expect(res.json()).toEqual({ message: 'Method Not Allowed', code: 'method_not_allowed' });
    }
    const res = await t.app.inject({ method: 'POST', url: '/api/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not Found', code: 'not_found' });
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
    expect(res).toEqual({ status: 500, body: { message: 'Internal Server Error.', code: 'internal_error' } });
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
    expect(res.json()).toEqual({ message: 'Service temporarily unavailable.', code: 'service_unavailable' });
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
