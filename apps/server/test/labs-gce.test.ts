import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { VM_STATUS } from '@trainlab/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LabEngineError, loadLabEngine } from '../src/adapters/labs';
import { GceLabs, HOST_KEY_PENDING } from '../src/adapters/labs/gce';
import { sha512Crypt } from '../src/adapters/labs/gce-crypt';
import { labNamespace } from '../src/adapters/labs/namespace';
import { buildApp } from '../src/app';
import { vms, vmUsages } from '../src/db/schema';
import { reconcileOrphans } from '../src/domains/labs/orphans';
import { loadConfig } from '../src/platform/config';
import { type FakeCall, serviceAccountKey, startFakeCompute } from './gce-fake';
import { createTestApp, type TestApp } from './helpers';
import { labAccount, linuxVm } from './labs-fixtures';

/** The Google Compute Engine engine through the real client, against a local fake of the REST API. */
const PORT = 3510;
const dir = mkdtempSync(path.join(tmpdir(), 'hc-gce-'));
const key = serviceAccountKey(dir);
let fake: Awaited<ReturnType<typeof startFakeCompute>>;
let t: TestApp;
let provider: string;
const BASE = '/compute/v1/projects/hc-project/zones';

beforeAll(async () => {
  fake = await startFakeCompute(PORT, key.publicKey);
  t = await createTestApp({
    LOGIN_RATE_LIMIT: '1000',
    LAB_PROVIDER: 'gce',
    GCE_KEY_FILE: key.file,
    GCE_API_ENDPOINT: fake.url,
    LOG_LEVEL: 'debug',
  });
  // the same engine as configured, polling operations every few milliseconds
  t.deps.labs = new GceLabs(t.deps.config, { pollMs: 5 });
  provider = (await t.loginAs({ role: 'provider' })).token;
  await labAccount(t, provider);
});
afterAll(async () => {
  await t.close();
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

const callsFrom = (n: number) => fake.calls.slice(n);
const paths = (calls: FakeCall[]) => calls.map((c) => `${c.method} ${c.path.replace(BASE, '')}`);

describe('LAB_PROVIDER=gce', () => {
  it('is the configured engine, ready with a key file; names a missing or broken key without quoting it', async () => {
    expect(await loadLabEngine(t.deps.config)).toBeInstanceOf(GceLabs);
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.json().labs).toEqual({ engine: 'gce', ready: true });

    const none = new GceLabs(loadConfig({ LAB_PROVIDER: 'gce' }));
    expect(await none.problem()).toMatch(/GCE_KEY_FILE/);
    const broken = path.join(dir, 'broken.json');
    writeFileSync(broken, '{"private_key": "-----BEGIN PRIVATE KEY-----\\nsecret-part');
    const bad = new GceLabs(loadConfig({ LAB_PROVIDER: 'gce', GCE_KEY_FILE: broken }));
    const problem = (await bad.problem()) ?? '';
    expect(problem).toMatch(/GCE_KEY_FILE/);
    expect(problem).not.toMatch(/secret-part|PRIVATE/);
    const noProject = path.join(dir, 'noproject.json');
    writeFileSync(noProject, JSON.stringify({ client_email: 'a@b', private_key: 'x' }));
    expect(await new GceLabs(loadConfig({ GCE_KEY_FILE: noProject })).problem()).toMatch(/GCE_PROJECT/);
  });

  it('creates a Linux lab: machine type by RAM, disk size and image from the form, signed calls, operation polled to DONE', async () => {
    const from = fake.calls.length;
    const res = await t.post('gc-create-vm', linuxVm({ ram: 8, storage: 30, zone: 'asia-south1-b' }), provider);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const created = res.body.list[0] as { vm_name: string; username: string; password: string };
    const calls = callsFrom(from);
    expect(paths(calls)).toEqual([
      'POST /asia-south1-b/instances',
      'GET /asia-south1-b/operations/operation-1',
      'GET /asia-south1-b/operations/operation-1',
    ]);
    expect(calls.every((c) => c.authorized)).toBe(true);
    const body = calls[0]!.body as {
      name: string;
      machineType: string;
      disks: { boot: boolean; initializeParams: { diskSizeGb: string; sourceImage: string } }[];
      tags: { items: string[] };
      networkInterfaces: { accessConfigs: { type: string }[] }[];
      metadata: { items: { key: string; value: string }[] };
    };
    expect(body.name).toBe(created.vm_name);
    expect(body.machineType).toBe('zones/asia-south1-b/machineTypes/e2-standard-2');
    expect(body.disks[0]!.boot).toBe(true);
    expect(body.disks[0]!.initializeParams).toMatchObject({
      diskSizeGb: '30',
      sourceImage: 'projects/ubuntu-os-cloud/global/images/family/ubuntu-2204-lts',
    });
    expect(body.tags.items).toEqual(['trainlab-ssh']);
    const nic = body.networkInterfaces[0]!;
    expect(nic.accessConfigs[0]!.type).toBe('ONE_TO_ONE_NAT');
    // the password is never in the request: the start-up script gets its SHA-512 crypt hash
    expect(JSON.stringify(body)).not.toContain(created.password);
    const script = body.metadata.items.find((i) => i.key === 'startup-script')!.value;
    const found = /'tllab_[0-9a-f]+:(\$6\$[^$]+\$[^']+)'/.exec(script);
    const hash = String(found?.[1]);
    const salt = hash.split('$')[2]!;
    expect(sha512Crypt(created.password, salt)).toBe(hash);
    const [row] = await t.deps.db.select().from(vms).where(eq(vms.vm_name, created.vm_name));
    expect(row!.engine_ref).toBe(`asia-south1-b/${created.vm_name}`);
    expect(row!.engine).toBe('gce');
  });

  it('a change whose answer is lost (the connection reset) is sent once more with its requestId: one machine', async () => {
    const from = fake.calls.length;
    const before = fake.instances.size;
    fake.state.loseAnswers = 1;
    const res = await t.post('gc-create-vm', linuxVm({ ram: 4, storage: 20, zone: 'asia-south1-a' }), provider);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const inserts = callsFrom(from).filter((c) => c.method === 'POST');
    // the same request twice, with one requestId: the API made the machine once
    expect(inserts).toHaveLength(2);
    expect(inserts[0]!.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(inserts[1]!.requestId).toBe(inserts[0]!.requestId);
    expect(fake.instances.size).toBe(before + 1);
    expect(fake.state.loseAnswers).toBe(0);
    // every change carries its own requestId; a new change, a new id
    const again = await t.post('gc-create-vm', linuxVm({ ram: 4, storage: 20, zone: 'asia-south1-a' }), provider);
    expect(again.status).toBe(200);
    const next = callsFrom(from).filter((c) => c.method === 'POST');
    expect(next).toHaveLength(3);
    expect(next[2]!.requestId).not.toBe(inserts[0]!.requestId);
  });

  it('creates a Windows lab for RDP: its image family, machine type and tag', async () => {
    const from = fake.calls.length;
    const res = await t.post(
      'gc-create-vm',
      linuxVm({ image: 'windows', protocol: 'rdp', ram: 16, storage: 60, zone: 'us-central1-a' }),
      provider,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const body = callsFrom(from)[0]!.body as {
      machineType: string;
      disks: { initializeParams: { diskSizeGb: string; sourceImage: string } }[];
      tags: { items: string[] };
      metadata: { items: { key: string }[] };
    };
    expect(body.machineType).toBe('zones/us-central1-a/machineTypes/e2-standard-4');
    expect(body.disks[0]!.initializeParams).toMatchObject({
      diskSizeGb: '60',
      sourceImage: 'projects/windows-cloud/global/images/family/windows-2022',
    });
    expect(body.tags.items).toEqual(['trainlab-rdp']);
    expect(body.metadata.items.map((i) => i.key)).toContain('sysprep-specialize-script-ps1');
    const name = res.body.list[0].vm_name as string;
    const [row] = await t.deps.db.select().from(vms).where(eq(vms.vm_name, name));
    const engine = new GceLabs(t.deps.config, { pollMs: 5 });
    expect(await engine.connection(String(row?.engine_ref))).toEqual({ rdp: { host: '127.0.0.1', port: 3389 } });
    await engine.close();
  });

  it('starts, reports, connects and stops through the API, each waiting on its operation', async () => {
    const res = await t.post('gc-create-vm', linuxVm(), provider);
    const name = res.body.list[0].vm_name as string;
    const [row] = await t.deps.db.select().from(vms).where(eq(vms.vm_name, name));
    fake.instances.get(name)!.status = 'TERMINATED';
    let from = fake.calls.length;
    const start = await t.post('vm-start-stop', { action: 'start', name }, provider);
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    expect(start.body.status).toBe(VM_STATUS.start);
    expect(paths(callsFrom(from))[0]).toBe(`POST /asia-south1-a/instances/${name}/start`);
    expect(callsFrom(from).filter((c) => c.path.includes('/operations/')).length).toBe(2);
    expect(fake.instances.get(name)!.status).toBe('RUNNING');

    const engine = new GceLabs(t.deps.config, { pollMs: 5 });
    expect(await engine.status(String(row?.engine_ref))).toBe('running');
    expect(await engine.connection(String(row?.engine_ref))).toEqual({
      ssh: { host: '127.0.0.1', port: 22, username: row!.username, hostKeys: [fake.state.hostKeys[0]![1]] },
    });
    // created with guest attributes on, so the guest agent publishes the host keys there
    const insert = fake.calls.find((c) => c.method === 'POST' && c.path.endsWith('/instances'))!;
    expect((insert.body as { metadata: { items: { key: string; value: string }[] } }).metadata.items).toContainEqual({
      key: 'enable-guest-attributes',
      value: 'TRUE',
    });
    // until the machine has published its key, no terminal: the bridge would have nothing to check
    const published = fake.state.hostKeys;
    fake.state.hostKeys = [];
    await expect(engine.connection(String(row?.engine_ref))).rejects.toThrow(HOST_KEY_PENDING);
    fake.state.hostKeys = published;
    fake.instances.get(name)!.status = 'STAGING';
    expect(await engine.status(String(row?.engine_ref))).toBe('running');
    fake.instances.get(name)!.status = 'RUNNING';
    await engine.close();

    from = fake.calls.length;
    const stop = await t.post('vm-start-stop', { action: 'stop', name }, provider);
    expect(stop.status).toBe(200);
    expect(paths(callsFrom(from))[0]).toBe(`POST /asia-south1-a/instances/${name}/stop`);
    expect(fake.instances.get(name)!.status).toBe('TERMINATED');

    from = fake.calls.length;
    const del = await t.post('vm-delete', { name }, provider);
    expect(del.status).toBe(200);
    expect(paths(callsFrom(from))[0]).toBe(`DELETE /asia-south1-a/instances/${name}`);
    expect(fake.instances.has(name)).toBe(false);
  });

  it('a quota refusal (403) is a clear, safe 422 and leaves no live record', async () => {
    fake.state.quota = true;
    try {
      const res = await t.post('gc-create-vm', linuxVm({ name: 'Quota lab' }), provider);
      expect(res.status).toBe(422);
      const message = res.body.other_error[0] as string;
      expect(message).toMatch(/quota is used up \(quota CPUS\)/);
      expect(JSON.stringify(res.body)).not.toMatch(/PRIVATE KEY|hc-project|iam\.gserviceaccount/);
      const [row] = await t.deps.db.select().from(vms).where(eq(vms.name, 'Quota lab'));
      expect(row!.status).toBe(VM_STATUS.deleted);
    } finally {
      fake.state.quota = false;
    }
  });

  it('an operation that ends in an error (quota inside the operation) is refused the same way', async () => {
    fake.state.opError = { code: 'QUOTA_EXCEEDED', message: "Quota 'IN_USE_ADDRESSES' exceeded.  Limit: 4.0" };
    try {
      const res = await t.post('gc-create-vm', linuxVm(), provider);
      expect(res.status).toBe(422);
      expect(res.body.other_error[0]).toMatch(/quota IN_USE_ADDRESSES/);
    } finally {
      fake.state.opError = null;
    }
  });

  it('a vanished instance (404) is missing; the start-up reconcile closes its meter and stops the record', async () => {
    const res = await t.post('gc-create-vm', linuxVm(), provider);
    const name = res.body.list[0].vm_name as string;
    await t.post('vm-start-stop', { action: 'start', name }, provider);
    const [row] = await t.deps.db.select().from(vms).where(eq(vms.vm_name, name));
    fake.instances.delete(name);
    const engine = new GceLabs(t.deps.config, { pollMs: 5 });
    expect(await engine.status(String(row?.engine_ref))).toBe('missing');
    await expect(engine.connection(String(row?.engine_ref))).rejects.toBeInstanceOf(LabEngineError);
    await engine.close();

    const again = await buildApp(t.deps);
    await again.ready();
    await again.close();
    const [after] = await t.deps.db.select().from(vms).where(eq(vms.vm_name, name));
    expect(after!.status).toBe(VM_STATUS.stop);
    const open = await t.deps.db
      .select()
      .from(vmUsages)
      .where(and(eq(vmUsages.vm_id, row!.id), eq(vmUsages.status, 2)));
    expect(open).toEqual([]);
    // stopping or deleting a machine that is gone is not an error
    expect((await t.post('vm-delete', { name }, provider)).status).toBe(200);
  });

  it("lists only this install's machines, and the reconcile removes one no record owns (another install's stay)", async () => {
    const res = await t.post('gc-create-vm', { ...linuxVm(), ram: 4, zone: 'asia-south1-b' }, provider);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const name = res.body.list[0].vm_name as string;
    const engine = new GceLabs(t.deps.config, { pollMs: 5 });
    const ns = labNamespace(t.deps.config);
    expect(fake.instances.get(name)!.body.labels).toEqual({ app: 'trainlab', 'trainlab-install': ns });
    // a machine of this install that no record owns (a create the database lost), and another install's
    const stray = { name: 'tl-stray000001', zone: 'asia-south1-a', status: 'RUNNING' };
    fake.instances.set(stray.name, { ...stray, body: { name: stray.name, labels: { 'trainlab-install': ns } } });
    const foreign = { name: 'tl-foreign0001', zone: 'asia-south1-a', status: 'RUNNING' };
    fake.instances.set(foreign.name, { ...foreign, body: { name: foreign.name, labels: { 'trainlab-install': 'x' } } });
    const listed = await engine.listLabs();
    expect(listed).toContainEqual({ ref: `asia-south1-b/${name}`, vmName: name });
    expect(listed).toContainEqual({ ref: `asia-south1-a/${stray.name}`, vmName: stray.name });
    expect(listed.map((l) => l.vmName)).not.toContain(foreign.name);
    const removed = await reconcileOrphans(t.deps);
    expect(removed.removed).toBeGreaterThanOrEqual(1);
    expect(fake.instances.has(stray.name)).toBe(false);
    expect(fake.instances.has(foreign.name)).toBe(true);
    expect(fake.instances.has(name)).toBe(true);
    fake.instances.delete(foreign.name);
    await engine.close();
  });

  it('never writes the key, a token or a lab password to the logs or a response', async () => {
    const out: string[] = [];
    const capture = (chunk: unknown) => {
      out.push(String(chunk));
      return true;
    };
    const spies = [
      vi.spyOn(process.stdout, 'write').mockImplementation(capture),
      vi.spyOn(process.stderr, 'write').mockImplementation(capture),
      vi.spyOn(console, 'log').mockImplementation(capture),
      vi.spyOn(console, 'warn').mockImplementation(capture),
      vi.spyOn(console, 'error').mockImplementation(capture),
    ];
    const logged = await buildApp(t.deps, { logger: true });
    await logged.ready();
    const responses: string[] = [];
    let labPassword = '';
    try {
      const call = async (url: string, payload: object) => {
        const r = await logged.inject({
          method: 'POST',
          url: `/api/${url}`,
          headers: { authorization: `Bearer ${provider}` },
          payload,
        });
        responses.push(r.body);
        return r;
      };
      const ok = await call('gc-create-vm', linuxVm({ image: 'windows', protocol: 'rdp', ram: 4, storage: 50 }));
      expect(ok.statusCode).toBe(200);
      const made = JSON.parse(ok.body).list[0] as { vm_name: string; password: string };
      const name = made.vm_name;
      labPassword = made.password;
      await call('vm-start-stop', { action: 'start', name });
      await call('vm-details', { name });
      await call('vm-connection', { name });
      fake.state.quota = true;
      await call('gc-create-vm', linuxVm());
      fake.state.quota = false;
      responses.push((await logged.inject({ method: 'GET', url: '/api/health' })).body);
    } finally {
      fake.state.quota = false;
      await logged.close();
      for (const s of spies) s.mockRestore();
    }
    const text = out.join('\n');
    expect(text.length).toBeGreaterThan(0);
    const pem = key.key.private_key.split('\n')[1]!;
    // a signed token starts with its RS256 header
    for (const secret of [pem, 'private_key', 'eyJhbGciOiJSUzI1NiIs']) {
      expect(text).not.toContain(secret);
      expect(responses.join('\n')).not.toContain(secret);
    }
    // the shown-once password is in the create answer only
    expect(labPassword.length).toBeGreaterThan(10);
    expect(text).not.toContain(labPassword);
    expect(responses.slice(1).join('\n')).not.toContain(labPassword);
  });
});

describe('SHA-512 crypt of a Linux lab password', () => {
  it('matches glibc crypt(3) (values from `openssl passwd -6`)', () => {
    expect(sha512Crypt('Lab#Secret1@x', 'abcdEFGH12345678')).toBe(
      '$6$abcdEFGH12345678$9FTslOP.1NoSXKWEKzw9JuJrTaEI3bv4xHgsusUhua8rJuAYCiuqjsX0pVDYDJOD/hqtqksg86bXR2apgXojr1',
    );
    expect(sha512Crypt('a'.repeat(130), 'xy')).toBe(
      '$6$xy$gDBOp96UeLGJ9HlOvLsTATIj0U6kpa/JXwHrhw00TNQ7zvdMlp8rj9ahsSSABdnypFhucPgbNHAqaAKZbCJWb.',
    );
    expect(sha512Crypt('same')).not.toBe(sha512Crypt('same'));
  });
});
