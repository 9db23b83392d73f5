import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/platform/config';
import { contentSecurityPolicy, inlineScriptHashes, securityHeaders } from '../src/platform/http/security-headers';
import { createTestApp, type TestApp } from './helpers';

/** The CSP as a map of directive -> sources. */
function directives(csp: string): Record<string, string[]> {
  return Object.fromEntries(
    csp.split(';').map((d) => {
      const [name, ...sources] = d.trim().split(/\s+/);
      return [name!, sources];
    }),
  );
}

const INLINE = 'window.__boot=1;';
let web: string;
let t: TestApp;

beforeAll(async () => {
  // a built web app of our own, with one inline script whose hash the policy must carry
  web = mkdtempSync(path.join(tmpdir(), 'tl-web-'));
  mkdirSync(path.join(web, 'assets'));
  writeFileSync(
    path.join(web, 'index.html'),
    `<!doctype html><html><head><script>${INLINE}</script><script type="module" src="/assets/app-1.js"></script></head><body></body></html>`,
  );
  writeFileSync(path.join(web, 'assets', 'app-1.js'), 'console.log(1)');
  t = await createTestApp({ WEB_DIST: web, PUBLIC_URL: 'https://learn.example.test' });
});
afterAll(async () => {
  await t?.close();
  rmSync(web, { recursive: true, force: true });
});

function expectHardened(headers: Record<string, unknown>) {
  const csp = directives(String(headers['content-security-policy']));
  expect(csp['default-src']).toEqual(["'self'"]);
  expect(csp['script-src']).not.toContain("'unsafe-inline'");
  expect(csp['script-src']).not.toContain("'unsafe-eval'");
  expect(csp['frame-ancestors']).toEqual(["'none'"]);
  expect(csp['object-src']).toEqual(["'none'"]);
  expect(csp['connect-src']).toEqual(["'self'", 'wss://learn.example.test']);
  expect(csp['frame-src']).toEqual(["'none'"]);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['permissions-policy']).toContain('camera=(self)');
  expect(headers['permissions-policy']).toContain('microphone=(self)');
  expect(headers['permissions-policy']).toContain('display-capture=(self)');
  expect(headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  return csp;
}

/** A JSON answer is never a document: a policy that allows nothing, and the rest of the set. */
function expectJsonHardened(headers: Record<string, unknown>) {
  expect(String(headers['content-type'])).toContain('application/json');
  expect(headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  expect(headers['permissions-policy']).toBeUndefined();
}

describe('security headers on every answer', () => {
  it('a page (the single-page app at a deep link) carries the policy with the hash of its inline script', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/training-register/some-slug' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const csp = expectHardened(res.headers);
    expect(csp['script-src']).toEqual(["'self'", ...inlineScriptHashes(res.body)]);
    expect(csp['script-src']).toHaveLength(2);
  });

  it('every page route answers the same shell, revalidated by its ETag (304 with the policy still on it)', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/courses' });
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain(INLINE);
    expect(first.headers['cache-control']).toBe('no-cache');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await t.app.inject({ method: 'GET', url: '/login', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expectHardened(again.headers);
    const stale = await t.app.inject({ method: 'GET', url: '/login', headers: { 'if-none-match': '"old"' } });
    expect(stale.statusCode).toBe(200);
  });

  it('an asset', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/app-1.js' });
    expect(res.statusCode).toBe(200);
    expectHardened(res.headers);
  });

  it('an API answer (JSON) gets the JSON set', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expectJsonHardened(res.headers);
  });

  it('error answers (JSON): 401, 404, 400 and 405', async () => {
    const unauth = await t.app.inject({ method: 'POST', url: '/api/logout', payload: {} });
    expect(unauth.statusCode).toBe(401);
    expectJsonHardened(unauth.headers);
    const missing = await t.app.inject({ method: 'POST', url: '/api/no-such-call', payload: {} });
    expect(missing.statusCode).toBe(404);
    expectJsonHardened(missing.headers);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '{nope',
    });
    expect(bad.statusCode).toBe(400);
    expectJsonHardened(bad.headers);
    const wrongMethod = await t.app.inject({ method: 'DELETE', url: '/anything' });
    expect(wrongMethod.statusCode).toBe(405);
    expectJsonHardened(wrongMethod.headers);
  });
});

