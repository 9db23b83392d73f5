/**
 * How many viewers one presenter reaches, through Janus (the SFU engine) and through the mesh, in
 * the same run: one presenter (a provider with a fake camera and microphone) and N receive-only
 * viewers (headless Chromium pages without a camera or microphone, who join and listen) in one
 * room of our server (in-process, PGlite in memory, the built web app); for each N and engine:
 * - join time: from the first click on 'Join meeting' until every viewer receives the presenter;
 * - for a steady window: video frames decoded per second at each viewer, the presenter's upload;
 * - with Janus: the CPU time and resident memory of the janus process (from /proc/<pid>), whose
 *   growth with N gives the cost per viewer.
 * A throwaway Janus is started for the run (scripts/janus-local.mjs, Debian's janus). Every browser
 * runs on this one machine, so the frame rates are those of a loaded machine; the Janus figures are
 * Janus's own.
 *
 *   npm run build && npx tsx bench/janus-room.ts
 *   BENCH_JANUS_VIEWERS=2,5,10 BENCH_JANUS_WINDOW_S=15 npx tsx bench/janus-room.ts
 */

import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type Page } from '@playwright/test';
import { buildApp } from '../apps/server/src/app';
import { closeDeps, createDeps } from '../apps/server/src/bootstrap';
import { sessions, trainings, trainingUsers, users } from '../apps/server/src/db/schema';
import { hashToken, newToken } from '../apps/server/src/platform/auth/tokens';
import { loadConfig } from '../apps/server/src/platform/config';
import { CHROMIUM, CHROMIUM_WITH_FAKE_MEDIA } from '../e2e/support/browser';
import { type LocalJanus, startJanus } from '../scripts/janus-local.mjs';
import { storeSession } from './browser-session';

const VIEWERS = (process.env.BENCH_JANUS_VIEWERS ?? '2,5,10').split(',').map(Number);
const ENGINES = (process.env.BENCH_JANUS_ENGINES ?? 'mesh,janus').split(',') as Engine[];
const WINDOW_MS = Number(process.env.BENCH_JANUS_WINDOW_S ?? 15) * 1000;
const JOIN_TIMEOUT_MS = 90_000;
const PORT = Number(process.env.BENCH_PORT ?? 3391);
const WEB_DIST = process.env.BENCH_WEB_DIST ?? path.resolve(import.meta.dirname, '../apps/web/dist');
/** clock ticks per second of /proc/<pid>/stat (Linux: 100) */
const HZ = 100;

type Engine = 'mesh' | 'janus';

interface Stats {
  bytesReceived: number;
  bytesSent: number;
  framesDecoded: number;
  receiving: number;
  media?: string;
}

/** The page's statistics (the conference page puts its client's on window.__cfConference). */
const stats = (page: Page) =>
  page.evaluate(
    async () =>
      (await (
        window as unknown as { __cfConference?: { getStats: () => Promise<Stats> } }
      ).__cfConference?.getStats()) ?? { bytesReceived: 0, bytesSent: 0, framesDecoded: 0, receiving: 0 },
  );

/** CPU seconds (user + system) and resident memory (MB) of one process. */
function processUse(pid: number) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuSeconds = (Number(fields[11]) + Number(fields[12])) / HZ;
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return { cpuSeconds, rssMb: Number(rss ?? 0) / 1024 };
}

interface Row {
  engine: Engine;
  viewers: number;
  joinMs: number | null;
  fpsMedian: number;
  fpsMin: number;
  uploadKbps: number;
  janusCpu: number | null;
  janusRssMb: number | null;
}

