import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadAllYaml } from '@kubernetes/client-node';
import { VM_STATUS } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labShell } from '../containers/lab-shell';
import { loadLabEngine } from '../src/adapters/labs';
import { KubernetesLabs, WAITING_FOR_HOST } from '../src/adapters/labs/kubernetes';
import { K8S_INSTALL_LABEL, K8S_LAB_LABEL } from '../src/adapters/labs/kubernetes-manifests';
import { labNamespace } from '../src/adapters/labs/namespace';
import { vms, vmUsages } from '../src/db/schema';
import { reconcileLabs } from '../src/domains/labs/metering';
import { reconcileOrphans } from '../src/domains/labs/orphans';
import { createTestApp, type TestApp } from './helpers';
import { closeCode, openLabSocket } from './lab-sockets';
import { labAccount, makeVm } from './labs-fixtures';
import { type KubeFake, startKubeFake } from './support/kube-fake';
import { schemaErrors } from './support/kube-schema';
import { makeTraining, person } from './trainings-fixtures';

/**
 * LAB_PROVIDER=kubernetes through the real client (@kubernetes/client-node), configured from
 * KUBECONFIG, against a local fake of the API server's HTTP and exec WebSocket protocols
 * (support/kube-fake.ts). No real cluster was available: what the fake does not check is listed
 * there and in docs/operations.md.
 */
const PORT = 3700;
const NS = 'trainlab-k8s-test';
const INSTALL = 'k8stest';
const dir = mkdtempSync(path.join(tmpdir(), 'tl-k8s-'));
let fake: KubeFake;
let t: TestApp;
let base: string;
let provider: string;
let vnc: Server;
let savedKubeconfig: string | undefined;

beforeAll(async () => {
  fake = await startKubeFake(PORT, [NS]);
  savedKubeconfig = process.env.KUBECONFIG;
  process.env.KUBECONFIG = fake.kubeconfig(dir);
  t = await createTestApp({
    LOGIN_RATE_LIMIT: '1000',
    LAB_PROVIDER: 'kubernetes',
    LAB_NAMESPACE: INSTALL,
    LAB_K8S_NAMESPACE: NS,
    LAB_K8S_IMAGE: 'registry.example.test/trainlab-lab:bookworm-2',
    LAB_K8S_START_TIMEOUT_SECONDS: '5',
    LAB_K8S_STORAGE_CLASS: 'fast-ssd',
  });
  // the configured engine, reading pods every few milliseconds
  t.deps.labs = new KubernetesLabs(t.deps.config, { pollMs: 20 });
  provider = (await t.loginAs({ role: 'provider' })).token;
  await labAccount(t, provider);
  base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
  // the lab's desktop: a VNC server's greeting, reached by the exec's socat
  vnc = createServer((s) => {
    s.write('RFB 003.008\n');
    s.on('data', (d) => s.write(Buffer.concat([Buffer.from('echo:'), d])));
  });
  await new Promise<void>((r) => vnc.listen(0, '127.0.0.1', r));
  const vncPort = (vnc.address() as { port: number }).port;
  fake.execCommand = (cmd) => cmd.map((a) => a.replace(/^TCP:127\.0\.0\.1:5901/, `TCP:127.0.0.1:${vncPort}`));
}, 120_000);
afterAll(async () => {
  await t.close();
  await fake.close();
  vnc.close();
  if (savedKubeconfig === undefined) delete process.env.KUBECONFIG;
  else process.env.KUBECONFIG = savedKubeconfig;
  rmSync(dir, { recursive: true, force: true });
});

type Rule = { apiGroups: string[]; resources: string[]; verbs: string[] };
const pod = (name: string) => fake.objects.get(`pods/${NS}/lab-${name}`);
const claim = (name: string) => fake.objects.get(`persistentvolumeclaims/${NS}/lab-${name}-home`);
const startStop = (action: 'start' | 'stop', name: string) => t.post('vm-start-stop', { action, name }, provider);
const sent = (method: string, resource: string, from = 0) =>
  fake.calls.slice(from).filter((c) => c.method === method && c.path.endsWith(`/${resource}`));
