import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { CoreV1Api, KubeConfig, NetworkingV1Api, type V1Pod } from '@kubernetes/client-node';
import { isWindows } from '@trainlab/contract';
import type { Config } from '../../platform/config';
import type { EngineLab, LabEndpoint, LabProvider, LabSpec, LabState, LabStream } from '../../platform/ports/labs';
import { LabEngineError } from '../../platform/ports/labs';
import { LAB_DESKTOP_PORT, LAB_HOME, softwareProblem } from './container-image';
import { shellCommand } from './container-streams';
import { openExec } from './kubernetes-exec';
import {
  claimName,
  homeClaim,
  K8S_CONTAINER,
  K8S_INSTALL_LABEL,
  K8S_LAB_LABEL,
  K8S_POLICY_NAME,
  K8S_QUOTA_NAME,
  labNetworkPolicy,
  labPod,
  labQuota,
  podName,
} from './kubernetes-manifests';
import { labNamespace } from './namespace';

const REF = /^[a-z0-9][a-z0-9-]{2,62}$/;
export const WAITING_FOR_HOST = 'Waiting for a free lab host';
export const K8S_WINDOWS_NOT_HERE =
  'Windows labs run on Google Compute Engine (LAB_PROVIDER=gce); the Kubernetes engine runs Linux labs.';

export interface KubernetesOptions {
  /** a ready configuration instead of KUBECONFIG's (tests) */
  kubeConfig?: KubeConfig;
  /** milliseconds between reads of a pod that is starting or going */
  pollMs?: number;
}

