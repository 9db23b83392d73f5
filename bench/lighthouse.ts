/**
 * Lighthouse on the first pages, served by our own server from the production build (hashed assets,
 * precompressed, cache headers) on the embedded defaults: /training-home and /login, with Lighthouse's
 * mobile profile (simulated slow 4G and a 4× slower CPU) and its desktop profile, three runs each
 * (the median is reported, as Lighthouse's own guidance says).
 *
 *   npm run build && npm run bench:lighthouse -w @trainlab/bench
 *
 * Beside the timings (which follow the machine's load) it prints what does not: requests, render-blocking
 * resources, long tasks and main-thread work, and the load average when each page's runs began.
 *
 * Chromium is Debian's (/usr/bin/chromium, or CHROMIUM_PATH); nothing is downloaded.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const PORT = Number(process.env.BENCH_PORT ?? 3170);
const BASE = `http://127.0.0.1:${PORT}`;
const ROUTES = ['/training-home', '/login'];
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// LIGHTHOUSE_PROFILES=mobile runs only the mobile profile (the goal), default both
const PROFILES = (process.env.LIGHTHOUSE_PROFILES ?? 'mobile,desktop').split(',');

async function startServer(): Promise<{ child: ChildProcess; dataDir: string }> {
  const main = path.join(ROOT, 'apps/server/dist/main.js');
  if (!existsSync(main)) throw new Error('Build first: npm run build');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'trainlab-lh-'));
  const child = spawn(process.execPath, [main], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(PORT),
      PUBLIC_URL: BASE,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
    },
  });
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${BASE}/api/health`)).ok) return { child, dataDir };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill();
  throw new Error('the server did not answer /api/health');
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Run {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  scriptBytes: number;
  /** load-independent figures beside the timings, which follow the machine's load */
  requests: number;
  renderBlocking: number;
  longTasks: number;
  mainThreadMs: number;
}

async function audit(port: number, url: string, desktop: boolean): Promise<Run> {
  const result = await lighthouse(
    url,
    { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] },
    desktop ? desktopConfig : undefined,
  );
  if (!result) throw new Error(`no Lighthouse result for ${url}`);
  const a = result.lhr.audits;
  const items = <T>(id: string) => ((a[id]?.details as { items?: T[] } | undefined)?.items ?? []) as T[];
  const summary = items<{ resourceType: string; transferSize: number; requestCount: number }>('resource-summary');
  return {
    score: Math.round((result.lhr.categories.performance?.score ?? 0) * 100),
    fcp: a['first-contentful-paint']?.numericValue ?? 0,
    lcp: a['largest-contentful-paint']?.numericValue ?? 0,
    tbt: a['total-blocking-time']?.numericValue ?? 0,
    cls: a['cumulative-layout-shift']?.numericValue ?? 0,
    scriptBytes: summary.find((i) => i.resourceType === 'script')?.transferSize ?? 0,
    requests: summary.find((i) => i.resourceType === 'total')?.requestCount ?? 0,
    renderBlocking: items('render-blocking-resources').length,
    longTasks: items('long-tasks').length,
    mainThreadMs: a['mainthread-work-breakdown']?.numericValue ?? 0,
  };
}

async function main() {
  const { child, dataDir } = await startServer();
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const rows: string[] = [];
  try {
    for (const desktop of [false, true].filter((d) => PROFILES.includes(d ? 'desktop' : 'mobile'))) {
      for (const route of ROUTES) {
        const runs: Run[] = [];
        // the machine's load over the last minute, read as the page's runs start
        const load = loadavg()[0]!.toFixed(1);
        for (let i = 0; i < RUNS; i++) runs.push(await audit(chrome.port, `${BASE}${route}`, desktop));
        const m = (k: keyof Run) => median(runs.map((r) => r[k]));
        rows.push(
          `| ${route} | ${desktop ? 'desktop' : 'mobile'} | ${m('score')} (${runs.map((r) => r.score).join(', ')}) | ${Math.round(m('fcp'))} | ${Math.round(m('lcp'))} | ${Math.round(m('tbt'))} | ${m('cls').toFixed(3)} | ${Math.round(m('scriptBytes') / 1024)} | ${m('requests')} | ${m('renderBlocking')} | ${m('longTasks')} | ${Math.round(m('mainThreadMs'))} | ${load} |`,
        );
        console.log(rows.at(-1));
      }
    }
  } finally {
    chrome.kill();
    child.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(
    '\n| route | profile | performance (runs) | FCP ms | LCP ms | TBT ms | CLS | script KiB | requests | render-blocking | long tasks | main thread ms | load avg |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) console.log(r);
}

await main();
