import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubernetesLabs } from '../src/adapters/labs/kubernetes';
import { labNetworkPolicy, labPod, labQuota } from '../src/adapters/labs/kubernetes-manifests';
import { ConfigError, loadConfig } from '../src/platform/config';
import { LabEngineError } from '../src/platform/ports/labs';
import { startupVerdict } from '../src/startup-verdict';
import { createTestApp } from './helpers';
import { type KubeFake, startKubeFake } from './support/kube-fake';
import { schemaErrors } from './support/kube-schema';

/**
 * The Kubernetes engine's settings and what an attacker would try first: names that leave the
 * namespace or add labels, an unsafe kubeconfig in production, a wrong token; the optional
 * manifests (internet egress, a Localhost seccomp profile, a RuntimeClass, a ResourceQuota)
 * checked against the client's OpenAPI models.
 */
const PORT = 3701;
const NS = 'trainlab-k8s-settings';
const dir = mkdtempSync(path.join(tmpdir(), 'tl-k8s-settings-'));
let fake: KubeFake;

beforeAll(async () => {
  fake = await startKubeFake(PORT, [NS]);
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

const settings = (over: Record<string, string> = {}) =>
  loadConfig({
    NODE_ENV: 'test',
    LAB_PROVIDER: 'kubernetes',
    LAB_NAMESPACE: 'settings',
    LAB_K8S_NAMESPACE: NS,
    LAB_K8S_IMAGE: 'registry.example.test/trainlab-lab:bookworm-2',
    LAB_K8S_START_TIMEOUT_SECONDS: '5',
    ...over,
  });
const kubeFrom = (file: string) => {
  const kc = new KubeConfig();
  kc.loadFromFile(file);
  return kc;
};
const spec = (vmName: string) => ({
  vmName,
  username: 'lab',
  password: 'x',
  image: 'ubuntu',
  ram: 2,
  storage: 10,
  zone: 'z',
  softwares: '',
});
// biome-ignore lint/suspicious/noExplicitAny: manifests are read field by field as JSON
const json = (manifest: unknown): any => JSON.parse(JSON.stringify(manifest));
const refused = (config: Record<string, string>) => {
  try {
    settings(config);
    return null;
  } catch (e) {
    return e instanceof ConfigError ? e.message : String(e);
  }
};

describe('Kubernetes engine settings', () => {
  it('reads the cluster from KUBECONFIG as kubectl does; without one it names what to set, never localhost:8080', async () => {
    const saved = {
      KUBECONFIG: process.env.KUBECONFIG,
      HOME: process.env.HOME,
      K: process.env.KUBERNETES_SERVICE_HOST,
    };
    try {
      process.env.KUBECONFIG = fake.kubeconfig(dir);
      expect(await new KubernetesLabs(settings(), { pollMs: 10 }).problem()).toBeNull();

      delete process.env.KUBECONFIG;
      delete process.env.KUBERNETES_SERVICE_HOST;
      process.env.HOME = dir; // no ~/.kube/config here
      const from = fake.calls.length;
      expect(await new KubernetesLabs(settings()).problem()).toMatch(/needs a cluster: set KUBECONFIG/);
      expect(fake.calls.length).toBe(from);

      const broken = path.join(dir, 'broken.yaml');
      writeFileSync(broken, 'clusters: [ {{ token: secret-token-part');
      process.env.KUBECONFIG = broken;
      const problem = (await new KubernetesLabs(settings()).problem()) ?? '';
      expect(problem).toMatch(/KUBECONFIG/);
      expect(problem).not.toMatch(/secret-token-part/);
    } finally {
      for (const [k, v] of Object.entries({
        KUBECONFIG: saved.KUBECONFIG,
        HOME: saved.HOME,
        KUBERNETES_SERVICE_HOST: saved.K,
      })) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it('needs LAB_K8S_IMAGE; a wrong token is named as missing rights, the token never shown', async () => {
    const kc = kubeFrom(fake.kubeconfig(dir));
    const noImage = new KubernetesLabs(settings({ LAB_K8S_IMAGE: '' }), { kubeConfig: kc });
    expect(await noImage.problem()).toMatch(/LAB_K8S_IMAGE/);
    const wrong = kubeFrom(fake.kubeconfig(path.join(dir), { token: 'stolen-or-stale-token' }));
    const problem = (await new KubernetesLabs(settings(), { kubeConfig: wrong }).problem()) ?? '';
    expect(problem).toMatch(/lacks the Role/);
    expect(problem).not.toMatch(/stolen|token/i);
  });

  it('production refuses a kubeconfig that skips verifying the cluster certificate; the refusal sends nothing', async () => {
    const insecure = kubeFrom(fake.kubeconfig(dir, { skipTls: true }));
    const from = fake.calls.length;
    const prod = new KubernetesLabs({ ...settings(), NODE_ENV: 'production' as const }, { kubeConfig: insecure });
    expect(await prod.problem()).toMatch(/insecure-skip-tls-verify\): refused in production/);
    await expect(prod.start('lab-aaa-1', spec('lab-aaa-1'))).rejects.toThrow(/refused in production/);
    expect(fake.calls.length).toBe(from);
    // outside production the same kubeconfig works (a development cluster)
    expect(await new KubernetesLabs(settings(), { kubeConfig: insecure }).problem()).toBeNull();
  });

  it('a production server on such a kubeconfig refuses to start, naming it', async () => {
    const saved = process.env.KUBECONFIG;
    const t = await createTestApp({ LAB_PROVIDER: 'kubernetes', LAB_K8S_NAMESPACE: NS });
    try {
      const production = { ...t.deps.config, NODE_ENV: 'production' as const };
      process.env.KUBECONFIG = fake.kubeconfig(path.join(dir), { skipTls: true });
      const from = fake.calls.length;
      const { refusals } = await startupVerdict(production, t.deps.db, t.deps.secrets);
      expect(refusals).toContainEqual(expect.stringMatching(/insecure-skip-tls-verify\): refused in production/));
      expect(fake.calls.length).toBe(from);
      // a kubeconfig with the cluster's CA: no refusal of this kind
      process.env.KUBECONFIG = fake.kubeconfig(dir);
      const verified = await startupVerdict(production, t.deps.db, t.deps.secrets);
      expect(verified.refusals.filter((r) => /kubeconfig/.test(r))).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = saved;
      await t.close();
    }
  });

  it('a lab name that leaves the namespace or adds labels is refused before any call', async () => {
    const engine = new KubernetesLabs(settings(), { kubeConfig: kubeFrom(fake.kubeconfig(dir)), pollMs: 10 });
    const from = fake.calls.length;
    for (const name of [
      '../../kube-system/pods/x',
      'lab/../../../api/v1/namespaces/kube-system',
      'abc,trainlab.org/install=other',
      'abc?labelSelector=x',
      'ABC-upper',
      'a'.repeat(64),
    ]) {
      await expect(engine.create(spec(name))).rejects.toThrow(new LabEngineError('Invalid lab name.'));
      await expect(engine.start(name, spec(name))).rejects.toThrow('Invalid lab name.');
      await expect(engine.delete(name)).rejects.toThrow('Invalid lab name.');
      await expect(engine.openShell(name, { cols: 80, rows: 24 })).rejects.toThrow('Invalid lab name.');
    }
    expect(fake.calls.length).toBe(from);
    // the longest name there is (63) is a lab's
    expect((await engine.create(spec('a'.repeat(63)))).ref).toBe('a'.repeat(63));
  });

  it('the namespace, the install, the UID and the seccomp profile cannot be bent by a setting', () => {
    expect(refused({ LAB_K8S_NAMESPACE: 'kube-system/../x' })).toMatch(/LAB_K8S_NAMESPACE/);
    expect(refused({ LAB_K8S_NAMESPACE: 'a'.repeat(63) })).toBeNull();
    expect(refused({ LAB_K8S_NAMESPACE: 'a'.repeat(64) })).toMatch(/LAB_K8S_NAMESPACE/);
    expect(refused({ LAB_NAMESPACE: 'x,trainlab.org/lab' })).toMatch(/LAB_NAMESPACE/);
    // never root, never a system account: 1000 at the least
    expect(refused({ LAB_K8S_UID: '1000' })).toBeNull();
    expect(refused({ LAB_K8S_UID: '999' })).toMatch(/LAB_K8S_UID/);
    expect(refused({ LAB_K8S_UID: '0' })).toMatch(/LAB_K8S_UID/);
    expect(refused({ LAB_K8S_SECCOMP_PROFILE: '../../etc/passwd' })).toMatch(/LAB_K8S_SECCOMP_PROFILE/);
    expect(refused({ LAB_K8S_SECCOMP_PROFILE: '/abs/profile.json' })).toMatch(/LAB_K8S_SECCOMP_PROFILE/);
    expect(refused({ LAB_K8S_BLOCKED_CIDRS: '203.0.113.0/24, 198.51.100.7/32' })).toBeNull();
    expect(refused({ LAB_K8S_BLOCKED_CIDRS: '203.0.113.0/33' })).toMatch(/LAB_K8S_BLOCKED_CIDRS/);
    expect(refused({ LAB_K8S_START_TIMEOUT_SECONDS: '5' })).toBeNull();
    expect(refused({ LAB_K8S_START_TIMEOUT_SECONDS: '4' })).toMatch(/LAB_K8S_START_TIMEOUT_SECONDS/);
    expect(refused({ LAB_K8S_IMAGE: 'registry.example.test/lab:1 --privileged' })).toMatch(/LAB_K8S_IMAGE/);
  });

  it('with the internet: egress to public addresses only (cluster, nodes, metadata and the operator’s ranges excluded), and DNS', () => {
    const c = settings({ LAB_INTERNET: 'true', LAB_K8S_BLOCKED_CIDRS: '203.0.113.0/24' });
    const policy = labNetworkPolicy('settings', c);
    expect(schemaErrors(policy, 'V1NetworkPolicy')).toEqual([]);
    const [internet, dns] = json(policy).spec.egress;
    const except = internet.to[0].ipBlock.except;
    for (const range of [
      '10.0.0.0/8',
      '172.16.0.0/12',
      '192.168.0.0/16',
      '100.64.0.0/10',
      '169.254.0.0/16',
      '203.0.113.0/24',
    ])
      expect(except).toContain(range);
    expect(internet.to[0].ipBlock.cidr).toBe('0.0.0.0/0');
    expect(dns.ports).toEqual([
      { protocol: 'UDP', port: 53 },
      { protocol: 'TCP', port: 53 },
    ]);
    expect(json(policy).spec.ingress).toEqual([]);
  });

  it('a Localhost seccomp profile, a RuntimeClass, another UID and a namespace quota go into the manifests as set', () => {
    const c = settings({
      LAB_K8S_SECCOMP_PROFILE: 'profiles/trainlab-lab.json',
      LAB_K8S_RUNTIME_CLASS: 'gvisor',
      LAB_K8S_UID: '424242',
      LAB_CPUS: '1.5',
      LAB_K8S_QUOTA_PODS: '300',
      LAB_K8S_QUOTA_MEMORY_GB: '1200',
    });
    const pod = json(labPod('lab-abc-1', 'settings', spec('lab-abc-1'), c.LAB_K8S_IMAGE ?? '', c));
    expect(schemaErrors(pod, 'V1Pod')).toEqual([]);
    expect(pod.spec.runtimeClassName).toBe('gvisor');
    expect(pod.spec.securityContext.seccompProfile).toEqual({
      type: 'Localhost',
      localhostProfile: 'profiles/trainlab-lab.json',
    });
    expect(pod.spec.securityContext.runAsUser).toBe(424242);
    expect(pod.spec.containers[0].resources.limits.cpu).toBe('1500m');
    const quota = json(labQuota('settings', c));
    expect(schemaErrors(quota, 'V1ResourceQuota')).toEqual([]);
    expect(quota.spec.hard).toEqual({ pods: '300', 'requests.memory': '1200Gi', 'limits.memory': '1200Gi' });
    expect(labQuota('settings', settings())).toBeNull();
  });

  it('the model check fails a manifest with a field Kubernetes does not have, a wrong type or a missing required field', () => {
    const c = settings();
    const pod = labPod('lab-abc-1', 'settings', spec('lab-abc-1'), c.LAB_K8S_IMAGE!, c) as unknown as {
      spec: { containers: Record<string, unknown>[]; securityContext: Record<string, unknown> };
    };
    pod.spec.containers[0]!.securityContextt = {};
    pod.spec.securityContext.runAsUser = '1000';
    delete pod.spec.containers[0]!.name;
    expect(schemaErrors(pod, 'V1Pod').sort()).toEqual([
      'V1Pod.spec.containers[0].name: required by V1Container',
      'V1Pod.spec.containers[0].securityContextt: no such field in V1Container',
      'V1Pod.spec.securityContext.runAsUser: must be a number',
    ]);
  });

  it('a namespace that does not exist is named at the first create, with where to read how to make it', async () => {
    const engine = new KubernetesLabs(settings({ LAB_K8S_NAMESPACE: 'trainlab-missing' }), {
      kubeConfig: kubeFrom(fake.kubeconfig(dir)),
    });
    await expect(engine.create(spec('lab-abc-2'))).rejects.toThrow(
      'The namespace trainlab-missing does not exist: create it (docs/operations.md, "Labs on Kubernetes").',
    );
  });

  it('exec keeps flow control: a reader that stops reading pauses the lab, and every byte comes after', async () => {
    const engine = new KubernetesLabs(settings(), { kubeConfig: kubeFrom(fake.kubeconfig(dir)), pollMs: 10 });
    await engine.create(spec('lab-flow-1'));
    await engine.start('lab-flow-1', spec('lab-flow-1'));
    const SIZE = 20_000_000;
    const plain = fake.execCommand;
    // the "desktop" pours 20 MB as fast as it can
    fake.execCommand = () => ['head', '-c', String(SIZE), '/dev/zero'];
    try {
      const opened = (await engine.openDesktop('lab-flow-1'))!;
      await new Promise((r) => setTimeout(r, 1500));
      // nobody read: what waits in the server is a window, not the 20 MB
      expect(opened.stream.readableLength).toBeLessThan(1024 * 1024);
      let got = 0;
      opened.stream.on('data', (c: Buffer) => {
        got += c.length;
      });
      await new Promise((resolve) => opened.stream.once('end', resolve));
      expect(got).toBe(SIZE);
      opened.close();
    } finally {
      fake.execCommand = plain;
    }
  }, 30_000);

  it('an image the cluster cannot pull fails the start at once, naming the image', async () => {
    const engine = new KubernetesLabs(settings(), { kubeConfig: kubeFrom(fake.kubeconfig(dir)), pollMs: 10 });
    await engine.create(spec('lab-pull-1'));
    // the kubelet reports the pull failing
    fake.pullFails = 'ImagePullBackOff';
    const started = engine.start('lab-pull-1', spec('lab-pull-1')).finally(() => {
      fake.pullFails = null;
    });
    await expect(started).rejects.toThrow(
      'The cluster cannot pull the lab image registry.example.test/trainlab-lab:bookworm-2 (ImagePullBackOff): check LAB_K8S_IMAGE and the registry.',
    );
    expect(fake.objects.get(`pods/${NS}/lab-lab-pull-1`)).toBeUndefined();
  });
});
