import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { makeLecture } from '../../../e2e/support/video';
import { runDueJobs } from '../src/platform/jobs';
import type { TestApp } from './helpers';

export const MANAGERS = ['provider', 'organization', 'org_subadmin'] as const;
export const LEARNERS = ['provider_user', 'organization_user', 'user'] as const;

/** Short real videos, made once per test file with ffmpeg (Debian package ffmpeg; .ci/run installs it). */
const videoDir = mkdtempSync(path.join(tmpdir(), 'tl-course-videos-'));
const made = new Map<number, Buffer>();
export function testVideo(seconds = 3): Buffer {
  const cached = made.get(seconds);
  if (cached) return cached;
  const file = makeLecture(path.join(videoDir, `v${seconds}.mp4`), seconds);
  const data = readFileSync(file);
  made.set(seconds, data);
  return data;
}

export function multipart(fields: Record<string, string>, file?: { name: string; data: Buffer; filename?: string }) {
  const boundary = `----tl${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename ?? 'lecture.mp4'}"\r\nContent-Type: video/mp4\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export async function upload(
  t: TestApp,
  call: string,
  token: string | null,
  fields: Record<string, string>,
  video?: Buffer | null,
  filename?: string,
): ReturnType<TestApp['post']> {
  const m = multipart(
    fields,
    video === undefined || video === null ? undefined : { name: 'course_url', data: video, filename },
  );
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/${call}`,
    payload: m.payload,
    headers: { ...m.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

/** A manager with a course and a module. */
export async function courseWithModule(
  t: TestApp,
  role: (typeof MANAGERS)[number] = 'provider',
  extra: Record<string, unknown> = {},
) {
  const org = role === 'provider' ? null : await t.createOrganization();
  const { token, user } = await t.loginAs({ role, ...(org ? { organization_id: org.id } : {}), ...extra });
  const c = await t.post(
    'create-course',
    {
      name: 'Kubernetes Basics',
      amount: 499.5,
      is_paid: 1,
      is_public: 1,
      description: 'Pods, services and deployments explained.',
    },
    token,
  );
  if (c.status !== 200) throw new Error(JSON.stringify(c));
  const m = await t.post('create-module', { course_id: c.body.id, name: 'Getting started' }, token);
  if (m.status !== 200) throw new Error(JSON.stringify(m));
  return {
    token,
    user,
    org,
    courseId: c.body.id as number,
    courseSlug: c.body.slug as string,
    moduleId: m.body.id as number,
  };
}

/** Uploads a topic and runs the processing job; answers the topic slug. */
export async function readyTopic(t: TestApp, token: string, moduleId: number, name = 'Intro', seconds = 3) {
  const res = await upload(
    t,
    'create-all-course',
    token,
    { module_id: String(moduleId), name, description: 'About it' },
    testVideo(seconds),
  );
  if (res.status !== 200) throw new Error(JSON.stringify(res));
  await runDueJobs(t.deps);
  return res.body.slug as string;
}
