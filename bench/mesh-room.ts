/**
 * How many participants one built-in (WebRTC mesh) room holds, measured with real browsers:
 * for each room size N, N Chromium pages with a fake camera and microphone join one room of the
 * server (in-process, PGlite in memory, the built web app), and the script measures
 * - join-to-mesh: from the first click on 'Join meeting' until every page receives media from
 *   all N−1 others;
 * - for a steady window: video frames decoded per second per remote stream (the picture each
 *   participant sees), each page's upload and download, and the machine's CPU use.
 * Every browser runs on this one machine, so CPU is shared by all N participants here; on real
 * machines each participant carries only its own share (N−1 encodes out, N−1 decodes in).
 *
 *   npm run build && npx tsx bench/mesh-room.ts
 *   BENCH_MESH_SIZES=2,4,6 BENCH_MESH_WINDOW_S=10 npx tsx bench/mesh-room.ts
 */

import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { buildApp } from '../apps/server/src/app';
import { closeDeps, createDeps } from '../apps/server/src/bootstrap';
import { sessions, trainings, trainingUsers, users } from '../apps/server/src/db/schema';
import { hashToken, newToken } from '../apps/server/src/platform/auth/tokens';
import { loadConfig } from '../apps/server/src/platform/config';
import { CHROMIUM_WITH_FAKE_MEDIA } from '../e2e/support/browser';
import { storeSession } from './browser-session';

const SIZES = (process.env.BENCH_MESH_SIZES ?? '2,3,4,6,8').split(',').map(Number);
const WINDOW_MS = Number(process.env.BENCH_MESH_WINDOW_S ?? 15) * 1000;
const MESH_TIMEOUT_MS = 90_000;
const PORT = Number(process.env.BENCH_PORT ?? 3390);
const WEB_DIST = process.env.BENCH_WEB_DIST ?? path.resolve(import.meta.dirname, '../apps/web/dist');

interface Stats {
  bytesReceived: number;
  bytesSent: number;
  framesDecoded: number;
  peers: number;
  receiving: number;
}

declare global {
  interface Window {
    __cfConference?: { getStats: () => Promise<Stats> };
  }
}

/** Busy and total CPU jiffies of the machine (all cores), from /proc/stat. */
function cpuTimes() {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const n = fields.map(Number);
  const idle = (n[3] ?? 0) + (n[4] ?? 0);
  const total = n.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

const stats = (page: Page) =>
  page.evaluate(
    async () =>
      window.__cfConference?.getStats() ?? { bytesReceived: 0, bytesSent: 0, framesDecoded: 0, peers: 0, receiving: 0 },
  );

async function main() {
  if (!existsSync(path.join(WEB_DIST, 'index.html'))) throw new Error(`no web build at ${WEB_DIST}: run npm run build`);
  // the meeting link names the server's public address: a fixed port
  const base = `http://127.0.0.1:${PORT}`;
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WEB_DIST, PUBLIC_URL: base });
  const deps = await createDeps(config, 'memory://');
  const app = await buildApp(deps);
  await app.listen({ port: PORT, host: '127.0.0.1' });
  const browser = await chromium.launch(CHROMIUM_WITH_FAKE_MEDIA);
  console.log(`machine: ${cpus().length} cores; all participants' browsers run on it`);
  console.log(
    '| participants | join → full mesh | video fps per remote stream (p50 / min) | upload per participant | download per participant | machine CPU |',
  );
  console.log('| --- | --- | --- | --- | --- | --- |');

  try {
    for (const n of SIZES) {
      const tag = randomBytes(4).toString('hex');
      const people = await deps.db
        .insert(users)
        .values(
          Array.from({ length: n }, (_, i) => ({
            slug: `mesh-${tag}-${i}`,
            first_name: i === 0 ? 'Host' : 'Learner',
            last_name: String(i),
            email: `mesh-${tag}-${i}@bench.test`,
            password_hash: 'x',
            roles: [i === 0 ? 'provider' : 'user'],
            user_type: i === 0 ? 3 : 2,
          })),
        )
        .returning({ id: users.id, roles: users.roles, email: users.email });
      const tokens = people.map(() => newToken());
      await deps.db.insert(sessions).values(
        people.map((p, i) => ({
          user_id: p.id,
          token_hash: hashToken(tokens[i]!),
          expires_at: new Date(Date.now() + 3600_000),
        })),
      );
      const [training] = await deps.db
        .insert(trainings)
        .values({
          slug: `mesh-${tag}`,
          link: `mesh-${tag}`,
          name: `Mesh of ${n}`,
          start_date: new Date(),
          end_date: new Date(Date.now() + 86_400_000),
          total_training_day: 1,
          number_of_participants: n,
          status: 1, // started: nobody waits for the host
          owner_user_id: people[0]!.id,
        })
        .returning();
      await deps.db
        .insert(trainingUsers)
        .values(people.slice(1).map((p) => ({ training_id: training!.id, user_id: p.id })));

      const contexts = await Promise.all(
        people.map(async (p, i) => {
          const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
          await storeSession(context, { token: tokens[i]!, roles: p.roles, email: p.email, id: p.id });
          return context;
        }),
      );
      const pages = await Promise.all(contexts.map((c) => c.newPage()));
      await Promise.all(pages.map((p) => p.goto(`${base}/conference/${training!.slug}`)));
      await Promise.all(pages.map((p) => p.getByRole('button', { name: 'Join meeting' }).waitFor()));

      const t0 = performance.now();
      for (const p of pages) await p.getByRole('button', { name: 'Join meeting' }).click();
      let meshMs: number | null = null;
      while (performance.now() - t0 < MESH_TIMEOUT_MS) {
        const all = await Promise.all(pages.map(stats));
        if (all.every((s) => s.receiving === n - 1)) {
          meshMs = performance.now() - t0;
          break;
        }
        await new Promise((r) => setTimeout(r, 200));
      }

      const before = await Promise.all(pages.map(stats));
      const cpu0 = cpuTimes();
      const w0 = performance.now();
      await new Promise((r) => setTimeout(r, WINDOW_MS));
      const after = await Promise.all(pages.map(stats));
      const cpu1 = cpuTimes();
      const seconds = (performance.now() - w0) / 1000;

      const fps = after.map((a, i) => (a.framesDecoded - before[i]!.framesDecoded) / seconds / Math.max(1, n - 1));
      const sorted = [...fps].sort((a, b) => a - b);
      const kbps = (bytes: number) => Math.round((bytes * 8) / seconds / 1000);
      const up = after.map((a, i) => kbps(a.bytesSent - before[i]!.bytesSent));
      const down = after.map((a, i) => kbps(a.bytesReceived - before[i]!.bytesReceived));
      const avg = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length);
      const busy = Math.round(((cpu1.busy - cpu0.busy) / Math.max(1, cpu1.total - cpu0.total)) * 100);
      console.log(
        `| ${n} | ${meshMs === null ? `not reached in ${MESH_TIMEOUT_MS / 1000} s` : `${(meshMs / 1000).toFixed(1)} s`} | ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} / ${sorted[0]!.toFixed(1)} | ${avg(up)} kbit/s | ${avg(down)} kbit/s | ${busy} % |`,
      );

      for (const p of pages)
        await p
          .getByRole('button', { name: 'Leave' })
          .click({ timeout: 5000 })
          .catch(() => {});
      await Promise.all(contexts.map((c) => c.close()));
      await app.conferenceHub.settle();
      if (meshMs === null) break;
    }
  } finally {
    await browser.close();
    await app.close();
    await closeDeps(deps);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
