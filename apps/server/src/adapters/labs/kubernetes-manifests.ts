import type { V1NetworkPolicy, V1PersistentVolumeClaim, V1Pod, V1ResourceQuota } from '@kubernetes/client-node';
import type { Config } from '../../platform/config';
import type { LabSpec } from '../../platform/ports/labs';
import { LAB_HOME } from './container-image';
import { FENCED_RANGES } from './network-fence';

/**
 * What the Kubernetes engine asks the cluster for, as plain objects (types only from the client:
 * nothing here loads it). Tests check every one against the client's models, which are generated
 * from Kubernetes' published OpenAPI document.
 */

/** every object carries these labels: the lab's name and the install it belongs to */
export const K8S_LAB_LABEL = 'trainlab.org/lab';
export const K8S_INSTALL_LABEL = 'trainlab.org/install';
/** the install's one NetworkPolicy and its optional ResourceQuota */
export const K8S_POLICY_NAME = 'trainlab-labs';
export const K8S_QUOTA_NAME = 'trainlab-labs';
/** the lab's container in its pod */
export const K8S_CONTAINER = 'lab';

/** The private temporary folders of a read-only root: sizes as the container engine's tmpfs. */
const SCRATCH = [
  { name: 'tmp', mountPath: '/tmp', size: 256 },
  { name: 'var-tmp', mountPath: '/var/tmp', size: 64 },
  { name: 'run', mountPath: '/run', size: 16 },
];
/** the ephemeral storage a lab may use (its temporary folders, its log): the folders' sum and some room */
export const K8S_EPHEMERAL_MI = 512;

export type K8sSettings = Pick<
  Config,
  | 'LAB_CPUS'
  | 'LAB_INTERNET'
  | 'LAB_K8S_UID'
  | 'LAB_K8S_STORAGE_CLASS'
  | 'LAB_K8S_RUNTIME_CLASS'
  | 'LAB_K8S_SECCOMP_PROFILE'
  | 'LAB_K8S_BLOCKED_CIDRS'
  | 'LAB_K8S_QUOTA_PODS'
  | 'LAB_K8S_QUOTA_MEMORY_GB'
>;

export const podName = (ref: string) => `lab-${ref}`;
export const claimName = (ref: string) => `lab-${ref}-home`;
export const labLabels = (ref: string, install: string) => ({
  [K8S_LAB_LABEL]: ref,
  [K8S_INSTALL_LABEL]: install,
  'app.kubernetes.io/managed-by': 'trainlab',
});

/** The lab's home: the storage class enforces its size (the disk cap comes with the volume). */
export function homeClaim(ref: string, install: string, spec: LabSpec, s: K8sSettings): V1PersistentVolumeClaim {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: claimName(ref), labels: labLabels(ref, install) },
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: `${Math.max(1, spec.storage)}Gi` } },
      ...(s.LAB_K8S_STORAGE_CLASS ? { storageClassName: s.LAB_K8S_STORAGE_CLASS } : {}),
    },
  };
}

/**
 * The lab itself: requests equal to limits (the scheduler places it only where its RAM and CPU are
 * free, and nothing overcommits it), a non-root UID no node has, no privilege escalation, no
 * capabilities, a read-only root, seccomp, no service-account token, no host namespaces.
 */
