import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { courseEnrolments, courseModules, courses, courseTopics, users } from '../db/schema';
import { mediaToolsAvailable, run } from '../domains/courses/media-tools';
import { enqueueVideo, mediaTools, storeOriginal } from '../domains/courses/video';
import type { Deps } from '../platform/deps';
import { makeSlug } from '../platform/slug';

export const DEMO_COURSE_SLUG_PREFIX = 'docker-from-scratch';

/**
 * A playable recorded course for the demo: the provider's 'Docker from Scratch' gets a module and a
 * topic with a short lecture made here with ffmpeg (a test pattern and a tone), queued for packaging
 * like an upload, and is assigned to the provider's learner for 90 days. Without ffmpeg there is
 * nothing to make a video with: the course stays without topics and this answers false.
 */
export async function seedDemoCourse(deps: Deps): Promise<boolean> {
  const tools = mediaTools(deps);
  if (!mediaToolsAvailable(tools)) return false;
  const [course] = await deps.db.select().from(courses).where(eq(courses.name, 'Docker from Scratch')).limit(1);
  const [learner] = await deps.db.select().from(users).where(eq(users.email, 'learner@demo.test')).limit(1);
  if (!course || !learner) return false;

  const dir = await mkdtemp(path.join(tmpdir(), 'tl-demo-video-'));
  try {
    const file = path.join(dir, 'welcome.mp4');
    await run(
      tools.ffmpeg,
      [
        ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25:duration=12'],
        ...['-f', 'lavfi', '-i', 'sine=frequency=330:duration=12'],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', file],
      ],
      { timeoutMs: 120_000 },
    );
    const [module] = await deps.db
      .insert(courseModules)
      .values({ course_id: course.id, name: 'Getting started', position: 1 })
      .returning();
    const [topic] = await deps.db
      .insert(courseTopics)
      .values({
        slug: makeSlug('welcome to docker'),
        module_id: module!.id,
        name: 'Welcome to Docker',
        description: 'What the course covers and how the labs work.',
        position: 1,
        video_status: 'processing',
      })
      .returning();
    const files = deps.files;
    const key = await storeOriginal(files, topic!.id, file);
    const bytes = (await files.stat(key))?.size ?? 0;
    await deps.db.transaction(async (tx) => {
      await tx.update(courseTopics).set({ video_key: key, video_bytes: bytes }).where(eq(courseTopics.id, topic!.id));
      await enqueueVideo({ db: tx as unknown as Deps['db'] }, topic!.id, key);
    });
    const now = new Date();
    await deps.db.insert(courseEnrolments).values({
      course_id: course.id,
      user_id: learner.id,
      source: 'assigned',
      start_date: now,
      end_date: new Date(now.getTime() + 90 * 86_400_000),
    });
    return true;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