async function room(
  engine: Engine,
  n: number,
  ctx: {
    deps: Awaited<ReturnType<typeof createDeps>>;
    base: string;
    presenter: Browser;
    viewer: Browser;
    janus: LocalJanus | null;
  },
): Promise<Row> {
  const tag = randomBytes(4).toString('hex');
  const people = await ctx.deps.db
    .insert(users)
    .values(
      Array.from({ length: n + 1 }, (_, i) => ({
        slug: `sfu-${tag}-${i}`,
        first_name: i === 0 ? 'Presenter' : 'Viewer',
        last_name: String(i),
        email: `sfu-${tag}-${i}@bench.test`,
        password_hash: 'x',
        roles: [i === 0 ? 'provider' : 'user'],
        user_type: i === 0 ? 3 : 2,
      })),
    )
    .returning({ id: users.id, roles: users.roles, email: users.email });
  const tokens = people.map(() => newToken());
  await ctx.deps.db.insert(sessions).values(
    people.map((p, i) => ({
      user_id: p.id,
      token_hash: hashToken(tokens[i]!),
      expires_at: new Date(Date.now() + 3600_000),
    })),
  );
  const [training] = await ctx.deps.db
    .insert(trainings)
    .values({
      slug: `sfu-${tag}`,
      link: `sfu-${tag}`,
      name: `${engine} with ${n} viewers`,
      start_date: new Date(),
      end_date: new Date(Date.now() + 86_400_000),
      total_training_day: 1,
      number_of_participants: n + 1,
      status: 1, // started: nobody waits for the host
      owner_user_id: people[0]!.id,
    })
    .returning();
  await ctx.deps.db
    .insert(trainingUsers)
    .values(people.slice(1).map((p) => ({ training_id: training!.id, user_id: p.id })));

  const contexts = await Promise.all(
    people.map(async (p, i) => {
      // the presenter has a (fake) camera and microphone; the viewers have none and only listen
      const context = await (i === 0 ? ctx.presenter : ctx.viewer).newContext({
        viewport: { width: 1100, height: 760 },
      });
      await storeSession(context, { token: tokens[i]!, roles: p.roles, email: p.email, id: p.id });
      return context;
    }),
  );
  const pages = await Promise.all(contexts.map((c) => c.newPage()));
  await Promise.all(pages.map((p) => p.goto(`${ctx.base}/conference/${training!.slug}`)));
  await Promise.all(pages.map((p) => p.getByRole('button', { name: 'Join meeting' }).waitFor()));
  const [presenter, ...viewers] = pages;

  const t0 = performance.now();
  for (const p of pages) await p.getByRole('button', { name: 'Join meeting' }).click();
  let joinMs: number | null = null;
  while (performance.now() - t0 < JOIN_TIMEOUT_MS) {
    const all = await Promise.all(viewers.map(stats));
    if (all.every((s) => s.receiving >= 1 && s.framesDecoded > 0)) {
      joinMs = performance.now() - t0;
      break;
    }
    await new Promise((r) => setTimeout(r, 200));
  }

  const before = await Promise.all(pages.map(stats));
  const j0 = ctx.janus ? processUse(ctx.janus.pid) : null;
  const w0 = performance.now();
  await new Promise((r) => setTimeout(r, WINDOW_MS));
  const after = await Promise.all(pages.map(stats));
  const j1 = ctx.janus ? processUse(ctx.janus.pid) : null;
  const seconds = (performance.now() - w0) / 1000;

  const fps = viewers
    .map((_, i) => (after[i + 1]!.framesDecoded - before[i + 1]!.framesDecoded) / seconds)
    .sort((a, b) => a - b);
  const uploadKbps = Math.round(((after[0]!.bytesSent - before[0]!.bytesSent) * 8) / seconds / 1000);
  const row: Row = {
    engine,
    viewers: n,
    joinMs,
    fpsMedian: fps[Math.floor(fps.length / 2)] ?? 0,
    fpsMin: fps[0] ?? 0,
    uploadKbps,
    janusCpu: j0 && j1 ? ((j1.cpuSeconds - j0.cpuSeconds) / seconds) * 100 : null,
    janusRssMb: j1 ? j1.rssMb : null,
  };
  void presenter;
  for (const p of pages)
    await p
      .getByRole('button', { name: 'Leave' })
      .click({ timeout: 5000 })
      .catch(() => {});
  await Promise.all(contexts.map((c) => c.close()));
  return row;
}