describe('the policy follows the configuration', () => {
  const base = { PUBLIC_URL: 'http://localhost:3000' };

  it('plain http: a ws: socket, no HSTS and no upgrade', () => {
    const config = loadConfig(base);
    const csp = directives(contentSecurityPolicy(config));
    expect(csp['connect-src']).toEqual(["'self'", 'ws://localhost:3000']);
    expect(csp['upgrade-insecure-requests']).toBeUndefined();
    expect(securityHeaders(config)['Strict-Transport-Security']).toBeUndefined();
  });

  it('a Jitsi deployment gets its host framed, scripted and called; nothing else is framed', () => {
    const config = loadConfig({ ...base, MEETING_PROVIDER: 'jitsi', JITSI_DOMAIN: 'meet.example.org' });
    const csp = directives(contentSecurityPolicy(config));
    expect(csp['frame-src']).toEqual(['https://meet.example.org']);
    expect(csp['script-src']).toEqual(["'self'", 'https://meet.example.org']);
    expect(csp['connect-src']).toEqual([
      "'self'",
      'ws://localhost:3000',
      'https://meet.example.org',
      'wss://meet.example.org',
    ]);
    expect(securityHeaders(config)['Permissions-Policy']).toContain('camera=(self "https://meet.example.org")');
  });

  it('the built-in conference ignores a leftover JITSI_DOMAIN', () => {
    const config = loadConfig({ ...base, JITSI_DOMAIN: 'meet.example.org' });
    expect(directives(contentSecurityPolicy(config))['frame-src']).toEqual(["'none'"]);
  });

  it('an S3 endpoint, extra connect origins and a report address', () => {
    const config = {
      ...loadConfig({
        ...base,
        CSP_CONNECT_SRC: 'https://turn.example.org, https://x.example.org',
        CSP_REPORT_URI: '/csp',
      }),
      S3_ENDPOINT: 'https://s3.example.org/bucket',
    };
    const csp = directives(contentSecurityPolicy(config));
    expect(csp['connect-src']).toEqual([
      "'self'",
      'ws://localhost:3000',
      'https://s3.example.org',
      'https://turn.example.org',
      'https://x.example.org',
    ]);
    expect(csp['media-src']).toEqual(["'self'", 'blob:', 'https://s3.example.org']);
    expect(csp['report-uri']).toEqual(['/csp']);
  });

  it('FILE_STORE=s3: the player may fetch presigned segments and posters from the bucket’s origin', () => {
    const aws = directives(
      contentSecurityPolicy(loadConfig({ ...base, FILE_STORE: 's3', S3_BUCKET: 'videos', S3_REGION: 'ap-south-1' })),
    );
    for (const d of ['connect-src', 'media-src', 'img-src']) {
      expect(aws[d], d).toContain('https://videos.s3.ap-south-1.amazonaws.com');
    }
    const minio = directives(
      contentSecurityPolicy(
        loadConfig({ ...base, FILE_STORE: 's3', S3_BUCKET: 'videos', S3_ENDPOINT: 'https://minio.example.org:9000' }),
      ),
    );
    expect(minio['connect-src']).toEqual(
      expect.arrayContaining(['https://minio.example.org:9000', 'https://videos.minio.example.org:9000']),
    );
    const pathStyle = directives(
      contentSecurityPolicy(
        loadConfig({
          ...base,
          FILE_STORE: 's3',
          S3_BUCKET: 'videos',
          S3_ENDPOINT: 'https://minio.example.org',
          S3_FORCE_PATH_STYLE: 'true',
        }),
      ),
    );
    expect(pathStyle['media-src']).toEqual(["'self'", 'blob:', 'https://minio.example.org']);
    expect(() => loadConfig({ ...base, FILE_STORE: 's3' })).toThrow(/S3_BUCKET: is required when FILE_STORE=s3/);
  });

  it('Razorpay checkout gets its script, frames and calls only when it is the gateway', () => {
    const on = directives(contentSecurityPolicy(loadConfig({ ...base, PAYMENT_GATEWAY: 'razorpay' })));
    expect(on['script-src']).toContain('https://checkout.razorpay.com');
    expect(on['frame-src']).toContain('https://api.razorpay.com');
    const off = directives(contentSecurityPolicy(loadConfig(base)));
    expect(off['script-src']).toEqual(["'self'"]);
  });

  it('hashes only inline scripts with a body', () => {
    expect(inlineScriptHashes('<script src="/a.js"></script><script> </script>')).toEqual([]);
    expect(inlineScriptHashes('<script type="application/json" id="x">{"a":1}</script>')).toEqual([]);
    expect(inlineScriptHashes('<script>a()</script><script type="module">b()</script>')).toHaveLength(2);
  });
});
