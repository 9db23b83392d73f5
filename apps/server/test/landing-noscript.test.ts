import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeCertification, makeCourse } from './catalog-fixtures';
import { createTestApp, type TestApp } from './helpers';

let web: string;
let t: TestApp;
beforeAll(async () => {
  web = mkdtempSync(path.join(tmpdir(), 'tl-landing-'));
  writeFileSync(path.join(web, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  t = await createTestApp({ WEB_DIST: web });
});
afterAll(async () => {
  await t?.close();
  rmSync(web, { recursive: true, force: true });
});

describe('the landing without JavaScript', () => {
  it('/ and /training-home carry the headline, the trending courses and the certifications in <noscript>', async () => {
    const course = await makeCourse(t, { name: 'Kubernetes <script>alert(1)</script> & Helm', amount_paise: 129_950 });
    const cert = await makeCertification(t, { name: 'AWS Developer' });
    for (const url of ['/', '/training-home', '/training-home?ref=mail']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      const noscript = /<noscript>(.*)<\/noscript><\/body>/s.exec(res.body)?.[1] ?? '';
      expect(noscript).toContain('<h1>Trainings, courses and cloud labs in one place</h1>');
      expect(noscript).toContain(
        `<a href="/course-details/${course.slug}">Kubernetes &lt;script&gt;alert(1)&lt;/script&gt; &amp; Helm</a> — ₹1,299.50`,
      );
      expect(noscript).toContain(`<a href="/certification-details/${btoa(String(cert.id))}">AWS Developer</a>`);
      expect(res.body).not.toContain('<script>alert(1)');
      // the policy is on it like on every page
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    }
  });

  it('other pages are the bare shell', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/courses' });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('<noscript>');
  });

  it('the page is built once per value of the trending lists and follows them when they change', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.advanceTimersByTime(11_000);
      const first = await t.app.inject({ method: 'GET', url: '/training-home' });
      const again = await t.app.inject({ method: 'GET', url: '/' });
      expect(again.body).toBe(first.body);
      const added = await makeCourse(t, { name: 'Terraform in a Week', amount_paise: 99_900 });
      // still inside the lists' 10 s: the same page
      expect((await t.app.inject({ method: 'GET', url: '/' })).body).not.toContain(added.slug);
      vi.advanceTimersByTime(11_000);
      expect((await t.app.inject({ method: 'GET', url: '/' })).body).toContain(added.slug);
    } finally {
      vi.useRealTimers();
    }
  });
});