/** What a refused call says: the API's own Status message (never a request, header or token). */
const codeOf = (e: unknown) => (e as { code?: number }).code;
const notFound = (e: unknown) => codeOf(e) === 404;
const exists = (e: unknown) => codeOf(e) === 409;
function apiMessage(e: unknown): string {
  const body = (e as { body?: unknown }).body;
  let parsed: unknown = body;
  if (typeof body === 'string') {
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = null;
    }
  }
  const message = (parsed as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message.slice(0, 300) : '';
}
function engineError(e: unknown, doing: string): LabEngineError {
  if (e instanceof LabEngineError) return e;
  const code = codeOf(e);
  if (code === 401 || code === 403) {
    return new LabEngineError(
      `The Kubernetes cluster refused to ${doing}: the server's account lacks the Role in docs/operations.md ("Labs on Kubernetes").`,
    );
  }
  const said = apiMessage(e);
  if (code && said) return new LabEngineError(`The Kubernetes cluster refused to ${doing}: ${said}`);
  return new LabEngineError(`The Kubernetes cluster could not ${doing}. Try again.`);
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Labs as pods on a Kubernetes cluster (LAB_PROVIDER=kubernetes, decision 0055), through the kept
 * client configured as kubectl is (KUBECONFIG, ~/.kube/config) or by the pod's service account.
 * Per lab: a PersistentVolumeClaim for its home, made at create and kept across stop and start,
 * and while it runs a pod of the lab image (kubernetes-manifests.ts); a stopped lab holds no node.
 * One namespace per install, one NetworkPolicy for its labs, an optional ResourceQuota. The cluster
 * places labs: one it cannot place stays Pending and the start says why, then gives up and removes
 * the pod. Shell and desktop come through the API server's exec, never a Service or a port.
 */
export class KubernetesLabs implements LabProvider {
  readonly name = 'kubernetes' as const;
  private readonly install: string;
  private readonly namespace: string;
  private readonly pollMs: number;
  private kc: KubeConfig | null;
  private apis: { core: CoreV1Api; net: NetworkingV1Api } | null = null;
  private policyMade: Promise<void> | null = null;

  constructor(
    private readonly config: Config,
    options: KubernetesOptions = {},
  ) {
    this.install = labNamespace(config);
    this.namespace = config.LAB_K8S_NAMESPACE ?? `trainlab-${this.install}`;
    this.pollMs = options.pollMs ?? 1000;
    this.kc = options.kubeConfig ?? null;
  }

  /** The cluster as kubectl would find it; a missing or unsafe one is named, its content never quoted. */
  private kube(): KubeConfig {
    if (!this.kc) {
      const kc = new KubeConfig();
      const file = process.env.KUBECONFIG;
      const own = path.join(homedir(), '.kube', 'config');
      const inCluster = !!process.env.KUBERNETES_SERVICE_HOST;
      // without one of these the client would fall back to http://localhost:8080: never that
      if (!file && !existsSync(own) && !inCluster) {
        throw new LabEngineError(
          'LAB_PROVIDER=kubernetes needs a cluster: set KUBECONFIG to a kubeconfig file, or run the server in the cluster with its service account.',
        );
      }
      try {
        kc.loadFromDefault();
      } catch {
        throw new LabEngineError('The kubeconfig (KUBECONFIG) cannot be read.');
      }
      this.kc = kc;
    }
    const cluster = this.kc.getCurrentCluster();
    if (!cluster) throw new LabEngineError('The kubeconfig (KUBECONFIG) names no current cluster.');
    if (this.config.NODE_ENV === 'production') {
      if (cluster.skipTLSVerify) {
        throw new LabEngineError(
          "The kubeconfig skips verifying the cluster's certificate (insecure-skip-tls-verify): refused in production, where anyone on the way could take the server's token. Give the cluster's CA (certificate-authority-data) instead.",
        );
      }
      const url = new URL(cluster.server);
      const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
      if (url.protocol !== 'https:' && !loopback) {
        throw new LabEngineError(
          'The kubeconfig reaches the cluster over plain http: refused in production (the token would travel in clear). Use the https address.',
        );
      }
    }
    return this.kc;
  }

  /**
   * For the start-up's safety checks: the kubeconfig's own refusal in production (an unverified or
   * plain-http cluster), read from the file alone, without a call. A missing cluster is not one: labs
   * then say so, the rest of the product runs.
   */
  unsafeCluster(): string | null {
    try {
      this.kube();
      return null;
    } catch (e) {
      return e instanceof LabEngineError && /refused in production/.test(e.message) ? e.message : null;
    }
  }

  private api() {
    const kc = this.kube();
    this.apis ??= { core: kc.makeApiClient(CoreV1Api), net: kc.makeApiClient(NetworkingV1Api) };
    return this.apis;
  }

  private check(ref: string) {
    if (!REF.test(ref)) throw new LabEngineError('Invalid lab name.');
  }

  async problem(): Promise<string | null> {
    if (!this.config.LAB_K8S_IMAGE) {
      return 'LAB_PROVIDER=kubernetes needs LAB_K8S_IMAGE: the lab image in a registry the cluster pulls from (npm run lab-image, then push it).';
    }
    try {
      const { core } = this.api();
      await core.listNamespacedPod({ namespace: this.namespace, limit: 1 });
      return null;
    } catch (e) {
      if (e instanceof LabEngineError) return e.message;
      if (codeOf(e) === 401 || codeOf(e) === 403) return engineError(e, 'list the labs').message;
      const where = this.kc?.getCurrentCluster()?.server ?? 'the cluster';
      return `The Kubernetes lab engine cannot reach ${where}. Check KUBECONFIG and the cluster, or choose LAB_PROVIDER=container or memory.`;
    }
  }

  /** How labs are held apart, for /api/health: all of it is in the pod's manifest (no host to read). */
  async isolation(): Promise<Record<string, unknown> | null> {
    const c = this.config;
    return {
      namespace: this.namespace,
      // the storage class enforces the home's size: the claim is the lab's storage
      disk: 'volume',
      uid: c.LAB_K8S_UID,
      seccomp: c.LAB_K8S_SECCOMP_PROFILE ? `Localhost/${c.LAB_K8S_SECCOMP_PROFILE}` : 'RuntimeDefault',
      runtimeClass: c.LAB_K8S_RUNTIME_CLASS ?? null,
      network: c.LAB_INTERNET ? 'internet only' : 'none',
    };
  }

  /** The install's NetworkPolicy and ResourceQuota, written once per process (then kept as they are). */
  private ensurePolicy(): Promise<void> {
    this.policyMade ??= this.writePolicy().catch((e) => {
      this.policyMade = null;
      if (notFound(e)) {
        throw new LabEngineError(
          `The namespace ${this.namespace} does not exist: create it (docs/operations.md, "Labs on Kubernetes").`,
        );
      }
      throw engineError(e, "write the labs' network policy");
    });
    return this.policyMade;
  }
  private async writePolicy(): Promise<void> {
    const { core, net } = this.api();
    const namespace = this.namespace;
    const policy = labNetworkPolicy(this.install, this.config);
    try {
      await net.createNamespacedNetworkPolicy({ namespace, body: policy });
    } catch (e) {
      if (!exists(e)) throw e;
      await net.replaceNamespacedNetworkPolicy({ name: K8S_POLICY_NAME, namespace, body: policy });
    }
    const quota = labQuota(this.install, this.config);
    if (!quota) return;
    try {
      await core.createNamespacedResourceQuota({ namespace, body: quota });
    } catch (e) {
      if (!exists(e)) throw e;
      await core.replaceNamespacedResourceQuota({ name: K8S_QUOTA_NAME, namespace, body: quota });
    }
  }

  /** The lab's home volume (adopted when an interrupted call made it already). */
  private async makeHome(ref: string, spec: LabSpec): Promise<void> {
    if (isWindows(spec.image)) throw new LabEngineError(K8S_WINDOWS_NOT_HERE);
    const refused = softwareProblem(spec.softwares ?? '');
    if (refused) throw new LabEngineError(refused);
    await this.ensurePolicy();
    try {
      await this.api().core.createNamespacedPersistentVolumeClaim({
        namespace: this.namespace,
        body: homeClaim(ref, this.install, spec, this.config),
      });
    } catch (e) {
      if (!exists(e)) throw engineError(e, "make the lab's home volume");
    }
  }

  async create(spec: LabSpec): Promise<{ ref: string }> {
    this.check(spec.vmName);
    const problem = await this.problem();
    if (problem) throw new LabEngineError(problem);
    await this.makeHome(spec.vmName, spec);
    return { ref: spec.vmName };
  }

  private async readPod(ref: string): Promise<V1Pod | null> {
    try {
      return await this.api().core.readNamespacedPod({ name: podName(ref), namespace: this.namespace });
    } catch (e) {
      if (notFound(e)) return null;
      throw engineError(e, 'read the lab');
    }
  }

  /** Removes the pod and waits until it is gone (a new one of the same name cannot be made before). */
  private async removePod(ref: string, waitMs: number): Promise<void> {
    try {
      await this.api().core.deleteNamespacedPod({
        name: podName(ref),
        namespace: this.namespace,
        gracePeriodSeconds: 3,
      });
    } catch (e) {
      if (!notFound(e)) throw engineError(e, 'stop the lab');
    }
    const until = Date.now() + waitMs;
    while ((await this.readPod(ref)) && Date.now() < until) await sleep(this.pollMs);
  }

  /**
   * Starts a lab: its pod made again from its record (a pod that ended, was evicted or lost its
   * node is replaced; the home volume follows it where its storage allows), then waited for until
   * its desktop answers. While the cluster cannot place it, the scheduler's reason is kept; at the
   * deadline the pod is removed (it must not start later, unmetered) and the start says why.
   */
  async start(ref: string, spec: LabSpec): Promise<void> {
    this.check(ref);
    const problem = await this.problem();
    if (problem) throw new LabEngineError(problem);
    const timeoutMs = this.config.LAB_K8S_START_TIMEOUT_SECONDS * 1000;
    let pod = await this.readPod(ref);
    const phase = pod?.status?.phase;
    if (
      pod &&
      (pod.metadata?.deletionTimestamp || phase === 'Failed' || phase === 'Succeeded' || phase === 'Unknown')
    ) {
      await this.removePod(ref, timeoutMs);
      pod = null;
    }
    if (!pod) {
      await this.makeHome(ref, spec);
      try {
        await this.api().core.createNamespacedPod({
          namespace: this.namespace,
          body: labPod(ref, this.install, spec, this.config.LAB_K8S_IMAGE!, this.config),
        });
      } catch (e) {
        if (!exists(e)) throw engineError(e, 'start the lab');
      }
    }
    const waited = await this.waitReady(ref, timeoutMs);
    if (waited === true) return;
    await this.removePod(ref, 10_000).catch(() => undefined);
    throw new LabEngineError(waited);
  }

  /** true once the pod runs and is ready, else why not (by the deadline, or at once when it cannot). */
  private async waitReady(ref: string, ms: number): Promise<true | string> {
    const until = Date.now() + ms;
    const seconds = Math.round(ms / 1000);
    let last = `The lab did not start within ${seconds} s.`;
    for (;;) {
      const pod = await this.readPod(ref);
      if (!pod) return 'The lab was removed while it started.';
      const status = pod.status ?? {};
      const ready = status.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
      if (status.phase === 'Running' && ready) return true;
      if (status.phase === 'Failed' || status.phase === 'Succeeded') {
        return `The lab stopped while it started${status.reason ? ` (${status.reason})` : ''}. Try again.`;
      }
      const unplaced = status.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
      const waiting = status.containerStatuses?.find((c) => c.state?.waiting)?.state?.waiting;
      if (unplaced) {
        const reason = unplaced.message || unplaced.reason || 'no node has room';
        last = `${WAITING_FOR_HOST} (${reason}): none was free within ${seconds} s. Try again later, or ask the operator to add lab hosts.`;
      } else if (waiting && ['ErrImagePull', 'ImagePullBackOff', 'InvalidImageName'].includes(waiting.reason ?? '')) {
        return `The cluster cannot pull the lab image ${this.config.LAB_K8S_IMAGE} (${waiting.reason}): check LAB_K8S_IMAGE and the registry.`;
      } else if (status.phase === 'Running') {
        last = `The lab desktop did not start within ${seconds} s.`;
      }
      if (Date.now() >= until) return last;
      await sleep(this.pollMs);
    }
  }

  /** Stopping removes the pod; the home volume stays for the next start. */
  async stop(ref: string): Promise<void> {
    this.check(ref);
    await this.removePod(ref, 30_000);
  }

  async delete(ref: string): Promise<void> {
    this.check(ref);
    await this.removePod(ref, 30_000);
    try {
      await this.api().core.deleteNamespacedPersistentVolumeClaim({ name: claimName(ref), namespace: this.namespace });
    } catch (e) {
      if (!notFound(e)) throw engineError(e, "delete the lab's home");
    }
  }

  /**
   * running: its pod runs (ready or not: it holds a node and is metered); stopped: no pod, or one
   * that ended, was evicted, lost its node or is going, while its home is kept; missing: neither.
   */
  async status(ref: string): Promise<LabState> {
    this.check(ref);
    const pod = await this.readPod(ref);
    if (pod && !pod.metadata?.deletionTimestamp && pod.status?.phase === 'Running') return 'running';
    if (pod) return 'stopped';
    try {
      await this.api().core.readNamespacedPersistentVolumeClaim({ name: claimName(ref), namespace: this.namespace });
      return 'stopped';
    } catch (e) {
      if (notFound(e)) return 'missing';
      throw engineError(e, "read the lab's home");
    }
  }

  /** No address: the shell and desktop come through the API server's exec while the pod runs. */
  async connection(ref: string): Promise<LabEndpoint> {
    const running = (await this.status(ref)) === 'running';
    return { viaEngine: { shell: running, desktop: running } };
  }

  private where(ref: string) {
    return { namespace: this.namespace, pod: podName(ref), container: K8S_CONTAINER };
  }

  /**
   * The person's own tmux session in the lab, as on the container engine (a reload attaches to it
   * again). Closing the exec's WebSocket ends its process: the runtime closes the TTY (a hang-up).
   */
  async openShell(ref: string, size: { cols: number; rows: number }, session?: string): Promise<LabStream | null> {
    this.check(ref);
    const opened = await openExec(
      this.kube(),
      this.where(ref),
      ['env', 'TERM=xterm-256color', `HOME=${LAB_HOME}`, ...shellCommand(session)],
      true,
    );
    await opened.resize?.(size.cols, size.rows);
    return opened;
  }

  async openDesktop(ref: string): Promise<LabStream | null> {
    this.check(ref);
    // socat joins the exec's stdin and stdout to the VNC server on the lab's own loopback
    return openExec(
      this.kube(),
      this.where(ref),
      ['socat', 'STDIO', `TCP:127.0.0.1:${LAB_DESKTOP_PORT},nodelay`],
      false,
    );
  }

  /** Every lab of this install: its home volumes and its pods (a lab between the two is still one). */
  async listLabs(): Promise<EngineLab[] | null> {
    const { core } = this.api();
    const labelSelector = `${K8S_LAB_LABEL},${K8S_INSTALL_LABEL}=${this.install}`;
    const [claims, pods] = await Promise.all([
      core.listNamespacedPersistentVolumeClaim({ namespace: this.namespace, labelSelector }),
      core.listNamespacedPod({ namespace: this.namespace, labelSelector }),
    ]);
    const refs = new Set<string>();
    for (const item of [...claims.items, ...pods.items]) {
      const ref = item.metadata?.labels?.[K8S_LAB_LABEL];
      if (ref && REF.test(ref)) refs.add(ref);
    }
    return [...refs].map((ref) => ({ ref, vmName: ref }));
  }
}
