import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { createTestApp, type TestApp } from './helpers';

const TOKEN = 'metrics-token-0123456789';
let t: TestApp;
let off: TestApp;

beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN });
  off = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  await off?.close();
});

describe('readiness', () => {
  it('answers ready while the database answers, and says which check failed when it does not', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ status: 'ready', database: 'ok' });
    // the liveness answer stays as it was
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).json().status).toBe('ok');

    const down = await createTestApp();
    await down.deps.database.close();
    const res = await down.app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual({ status: 'unavailable', database: 'unavailable' });
    // the process itself is alive: an orchestrator must not restart it because its database is down
    const live = await down.app.inject({ method: 'GET', url: '/api/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'alive' });
    await down.app.close();
  });

  it('checks Redis when REDIS_URL is set: nothing listening is not ready', async () => {
    const withRedis = await createTestApp({ REDIS_URL: 'redis://127.0.0.1:1' });
    const res = await withRedis.app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unavailable', database: 'ok', redis: 'unavailable' });
    expect(res.headers['retry-after']).toBe('5');
    await withRedis.close();
  });
});

describe('while the server waits for its database at start-up', () => {
  it('only liveness answers 200; readiness, health and every call answer 503 with Retry-After until it is ready', async () => {
    let starting = true;
    const app = await buildApp(t.deps, { starting: () => starting });
    await app.ready();
    try {
      const live = await app.inject({ method: 'GET', url: '/api/live' });
      expect(live.statusCode).toBe(200);
      for (const url of ['/api/ready', '/api/health']) {
        const res = await app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(503);
        expect(res.headers['retry-after'], url).toBe('5');
        expect(res.json(), url).toEqual({ status: 'starting' });
      }
      const call = await app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: 'a@b.test', password: 'x' },
      });
      expect(call.statusCode).toBe(503);
      expect(call.headers['retry-after']).toBe('5');
      expect(call.json()).toEqual({ message: 'Service temporarily unavailable.', code: 'service_unavailable' });

      starting = false;
      expect((await app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
      expect(
        (await app.inject({ method: 'POST', url: '/api/login', payload: { email: 'a@b.test', password: 'x' } }))
          .statusCode,
      ).toBe(422);
    } finally {
      await app.close();
    }
  });
});

describe('metrics', () => {
  it('are off without METRICS_TOKEN', async () => {
    expect((await off.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
  });

  it('need the token: none, a wrong one and one character short are refused', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', `Bearer ${TOKEN.slice(0, -1)}`]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode).toBe(401);
    }
  });

  it('count requests and their latency by route pattern, the job queue and the open conference sockets', async () => {
    await t.post('verify-certificates', { ref_no: 'TL-NOPE' });
    await t.app.inject({ method: 'GET', url: '/api/health' });
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const body = res.body;
    expect(body).toMatch(/http_requests_total\{method="GET",route="\/api\/health",status="200"\} [1-9]/);
    expect(body).toMatch(
      /http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/api\/health",status="200"\}/,
    );
    expect(body).toMatch(/route="\/api\/verify-certificates"/);
    expect(body).toMatch(/job_queue_depth\{status="queued"\} \d+/);
    expect(body).toMatch(/conference_open_sockets 0/);
    expect(body).toMatch(/process_cpu_user_seconds_total/);
  });
});

describe('request ids', () => {
  it('every answer carries one; a sane X-Request-Id from the proxy is kept, anything else replaced', async () => {
    const fresh = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'edge-42.a' } });
    expect(kept.headers['x-request-id']).toBe('edge-42.a');
    const replaced = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'bad id\n' } });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const long = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'a'.repeat(65) } });
    expect(long.headers['x-request-id']).not.toBe('a'.repeat(65));
    const limit = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'a'.repeat(64) },
    });
    expect(limit.headers['x-request-id']).toBe('a'.repeat(64));
  });
});