/** Waits, 20 ms at a time, until the text a socket received (`got`) passes `done` or the time `until` comes. */
async function receive(got: Buffer[], done: (text: string) => boolean, until: number) {
  while (!done(Buffer.concat(got).toString()) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
}

describe('LAB_PROVIDER=kubernetes', () => {
  it('is the configured engine, reached through KUBECONFIG with its token; /api/health names it ready', async () => {
    expect(await loadLabEngine(t.deps.config)).toBeInstanceOf(KubernetesLabs);
    expect(labNamespace(t.deps.config)).toBe(INSTALL);
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.json().labs).toMatchObject({ engine: 'kubernetes', ready: true });
    // how labs are held apart (the health page shows it where the server reports it)
    expect(await new KubernetesLabs(t.deps.config).isolation()).toEqual({
      namespace: NS,
      disk: 'volume',
      uid: 1_000_000,
      seccomp: 'RuntimeDefault',
      runtimeClass: null,
      network: 'none',
    });
    // the fake refuses a call without the kubeconfig's bearer token: the client sent it
    expect(fake.calls.some((c) => c.path === `/api/v1/namespaces/${NS}/pods`)).toBe(true);
  });

  it('create makes the home volume and the NetworkPolicy; every manifest passes the OpenAPI models', async () => {
    const from = fake.calls.length;
    const v = await makeVm(t, provider, { ram: 4, storage: 20 });
    const [policy] = sent('POST', 'networkpolicies', from);
    expect(policy!.body).toMatchObject({
      kind: 'NetworkPolicy',
      metadata: { name: 'trainlab-labs', labels: { [K8S_INSTALL_LABEL]: INSTALL } },
      spec: {
        podSelector: { matchLabels: { [K8S_INSTALL_LABEL]: INSTALL } },
        policyTypes: ['Ingress', 'Egress'],
        ingress: [],
        egress: [],
      },
    });
    expect(schemaErrors(policy!.body, 'V1NetworkPolicy')).toEqual([]);
    const [pvc] = sent('POST', 'persistentvolumeclaims', from);
    expect(pvc!.body).toEqual({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        name: `lab-${v.vm_name}-home`,
        labels: {
          [K8S_LAB_LABEL]: v.vm_name,
          [K8S_INSTALL_LABEL]: INSTALL,
          'app.kubernetes.io/managed-by': 'trainlab',
        },
      },
      spec: {
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: '20Gi' } },
        storageClassName: 'fast-ssd',
      },
    });
    expect(schemaErrors(pvc!.body, 'V1PersistentVolumeClaim')).toEqual([]);
    // a created lab holds no node: no pod until it starts
    expect(pod(v.vm_name)).toBeUndefined();
    expect(sent('POST', 'pods', from)).toEqual([]);
  });

  it('start sends a locked-down pod: limits from RAM and CPU, non-root, no escalation, no capabilities, read-only root, seccomp', async () => {
    const v = await makeVm(t, provider, { ram: 8 });
    const from = fake.calls.length;
    const res = await startStop('start', v.vm_name);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status).toBe(VM_STATUS.start);
    const [create] = sent('POST', 'pods', from);
    // biome-ignore lint/suspicious/noExplicitAny: the manifest is checked field by field
    const body = create!.body as Record<string, any>;
    expect(schemaErrors(body, 'V1Pod')).toEqual([]);
    const spec = body.spec;
    expect(spec).toMatchObject({
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      hostNetwork: false,
      hostPID: false,
      hostIPC: false,
      securityContext: {
        runAsNonRoot: true,
        runAsUser: 1_000_000,
        runAsGroup: 1_000_000,
        fsGroup: 1_000_000,
        seccompProfile: { type: 'RuntimeDefault' },
      },
    });
    expect(spec.runtimeClassName).toBeUndefined();
    const [c] = spec.containers;
    expect(c.image).toBe('registry.example.test/trainlab-lab:bookworm-2');
    expect(c.securityContext).toEqual({
      runAsNonRoot: true,
      runAsUser: 1_000_000,
      allowPrivilegeEscalation: false,
      privileged: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
    const limits = { memory: '8Gi', cpu: '1000m', 'ephemeral-storage': '512Mi' };
    expect(c.resources).toEqual({ requests: limits, limits });
    expect(spec.volumes[0]).toEqual({ name: 'home', persistentVolumeClaim: { claimName: `lab-${v.vm_name}-home` } });
    expect(spec.volumes.slice(1).map((x: { emptyDir: { sizeLimit: string } }) => x.emptyDir.sizeLimit)).toEqual([
      '256Mi',
      '64Mi',
      '16Mi',
    ]);
    // no Service, no port: nothing exposes a lab
    expect(c.ports).toBeUndefined();
    expect(fake.calls.some((x) => /services/.test(x.path))).toBe(false);
  });

  it('lives: start, stop (pod gone, home kept), start again (same home), delete (both gone); the meter follows', async () => {
    const v = await makeVm(t, provider);
    expect((await startStop('start', v.vm_name)).body.status).toBe(VM_STATUS.start);
    expect(pod(v.vm_name)?.status?.phase).toBe('Running');
    expect((await startStop('stop', v.vm_name)).body.status).toBe(VM_STATUS.stop);
    expect(pod(v.vm_name)).toBeUndefined();
    expect(claim(v.vm_name)).toBeDefined();
    expect(await new KubernetesLabs(t.deps.config).status(v.vm_name)).toBe('stopped');
    const from = fake.calls.length;
    expect((await startStop('start', v.vm_name)).body.status).toBe(VM_STATUS.start);
    expect(pod(v.vm_name)).toBeDefined();
    // the home volume was there: adopted, not made anew
    const again = sent('POST', 'persistentvolumeclaims', from);
    expect(again.length).toBeLessThanOrEqual(1);
    expect(claim(v.vm_name)?.metadata.uid).toBeDefined();
    const del = await t.post('vm-delete', { name: v.vm_name }, provider);
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(pod(v.vm_name)).toBeUndefined();
    expect(claim(v.vm_name)).toBeUndefined();
    expect(await new KubernetesLabs(t.deps.config).status(v.vm_name)).toBe('missing');
    const [row] = await t.deps.db.select().from(vms).where(eq(vms.vm_name, v.vm_name));
    const runs = await t.deps.db.select().from(vmUsages).where(eq(vmUsages.vm_id, row!.id));
    expect(runs).toHaveLength(2);
    expect(runs.every((r) => r.vm_stop)).toBe(true);
  });

  it('a lab the cluster cannot place waits with the scheduler’s reason, then the start gives up and removes the pod', async () => {
    const v = await makeVm(t, provider);
    fake.unschedulable = '0/3 nodes are available: 3 Insufficient memory.';
    try {
      const began = Date.now();
      const res = await startStop('start', v.vm_name);
      expect(res.status).toBe(422);
      expect(res.body.other_error[0]).toBe(
        `${WAITING_FOR_HOST} (0/3 nodes are available: 3 Insufficient memory.): none was free within 5 s. Try again later, or ask the operator to add lab hosts.`,
      );
      expect(Date.now() - began).toBeGreaterThanOrEqual(5000);
    } finally {
      fake.unschedulable = null;
    }
    // removed: it must not start later, unmetered
    expect(pod(v.vm_name)).toBeUndefined();
    const [row] = await t.deps.db.select().from(vms).where(eq(vms.vm_name, v.vm_name));
    expect(row!.status).toBe(VM_STATUS.create);
    // once there is room, the same lab starts
    expect((await startStop('start', v.vm_name)).body.status).toBe(VM_STATUS.start);
  }, 30_000);

  it('a node lost or a pod evicted: reconcile closes the meter, the next start makes the pod again with its home', async () => {
    const lost = await makeVm(t, provider);
    const evicted = await makeVm(t, provider);
    await startStop('start', lost.vm_name);
    await startStop('start', evicted.vm_name);
    fake.loseNode(NS, `lab-${lost.vm_name}`);
    fake.evict(NS, `lab-${evicted.vm_name}`);
    const engine = new KubernetesLabs(t.deps.config);
    expect(await engine.status(lost.vm_name)).toBe('stopped');
    expect(await engine.status(evicted.vm_name)).toBe('stopped');
    const { closed } = await reconcileLabs(t.deps);
    expect(closed).toBeGreaterThanOrEqual(2);
    for (const v of [lost, evicted]) {
      const [row] = await t.deps.db.select().from(vms).where(eq(vms.vm_name, v.vm_name));
      expect(row!.status).toBe(VM_STATUS.stop);
      const oldUid = pod(v.vm_name)?.metadata.uid;
      expect((await startStop('start', v.vm_name)).body.status).toBe(VM_STATUS.start);
      expect(pod(v.vm_name)?.metadata.uid).not.toBe(oldUid);
      expect(pod(v.vm_name)?.status?.phase).toBe('Running');
      expect(claim(v.vm_name)).toBeDefined();
    }
  });

  it('the terminal is a real shell through the API server’s exec (channel protocol), with the terminal’s size', async () => {
    const v = await makeVm(t, provider);
    await startStop('start', v.vm_name);
    // the lab page offers the terminal and the desktop (both come through our server)
    const page = await t.post('vm-connection', { name: v.vm_name }, provider);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body).toMatchObject({ terminal: true, desktop: true, rdp: false, problem: null });
    const resizes = fake.resizes.length;
    const sh = await labShell(base, v.vm_name, provider);
    expect(await sh.run('echo hello-$((40+2))-k8s')).toContain('hello-42-k8s');
    expect(await sh.run('echo kept > note.txt && cat note.txt')).toContain('kept');
    expect(await sh.run('export KEPT=$((6*7))')).toBeDefined();
    sh.close();
    // a reload gets the same shell back: the person's own tmux session in the lab
    const again = await labShell(base, v.vm_name, provider);
    expect(await again.run('echo kept-$KEPT')).toContain('kept-42');
    again.close();
    const exec = fake.calls.filter((c) => c.method === 'EXEC').at(-1)!;
    expect(exec.path).toContain(`/api/v1/namespaces/${NS}/pods/lab-${v.vm_name}/exec?`);
    expect(exec.path).toContain('tty=true');
    expect(exec.path).toContain('container=lab');
    expect(fake.execProtocols.at(-1)).toBe('v5.channel.k8s.io');
    expect(fake.resizes.slice(resizes)[0]).toEqual({ Width: 120, Height: 32 });
  }, 30_000);

  it('the desktop is the lab’s VNC through exec (socat), bytes both ways', async () => {
    const v = await makeVm(t, provider);
    await startStop('start', v.vm_name);
    const desk = await openLabSocket(base, 'vnc', v.vm_name, provider);
    const got: Buffer[] = [];
    desk.ws.on('message', (d) => got.push(d));
    const until = Date.now() + 10_000;
    await receive(got, (text) => text.startsWith('RFB 003.008\n'), until);
    expect(Buffer.concat(got).toString()).toBe('RFB 003.008\n');
    desk.ws.send(Buffer.from('RFB 003.008\n'));
    await receive(got, (text) => text.includes('echo:RFB'), until);
    expect(Buffer.concat(got).toString()).toContain('echo:RFB 003.008');
    const exec = fake.calls.filter((c) => c.method === 'EXEC').at(-1)!;
    expect(exec.path).toContain('tty=false');
    expect(decodeURIComponent(exec.path)).toContain('command=socat');
    desk.ws.close();
  }, 30_000);

  it('over the shoulder: a trainer of the training watches the learner’s desktop view-only, through exec', async () => {
    const p = await t.loginAs({ role: 'provider' });
    await labAccount(t, p.token);
    const training = await makeTraining(t, p.token);
    const tr = await t.loginAs({ role: 'trainer' });
    const assign = await t.post(
      'assign-trainers-to-training',
      { slug: training.slug, trainer_ids: [tr.user.id] },
      p.token,
    );
    expect(assign.status, JSON.stringify(assign.body)).toBe(200);
    const l = await t.loginAs({ role: 'provider_user', provider_id: p.user.id, first_name: 'Asha', last_name: 'Rao' });
    const who = person('k8s-watch', { first_name: 'Asha', last_name: 'Rao', email: l.user.email });
    expect((await t.post('lp/add-training-user', { ...who, slug: training.slug }, p.token)).status).toBe(200);
    const v = await makeVm(t, p.token);
    expect((await t.post('assign-vm-to-user', { ...who, name: v.vm_name }, p.token)).status).toBe(200);
    expect((await t.post('vm-start-stop', { action: 'start', name: v.vm_name }, p.token)).body.status).toBe(
      VM_STATUS.start,
    );
    const views = await t.post('training-lab-views', { slug: training.slug }, tr.token);
    expect(views.status, JSON.stringify(views.body)).toBe(200);
    const view = views.body.list.find((x: { vm_name: string }) => x.vm_name === v.vm_name);
    expect(view).toMatchObject({ desktop: true, view_path: `/ws/labs/vnc/${v.vm_name}?view=${training.slug}` });
    const execs = fake.calls.filter((c) => c.method === 'EXEC').length;
    const watch = await openLabSocket(base, 'vnc', `${v.vm_name}?view=${training.slug}`, tr.token);
    const got: Buffer[] = [];
    watch.ws.on('message', (d) => got.push(d));
    const until = Date.now() + 10_000;
    await receive(got, (text) => text.startsWith('RFB 003.008\n'), until);
    expect(Buffer.concat(got).toString()).toBe('RFB 003.008\n');
    expect(fake.calls.filter((c) => c.method === 'EXEC').length).toBe(execs + 1);
    watch.ws.close();
  }, 30_000);

  it('a stopped lab has no terminal (the socket closes), and the engine lists this install’s labs only', async () => {
    const v = await makeVm(t, provider);
    const closed = await openLabSocket(base, 'terminal', v.vm_name, provider);
    expect(await closeCode(closed.ws)).toBe(4409);
    // another install's lab in the same namespace is never listed (nor adopted, nor removed)
    fake.objects.set(`persistentvolumeclaims/${NS}/lab-other-home`, {
      metadata: { name: 'lab-other-home', labels: { [K8S_LAB_LABEL]: 'other-lab', [K8S_INSTALL_LABEL]: 'someone' } },
    });
    const listed = (await new KubernetesLabs(t.deps.config).listLabs())!.map((l) => l.ref);
    expect(listed).toContain(v.vm_name);
    expect(listed).not.toContain('other-lab');
  });

  it('the Role in deploy/kubernetes grants every call the engine made here, and its manifests pass the OpenAPI models', async () => {
    const file = path.resolve(import.meta.dirname, '../../../deploy/kubernetes/trainlab-labs.yaml');
    const docs = loadAllYaml(readFileSync(file, 'utf8')) as { kind: string; rules?: Rule[] }[];
    for (const doc of docs) expect(schemaErrors(doc, `V1${doc.kind}`)).toEqual([]);
    const role = docs.find((d) => d.kind === 'Role')!;
    // one whole life through the engine: every kind of call it makes
    const from = fake.calls.length;
    const config = { ...t.deps.config, LAB_K8S_QUOTA_PODS: 50 };
    const spec = { vmName: 'rbac-lab-1', username: 'u', password: 'p', image: 'ubuntu', ram: 2, storage: 5, zone: 'z' };
    // the first process writes the policy and quota, the next one finds them and writes them again
    await new KubernetesLabs(config).create(spec);
    const engine = new KubernetesLabs(config, { pollMs: 20 });
    await engine.create(spec);
    await engine.start('rbac-lab-1', spec);
    expect(await engine.status('rbac-lab-1')).toBe('running');
    await engine.listLabs();
    (await engine.openShell('rbac-lab-1', { cols: 80, rows: 24 }))?.close();
    await engine.stop('rbac-lab-1');
    expect(await engine.status('rbac-lab-1')).toBe('stopped');
    await engine.delete('rbac-lab-1');
    const needed = new Set<string>();
    for (const call of fake.calls.slice(from)) {
      const m = /^\/(?:api\/v1|apis\/([a-z0-9.]+)\/v1)\/namespaces\/[^/]+\/([a-z]+)(\/[^/?]+)?(\/exec)?/.exec(
        call.path,
      );
      if (!m) continue;
      const [, group = '', resource, item, exec] = m;
      const verb = exec
        ? 'create'
        : ({ POST: 'create', PUT: 'update', DELETE: 'delete', GET: item ? 'get' : 'list' } as Record<string, string>)[
            call.method
          ];
      needed.add(`${group}|${resource}${exec ? '/exec' : ''}|${verb}`);
    }
    expect([...needed].sort()).toEqual([
      'networking.k8s.io|networkpolicies|create',
      'networking.k8s.io|networkpolicies|update',
      '|persistentvolumeclaims|create',
      '|persistentvolumeclaims|delete',
      '|persistentvolumeclaims|get',
      '|persistentvolumeclaims|list',
      '|pods/exec|create',
      '|pods|create',
      '|pods|delete',
      '|pods|get',
      '|pods|list',
      '|resourcequotas|create',
      '|resourcequotas|update',
    ]);
    for (const need of needed) {
      const [group, resource, verb] = need.split('|');
      const granted = role.rules!.some(
        (r) => r.apiGroups.includes(group!) && r.resources.includes(resource!) && r.verbs.includes(verb!),
      );
      expect(granted, need).toBe(true);
    }
  });

  it('orphans: a lab of this install no record owns (a create cut short) is removed, its pod and home; others stay', async () => {
    const kept = await makeVm(t, provider);
    await startStop('start', kept.vm_name);
    const engine = new KubernetesLabs(t.deps.config, { pollMs: 20 });
    const stray = {
      vmName: 'stray-lab-1',
      username: 'u',
      password: 'p',
      image: 'ubuntu',
      ram: 2,
      storage: 5,
      zone: 'z',
    };
    await engine.create(stray);
    await engine.start('stray-lab-1', stray);
    fake.objects.set(`persistentvolumeclaims/${NS}/lab-foreign-1-home`, {
      metadata: {
        name: 'lab-foreign-1-home',
        labels: { [K8S_LAB_LABEL]: 'foreign-1', [K8S_INSTALL_LABEL]: 'another' },
      },
    });
    const { removed } = await reconcileOrphans(t.deps);
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(pod('stray-lab-1')).toBeUndefined();
    expect(claim('stray-lab-1')).toBeUndefined();
    expect(claim(kept.vm_name)).toBeDefined();
    expect(pod(kept.vm_name)?.status?.phase).toBe('Running');
    expect(fake.objects.has(`persistentvolumeclaims/${NS}/lab-foreign-1-home`)).toBe(true);
  });
});
