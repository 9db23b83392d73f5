import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAB_NETWORK } from '../src/adapters/labs/container';
import { createTestApp, type TestApp } from '../test/helpers';
import { labAccount, makeVm } from '../test/labs-fixtures';
import { connectCommand, labShell } from './lab-shell';

/**
 * LAB_INTERNET=true against the real Docker engine. The internet is a network namespace of this
 * test (`tl-inet`, 203.0.113.7, TEST-NET-3) behind the lab host, reached like any outside address:
 * through the lab's gateway, the host's forwarding and the engine's masquerade. A shell in lab A
 * must reach it, and nothing of the lab host (its gateway address, its other addresses, a service
 * listening on all of them), no private or link-local network (a cloud's metadata service), and not
 * lab B on the same bridge.
 */

const NETNS = 'tl-inet';
const HOST_SIDE = '203.0.113.1';
const INTERNET = '203.0.113.7';
const INTERNET_PORT = 8080;

const docker = new Docker();
let t: TestApp;
let base: string;
let provider: string;
let dataDir: string;
let hostService: Server;
let hostPort = 0;
let internetServer: ReturnType<typeof spawn> | undefined;
const made: string[] = [];

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });

function removeInternet() {
  internetServer?.kill();
  try {
    ip('link', 'del', 'tl-inet0');
  } catch {
    /* not there */
  }
  try {
    ip('netns', 'del', NETNS);
  } catch {
    /* not there */
  }
}

beforeAll(async () => {
  removeInternet();
  ip('netns', 'add', NETNS);
  ip('link', 'add', 'tl-inet0', 'type', 'veth', 'peer', 'name', 'tl-inet1');
  ip('link', 'set', 'tl-inet1', 'netns', NETNS);
  ip('addr', 'add', `${HOST_SIDE}/24`, 'dev', 'tl-inet0');
  ip('link', 'set', 'tl-inet0', 'up');
  ip('netns', 'exec', NETNS, 'ip', 'addr', 'add', `${INTERNET}/24`, 'dev', 'tl-inet1');
  ip('netns', 'exec', NETNS, 'ip', 'link', 'set', 'tl-inet1', 'up');
  ip('netns', 'exec', NETNS, 'ip', 'link', 'set', 'lo', 'up');
  internetServer = spawn(
    'ip',
    ['netns', 'exec', NETNS, 'socat', `TCP-LISTEN:${INTERNET_PORT},fork,reuseaddr`, 'SYSTEM:echo internet-says-hi'],
    { stdio: 'ignore' },
  );
  // a service of the lab host listening on every address, as a careless one would
  hostService = createServer((socket) => {
    socket.write('host-secret\n');
    // held open a moment, like a real service (a connection closed at once reads as refused)
    socket.setTimeout(3000, () => socket.destroy());
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => hostService.listen(0, '0.0.0.0', resolve));
  hostPort = (hostService.address() as { port: number }).port;

  dataDir = mkdtempSync(path.join(tmpdir(), 'tl-labs-internet-'));
  t = await createTestApp({
    LAB_PROVIDER: 'container',
    LAB_INTERNET: 'true',
    DATA_DIR: dataDir,
    LOGIN_RATE_LIMIT: '1000',
  });
  provider = (await t.loginAs({ role: 'provider' })).token;
  await labAccount(t, provider);
  const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = url.replace(/^http/, 'ws');
}, 120_000);

afterAll(async () => {
  const engine = t.deps.labs;
  for (const name of made) await engine.delete(name).catch(() => undefined);
  await t.close();
  await new Promise((resolve) => hostService.close(resolve));
  removeInternet();
  rmSync(dataDir, { recursive: true, force: true });
}, 120_000);

async function startedLab() {
  const v = await makeVm(t, provider);
  made.push(v.vm_name);
  const start = await t.post('vm-start-stop', { action: 'start', name: v.vm_name }, provider);
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  return v;
}

describe('LAB_INTERNET=true', () => {
  it('a lab reaches the internet, not the lab host, its networks, the metadata service or another lab', async () => {
    const a = await startedLab();
    const b = await startedLab();
    const network = await docker.getNetwork(LAB_NETWORK).inspect();
    const gateway = network.IPAM?.Config?.[0]?.Gateway as string;
    const containers = network.Containers as Record<string, { Name: string; IPv4Address: string }>;
    const ipOf = (vm: string): string => {
      const found = Object.values(containers).find((c) => c.Name.endsWith(`-${vm}`));
      if (!found) throw new Error(`${vm} is not on ${LAB_NETWORK}`);
      return found.IPv4Address.split('/')[0] ?? '';
    };

    const shB = await labShell(base, b.vm_name, provider);
    await shB.run('(socat TCP-LISTEN:7000,fork,reuseaddr SYSTEM:"echo lab-b" >/dev/null 2>&1 &)');
    shB.close();

    const sh = await labShell(base, a.vm_name, provider);
    // the internet answers
    expect(await sh.run(`socat -T3 - TCP:${INTERNET}:${INTERNET_PORT},connect-timeout=3 </dev/null`)).toContain(
      'internet-says-hi',
    );
    // the lab host, through its gateway address and through its other addresses
    for (const target of [
      `${gateway}:${hostPort}`,
      `${HOST_SIDE}:${hostPort}`,
      '169.254.169.254:80',
      '10.0.0.1:80',
      '192.168.1.1:80',
      `${ipOf(b.vm_name)}:7000`,
    ]) {
      expect(await sh.run(connectCommand(target)), target).toContain('CLOSED');
    }
    // the fence is in the lab's own routing table, and the lab's user cannot take it down
    expect(await sh.run('ip route')).toMatch(/prohibit 169\.254\.0\.0\/16/);
    expect(await sh.run('ip route del prohibit 169.254.0.0/16 2>&1; echo rc=$?')).toMatch(
      /Operation not permitted[\s\S]*rc=2/,
    );
    expect(await sh.run('grep CapEff /proc/self/status')).toMatch(/CapEff:\s*0000000000000000/);
    sh.close();
    // the helper that wrote the routes is gone
    const helpers = await docker.listContainers({ all: true, filters: { name: ['-fence'] } });
    expect(helpers).toEqual([]);
  }, 180_000);

  it('a stopped and started lab is fenced again (a new network namespace)', async () => {
    const a = await startedLab();
    const stop = await t.post('vm-start-stop', { action: 'stop', name: a.vm_name }, provider);
    expect(stop.status, JSON.stringify(stop.body)).toBe(200);
    const start = await t.post('vm-start-stop', { action: 'start', name: a.vm_name }, provider);
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const sh = await labShell(base, a.vm_name, provider);
    expect(await sh.run(connectCommand('169.254.169.254:80'))).toContain('CLOSED');
    expect(await sh.run(`socat -T3 - TCP:${INTERNET}:${INTERNET_PORT},connect-timeout=3 </dev/null`)).toContain(
      'internet-says-hi',
    );
    sh.close();
  }, 180_000);
});