export function labPod(ref: string, install: string, spec: LabSpec, image: string, s: K8sSettings): V1Pod {
  const seccompProfile = s.LAB_K8S_SECCOMP_PROFILE
    ? { type: 'Localhost', localhostProfile: s.LAB_K8S_SECCOMP_PROFILE }
    : { type: 'RuntimeDefault' };
  const resources = {
    memory: `${Math.max(1, spec.ram)}Gi`,
    cpu: `${Math.round(s.LAB_CPUS * 1000)}m`,
    'ephemeral-storage': `${K8S_EPHEMERAL_MI}Mi`,
  };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: podName(ref), labels: labLabels(ref, install) },
    spec: {
      hostname: ref.slice(0, 63),
      restartPolicy: 'Always',
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      hostNetwork: false,
      hostPID: false,
      hostIPC: false,
      terminationGracePeriodSeconds: 3,
      ...(s.LAB_K8S_RUNTIME_CLASS ? { runtimeClassName: s.LAB_K8S_RUNTIME_CLASS } : {}),
      securityContext: {
        runAsNonRoot: true,
        runAsUser: s.LAB_K8S_UID,
        runAsGroup: s.LAB_K8S_UID,
        // the home volume is the lab's group's, whatever UID the image was built with
        fsGroup: s.LAB_K8S_UID,
        fsGroupChangePolicy: 'OnRootMismatch',
        seccompProfile,
      },
      containers: [
        {
          name: K8S_CONTAINER,
          image,
          imagePullPolicy: 'IfNotPresent',
          workingDir: LAB_HOME,
          env: [
            { name: 'HOME', value: LAB_HOME },
            { name: 'USER', value: spec.username },
            { name: 'LANG', value: 'C.UTF-8' },
          ],
          resources: { requests: resources, limits: resources },
          securityContext: {
            runAsNonRoot: true,
            runAsUser: s.LAB_K8S_UID,
            allowPrivilegeEscalation: false,
            privileged: false,
            readOnlyRootFilesystem: true,
            capabilities: { drop: ['ALL'] },
            seccompProfile,
          },
          // ready once the desktop answers on the lab's own loopback (the image's script)
          readinessProbe: { exec: { command: ['trainlab-lab-ready'] }, periodSeconds: 2, timeoutSeconds: 2 },
          volumeMounts: [
            { name: 'home', mountPath: LAB_HOME },
            ...SCRATCH.map((d) => ({ name: d.name, mountPath: d.mountPath })),
          ],
        },
      ],
      volumes: [
        { name: 'home', persistentVolumeClaim: { claimName: claimName(ref) } },
        ...SCRATCH.map((d) => ({ name: d.name, emptyDir: { sizeLimit: `${d.size}Mi` } })),
      ],
    },
  };
}

/**
 * The install's NetworkPolicy: its labs get nothing in and, unless LAB_INTERNET, nothing out. With
 * the internet: egress to public addresses only, never the private, shared and link-local ranges
 * (cluster, nodes, a cloud's metadata service at 169.254.169.254) nor the ranges the operator adds;
 * and the cluster's DNS on port 53, or no name would resolve.
 */
export function labNetworkPolicy(install: string, s: K8sSettings): V1NetworkPolicy {
  const internet = s.LAB_INTERNET
    ? [
        {
          to: [
            { ipBlock: { cidr: '0.0.0.0/0', except: [...new Set([...FENCED_RANGES, ...s.LAB_K8S_BLOCKED_CIDRS])] } },
          ],
        },
        {
          to: [
            {
              namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } },
              podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } },
            },
          ],
          ports: [
            { protocol: 'UDP', port: 53 },
            { protocol: 'TCP', port: 53 },
          ],
        },
      ]
    : [];
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: K8S_POLICY_NAME, labels: { [K8S_INSTALL_LABEL]: install } },
    spec: {
      podSelector: { matchLabels: { [K8S_INSTALL_LABEL]: install } },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [],
      egress: internet,
    },
  };
}

/** The namespace's ceiling (pods, memory), when the operator sets one; null otherwise. */
export function labQuota(install: string, s: K8sSettings): V1ResourceQuota | null {
  if (s.LAB_K8S_QUOTA_PODS == null && s.LAB_K8S_QUOTA_MEMORY_GB == null) return null;
  const hard: Record<string, string> = {};
  if (s.LAB_K8S_QUOTA_PODS != null) hard.pods = String(s.LAB_K8S_QUOTA_PODS);
  if (s.LAB_K8S_QUOTA_MEMORY_GB != null) {
    hard['requests.memory'] = `${s.LAB_K8S_QUOTA_MEMORY_GB}Gi`;
    hard['limits.memory'] = `${s.LAB_K8S_QUOTA_MEMORY_GB}Gi`;
  }
  return {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name: K8S_QUOTA_NAME, labels: { [K8S_INSTALL_LABEL]: install } },
    spec: { hard },
  };
}
