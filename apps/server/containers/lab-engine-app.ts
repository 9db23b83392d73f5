import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { createTestApp, type TestApp } from '../test/helpers';
import { labAccount, makeVm } from '../test/labs-fixtures';

/** A server on the real container engine, listening, with a provider signed in and its lab account. */
export interface LabEngineApp {
  t: TestApp;
  /** the ws:// address of the listening server */
  base: string;
  /** its port */
  port: number;
  provider: string;
  dataDir: string;
}

/** LAB_IMAGE from the environment: another image to test, e.g. a build of one's own. */
export const labImage: Record<string, string> = process.env.LAB_IMAGE ? { LAB_IMAGE: process.env.LAB_IMAGE } : {};

/**
 * Starts the test server the container-engine tests share: its own data folder, the container
 * engine (LAB_IMAGE from the environment picks another image), `settings` on top. `host` is where it
 * listens (0.0.0.0 for a test that tries to reach it from a lab).
 */
export async function startLabEngineApp(
  prefix: string,
  settings: Record<string, string> = {},
  host = '127.0.0.1',
): Promise<LabEngineApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  const t = await createTestApp({
    LAB_PROVIDER: 'container',
    DATA_DIR: dataDir,
    LOGIN_RATE_LIMIT: '1000',
    ...labImage,
    ...settings,
  });
  const provider = (await t.loginAs({ role: 'provider' })).token;
  await labAccount(t, provider);
  const url = await t.app.listen({ port: 0, host });
  const port = Number(new URL(url).port);
  return { t, base: `ws://127.0.0.1:${port}`, port, provider, dataDir };
}

/** Deletes the labs a test made (whatever state they are in), closes the server, removes its data. */
export async function stopLabEngineApp(app: LabEngineApp | undefined, made: string[]): Promise<void> {
  if (!app) return;
  const engine = app.t.deps.labs;
  for (const name of made) await engine.delete(name).catch(() => undefined);
  await app.t.close();
  rmSync(app.dataDir, { recursive: true, force: true });
}

/** Makes a lab as `token` and starts it; its name goes into `made`, for stopLabEngineApp to delete. */
export async function startLab(t: TestApp, token: string, made: string[], over: Record<string, unknown> = {}) {
  const v = await makeVm(t, token, over);
  made.push(v.vm_name);
  const start = await t.post('vm-start-stop', { action: 'start', name: v.vm_name }, token);
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  return v;
}