async function main() {
  if (!existsSync(path.join(WEB_DIST, 'index.html'))) throw new Error(`no web build at ${WEB_DIST}: run npm run build`);
  const janus = ENGINES.includes('janus') ? await startJanus({ debugLevel: 2 }) : null;
  const idle = janus ? processUse(janus.pid) : null;
  const presenter = await chromium.launch(CHROMIUM_WITH_FAKE_MEDIA);
  // no fake devices: getUserMedia fails and the page joins to listen (receive-only)
  const viewer = await chromium.launch({
    ...CHROMIUM,
    args: [...CHROMIUM.args, '--autoplay-policy=no-user-gesture-required'],
  });
  console.log(`machine: ${cpus().length} cores; the presenter's and every viewer's browser run on it`);
  if (idle) console.log(`janus idle: ${idle.rssMb.toFixed(1)} MB resident`);
  const rows: Row[] = [];
  try {
    for (const engine of ENGINES) {
      const base = `http://127.0.0.1:${PORT}`;
      const config = loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        WEB_DIST,
        PUBLIC_URL: base,
        MEETING_PROVIDER: engine === 'janus' ? 'janus' : 'builtin',
        ...(engine === 'janus' && janus ? { JANUS_URL: janus.url, JANUS_ADMIN_SECRET: janus.adminKey } : {}),
      });
      const deps = await createDeps(config, 'memory://');
      const app = await buildApp(deps);
      await app.listen({ port: PORT, host: '127.0.0.1' });
      try {
        for (const n of VIEWERS) {
          const row = await room(engine, n, {
            deps,
            base,
            presenter,
            viewer,
            janus: engine === 'janus' ? janus : null,
          });
          rows.push(row);
          await app.conferenceHub.settle();
          console.log(JSON.stringify(row));
          if (row.joinMs === null) break;
        }
      } finally {
        await app.close();
        await closeDeps(deps);
      }
    }
  } finally {
    await presenter.close();
    await viewer.close();
    await janus?.stop();
  }

  console.log(
    '\n| engine | viewers | join → all viewers receive | viewer fps (p50 / min) | presenter upload | janus CPU (one core = 100 %) | janus resident memory |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows)
    console.log(
      `| ${r.engine} | ${r.viewers} | ${r.joinMs === null ? `not reached in ${JOIN_TIMEOUT_MS / 1000} s` : `${(r.joinMs / 1000).toFixed(1)} s`} | ${r.fpsMedian.toFixed(1)} / ${r.fpsMin.toFixed(1)} | ${r.uploadKbps} kbit/s | ${r.janusCpu === null ? '–' : `${r.janusCpu.toFixed(1)} %`} | ${r.janusRssMb === null ? '–' : `${r.janusRssMb.toFixed(1)} MB`} |`,
    );
  // the cost of one more viewer: the slope between the smallest and the largest room through Janus
  const sfu = rows.filter((r) => r.engine === 'janus' && r.joinMs !== null);
  if (sfu.length >= 2 && idle) {
    const lo = sfu[0]!;
    const hi = sfu.at(-1)!;
    const cpuPerViewer = ((hi.janusCpu ?? 0) - (lo.janusCpu ?? 0)) / (hi.viewers - lo.viewers);
    const rssPerViewer = ((hi.janusRssMb ?? 0) - (lo.janusRssMb ?? 0)) / (hi.viewers - lo.viewers);
    console.log(
      `\njanus per viewer: ${cpuPerViewer.toFixed(2)} % of one core, ${rssPerViewer.toFixed(2)} MB (slope from ${lo.viewers} to ${hi.viewers} viewers)`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
