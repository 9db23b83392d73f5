/**
 * Recorded-course video: (1) the time from the end of a 100 MB upload (tus, over HTTP) to a playable
 * topic: the last piece's content check, the topic call and the packaging job (probe, poster, two HLS
 * renditions); (2) 50 concurrent ranged readers of one file of that video through our signed route
 * (/api/course-media/{token}/{file}: token check, topic lookup, file store read) against a bare static
 * handler (@fastify/static) serving the same file, in the same run. Disk file store, embedded database.
 *
 *   npm run bench:course-video -w @trainlab/bench      (needs ffmpeg; BENCH_VIDEO_MB, BENCH_SECONDS)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import autocannon from 'autocannon';
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { Upload } from 'tus-js-client';
import { buildApp } from '../apps/server/src/app';
import { closeDeps, createDeps } from '../apps/server/src/bootstrap';
import { courseTopics, users } from '../apps/server/src/db/schema';
import { hashPassword } from '../apps/server/src/platform/auth/passwords';
import { loadConfig } from '../apps/server/src/platform/config';
import { runDueJobs } from '../apps/server/src/platform/jobs';

const VIDEO_MB = Number(process.env.BENCH_VIDEO_MB ?? 100);
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const READERS = 50;
const RANGE_BYTES = 64 * 1024;

/** A lecture of about VIDEO_MB megabytes: 60 s of a noisy test pattern at a constant bitrate. */
function makeVideo(file: string): number {
  const seconds = 60;
  const kbps = Math.round((VIDEO_MB * 8 * 1024) / seconds);
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=size=640x360:rate=25:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`],
    ...['-vf', 'noise=alls=40:allf=t', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
    ...['-b:v', `${kbps}k`, '-minrate', `${kbps}k`, '-maxrate', `${kbps}k`, '-bufsize', `${kbps}k`],
    ...['-x264-params', 'nal-hrd=cbr', '-c:a', 'aac', '-shortest', file],
  ]);
  return statSync(file).size;
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'tl-bench-video-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    LOGIN_RATE_LIMIT: '1000000',
    DATA_DIR: dir,
    COURSE_VIDEO_MAX_BYTES: String(4 * 1024 * 1024 * 1024),
  });
  const deps = await createDeps(config, process.env.DATABASE_URL ?? 'memory://');
  const app = await buildApp(deps);
  const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const tag = Date.now().toString(36);
    await deps.db.insert(users).values({
      slug: `bench-provider-${tag}`,
      first_name: 'Bench',
      last_name: 'Provider',
      email: `bench-provider-${tag}@bench.test`,
      password_hash: await hashPassword('Bench@12345'),
      roles: ['provider'],
      user_type: 3,
    });
    const call = async (p: string, body: unknown, token?: string) =>
      (
        await app.inject({
          method: 'POST',
          url: `/api/${p}`,
          payload: body as object,
          headers: token ? { authorization: `Bearer ${token}` } : {},
        })
      ).json();
    const token = (await call('login', { email: `bench-provider-${tag}@bench.test`, password: 'Bench@12345' })).success
      .token as string;
    const course = await call('create-course', { name: 'Bench', amount: 0, is_paid: 0, is_public: 0 }, token);
    const module = await call('create-module', { course_id: course.id, name: 'Bench module' }, token);

    const file = path.join(dir, 'lecture.mp4');
    let t = Date.now();
    const bytes = makeVideo(file);
    console.log(`made a ${(bytes / 1024 / 1024).toFixed(1)} MB video in ${Date.now() - t} ms`);

    // (1) upload with tus over HTTP, 8 MiB pieces, as the web form does
    const data = readFileSync(file);
    t = Date.now();
    const uploadId = await new Promise<string>((resolve, reject) => {
      const up = new Upload(data, {
        endpoint: `${appUrl}/api/course-uploads`,
        headers: { Authorization: `Bearer ${token}` },
        chunkSize: 8 * 1024 * 1024,
        onSuccess: () => resolve(String(up.url).split('/').pop()!),
        onError: reject,
      });
      up.start();
    });
    const uploaded = Date.now();
    const boundary = `----bench${tag}`;
    const form = (fields: Record<string, string>) =>
      `${Object.entries(fields)
        .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
        .join('')}--${boundary}--\r\n`;
    const topic = (
      await app.inject({
        method: 'POST',
        url: '/api/create-all-course',
        payload: form({ module_id: String(module.id), name: 'Bench lecture', tus_upload_id: uploadId }),
        headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      })
    ).json();
    const created = Date.now();
    await runDueJobs(deps);
    const ready = Date.now();
    const [row] = await deps.db.select().from(courseTopics).where(eq(courseTopics.slug, topic.slug));
    if (row?.video_status !== 'ready') throw new Error(`processing failed: ${row?.video_error}`);
    console.log(`\n| step (${(bytes / 1024 / 1024).toFixed(0)} MB video) | ms |`);
    console.log('| --- | --- |');
    console.log(
      `| upload, whole (tus, ${Math.ceil(bytes / 8 / 1024 / 1024)} PATCHes of 8 MiB over loopback; the last one is answered after the ffprobe check) | ${uploaded - t} |`,
    );
    console.log(`| /create-all-course naming the upload | ${created - uploaded} |`);
    console.log(`| packaging job (probe, poster, renditions ${row.renditions?.join('p + ')}p) | ${ready - created} |`);
    console.log(`| **upload end → playable** | **${ready - uploaded}** |`);

    // (2) ranged readers of the largest file of the package
    const play = await call('play-course-data', { slug: course.slug }, token);
    const masterUrl = play.data[0].topics[0].url as string;
    const files = row.media_files ?? [];
    const prefix = path.join(dir, 'files', row.hls_prefix ?? '');
    const largest = files
      .map((f) => ({ f, size: statSync(path.join(prefix, f)).size }))
      .sort((a, b) => b.size - a.size)[0]!;
    const bare = Fastify();
    await bare.register(fastifyStatic, { root: prefix, prefix: '/static/' });
    const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
    const span = Math.max(1, largest.size - RANGE_BYTES);
    const ranged = async (url: string) => {
      const r = await autocannon({
        url,
        connections: READERS,
        duration: DURATION,
        requests: [
          {
            setupRequest: (req) => {
              const start = Math.floor(Math.random() * span);
              return { ...req, headers: { ...req.headers, range: `bytes=${start}-${start + RANGE_BYTES - 1}` } };
            },
          },
        ],
      });
      const non206 = r.non2xx + (r.statusCodeStats?.['200']?.count ?? 0);
      return {
        rps: Math.round(r.requests.average),
        mbps: Math.round(r.throughput.average / 1024 / 1024),
        p50: r.latency.p50,
        p99: r.latency.p99,
        errors: r.errors + non206,
      };
    };
    const signed = `${appUrl}${masterUrl.replace('master.m3u8', largest.f)}`;
    const rows = [
      ['bare @fastify/static, same file', await ranged(`${bareUrl}/static/${largest.f}`)],
      ['our signed route /api/course-media/{token}/{file}', await ranged(signed)],
    ] as const;
    console.log(
      `\n${READERS} readers, ${DURATION} s each, random ${RANGE_BYTES / 1024} KiB ranges of ${largest.f} (${(largest.size / 1024).toFixed(0)} KiB)`,
    );
    console.log('| served by | req/s | MiB/s | p50 ms | p99 ms | errors | of baseline |');
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    for (const [name, m] of rows) {
      const share = `${Math.round((m.rps / rows[0][1].rps) * 100)} %`;
      console.log(`| ${name} | ${m.rps} | ${m.mbps} | ${m.p50} | ${m.p99} | ${m.errors} | ${share} |`);
    }
    await bare.close();
  } finally {
    await app.close();
    await closeDeps(deps);
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
