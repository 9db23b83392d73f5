import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { InstancesClient, ZoneOperationsClient } from '@google-cloud/compute';
import { isWindows } from '@trainlab/contract';
import { JWT } from 'google-auth-library';
import type { Config } from '../../platform/config';
import type { EngineLab, LabEndpoint, LabProvider, LabSpec, LabState } from '../../platform/ports/labs';
import { LabEngineError } from '../../platform/ports/labs';
import { sha512Crypt } from './gce-crypt';
import { labNamespace } from './namespace';

/** machine types by the form's RAM (GB): E2 shapes, the cheapest with at least that memory */
export const GCE_MACHINE_TYPES: Record<number, string> = {
  2: 'e2-small',
  4: 'e2-medium',
  8: 'e2-standard-2',
  16: 'e2-standard-4',
  32: 'e2-standard-8',
};
/** public image families by the form's OS: Windows is reached over RDP, the others over SSH */
export const GCE_IMAGES: Record<string, string> = {
  windows: 'projects/windows-cloud/global/images/family/windows-2022',
  ubuntu: 'projects/ubuntu-os-cloud/global/images/family/ubuntu-2204-lts',
};
/** network tags a firewall rule opens to our server (docs/operations.md) */
export const GCE_TAGS = { ssh: 'trainlab-ssh', rdp: 'trainlab-rdp' } as const;

interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  project_id?: string;
}

export interface GceOptions {
  /** milliseconds between polls of a long-running zone operation */
  pollMs?: number;
  /** how long an operation may run before the engine gives up waiting */
  timeoutMs?: number;
}

/** What a failed call says, reduced to what is safe to show (never a credential or a request). */
interface ApiError {
  code?: number | string;
  message?: string;
  details?: string;
  reason?: string;
}
const NOT_FOUND = 5;
const statusOf = (e: unknown) => (e as ApiError)?.code;
/**
 * The connection closed under the request (a kept-alive socket the API had just closed, a reset on
 * the way): the request may not have arrived. Sent again with the same requestId, the API does it
 * at most once.
 */
const RESET = /ECONNRESET|EPIPE|socket hang up/i;
const connectionLost = (e: unknown) => {
  for (let cur = e, depth = 0; cur && depth < 4; cur = (cur as { cause?: unknown }).cause, depth++) {
    const { code, message } = cur as { code?: unknown; message?: unknown };
    if (RESET.test(String(code ?? '')) || RESET.test(String(message ?? ''))) return true;
  }
  return false;
};
/** `send` once more when the connection was lost under it (a read, or a change with its requestId). */
const onceMoreIfLost = <R>(send: () => Promise<R>): Promise<R> =>
  send().catch((e: unknown) => {
    if (connectionLost(e)) return send();
    throw e;
  });
const isNotFound = (e: unknown) => {
  const code = statusOf(e);
  return code === NOT_FOUND || code === 404 || /\bnot ?found\b/i.test(String((e as ApiError)?.message ?? ''));
};
function engineError(e: unknown, doing: string): LabEngineError {
  if (e instanceof LabEngineError) return e;
  const text = `${(e as ApiError)?.message ?? ''} ${(e as ApiError)?.details ?? ''} ${(e as ApiError)?.reason ?? ''}`;
  if (/quota/i.test(text)) {
    return new LabEngineError(
      `Google Compute Engine refused to ${doing}: the project's quota is used up (${quotaName(text)}). Stop or delete other VMs, or raise the quota in the Google Cloud console.`,
    );
  }
  if (isNotFound(e)) return new LabEngineError('The machine no longer exists in Google Compute Engine.');
  const code = statusOf(e);
  if (code === 7 || code === 16 || code === 403 || code === 401) {
    return new LabEngineError(
      `Google Compute Engine refused to ${doing}: the service account is not allowed to (check its roles and GCE_PROJECT).`,
    );
  }
  return new LabEngineError(`Google Compute Engine could not ${doing}. Try again.`);
}
/** the quota's own name (e.g. CPUS) when the answer gives one: never more of the answer */
function quotaName(text: string): string {
  const m = /Quota '([A-Z0-9_]+)'/.exec(text);
  return m ? `quota ${m[1]}` : 'quota exceeded';
}

/**
 * Labs as Google Compute Engine instances (LAB_PROVIDER=gce), through the official client on its
 * REST transport. The service-account key (GCE_KEY_FILE) signs the client's own short-lived
 * tokens; it is read here and nowhere else, and no message of this engine repeats it or a
 * request. The engine's reference is `zone/name`, so stop, delete and status need no record.
 * The lab's login is made by the machine's start-up script: on Linux from a SHA-512 crypt hash
 * of the password (the password itself never leaves our server), on Windows by a one-time
 * specialize script (decision 0025 says why and what that costs).
 */
export const HOST_KEY_PENDING = 'The VM has not published its SSH host key yet. Try again in a minute.';

export class GceLabs implements LabProvider {
  readonly name = 'gce' as const;
  private clients: { instances: InstancesClient; operations: ZoneOperationsClient; project: string } | null = null;
  private readonly pollMs: number;
  private readonly timeoutMs: number;
  private readonly ns: string;

  constructor(
    private readonly config: Pick<Config, 'GCE_KEY_FILE' | 'GCE_PROJECT' | 'GCE_API_ENDPOINT'> &
      Partial<Pick<Config, 'LAB_NAMESPACE' | 'DATABASE_URL' | 'DATA_DIR'>>,
    options: GceOptions = {},
  ) {
    this.ns = labNamespace({ DATA_DIR: './data', ...config });
    this.pollMs = options.pollMs ?? 2000;
    this.timeoutMs = options.timeoutMs ?? 10 * 60_000;
  }

  async problem(): Promise<string | null> {
    try {
      this.client();
      return null;
    } catch (e) {
      return e instanceof LabEngineError ? e.message : 'The Google Compute Engine lab engine is not configured.';
    }
  }

  /** Reads the key once; every problem is named without quoting the file. */
  private client() {
    if (this.clients) return this.clients;
    const file = this.config.GCE_KEY_FILE;
    if (!file) throw new LabEngineError('LAB_PROVIDER=gce needs GCE_KEY_FILE: the path of a service-account key file.');
    let key: ServiceAccountKey;
    try {
      key = JSON.parse(readFileSync(file, 'utf8')) as ServiceAccountKey;
    } catch {
      throw new LabEngineError('GCE_KEY_FILE cannot be read as a service-account key file (JSON).');
    }
    if (typeof key.client_email !== 'string' || typeof key.private_key !== 'string') {
      throw new LabEngineError('GCE_KEY_FILE is not a service-account key (client_email and private_key are needed).');
    }
    const project = this.config.GCE_PROJECT ?? key.project_id;
    if (!project) throw new LabEngineError('Set GCE_PROJECT: the key file names no project.');
    const endpoint = this.config.GCE_API_ENDPOINT ? new URL(this.config.GCE_API_ENDPOINT) : null;
    const options = {
      fallback: true,
      // no scopes: the client signs its own short-lived token for the API (a self-signed JWT)
      // instead of asking Google's token endpoint, wherever the API is reached
      authClient: new JWT({ email: key.client_email, key: key.private_key }),
      projectId: project,
      ...(endpoint
        ? {
            apiEndpoint: endpoint.hostname,
            port: Number(endpoint.port) || (endpoint.protocol === 'http:' ? 80 : 443),
            protocol: endpoint.protocol.replace(':', ''),
          }
        : {}),
    };
    this.clients = {
      instances: new InstancesClient(options),
      operations: new ZoneOperationsClient(options),
      project,
    };
    return this.clients;
  }

  private static split(ref: string): { zone: string; instance: string } {
    const [zone, instance] = ref.split('/');
    if (!zone || !instance) throw new LabEngineError('The VM has no Google Compute Engine reference.');
    return { zone, instance };
  }

  /** Polls a zone operation until it is DONE; its error, if any, becomes a LabEngineError. */
  private async wait(zone: string, operation: { name?: string | null; status?: unknown }, doing: string) {
    const { operations, project } = this.client();
    let op = operation;
    const until = Date.now() + this.timeoutMs;
    while (String(op.status) !== 'DONE') {
      if (Date.now() > until)
        throw new LabEngineError(`Google Compute Engine is still working to ${doing}; look again later.`);
      await new Promise((r) => setTimeout(r, this.pollMs));
      try {
        [op] = await onceMoreIfLost(() => operations.get({ project, zone, operation: op.name ?? '' }));
      } catch (e) {
        throw engineError(e, doing);
      }
    }
    const errors = (op as { error?: { errors?: { code?: string; message?: string }[] } }).error?.errors ?? [];
    if (errors.length) {
      const first = errors[0]!;
      throw engineError({ message: first.message, reason: first.code, code: first.code }, doing);
    }
  }

  /**
   * A change (insert, start, stop, delete) with its own requestId, sent once more with the same id
   * when the connection is lost under it, then waited on until done.
   */
  private async call<T extends { status?: unknown; name?: string | null }>(
    zone: string,
    doing: string,
    run: (requestId: string) => Promise<[{ latestResponse?: unknown } | T, ...unknown[]]>,
  ) {
    const requestId = randomUUID();
    const send = async () => {
      const [answer] = await run(requestId);
      return ((answer as { latestResponse?: T }).latestResponse ?? answer) as T;
    };
    let first: T;
    try {
      first = await onceMoreIfLost(send);
    } catch (e) {
      throw engineError(e, doing);
    }
    await this.wait(zone, first, doing);
  }

  async create(spec: LabSpec): Promise<{ ref: string }> {
    const { instances, project } = this.client();
    const machineType = GCE_MACHINE_TYPES[spec.ram];
    const image = GCE_IMAGES[spec.image];
    if (!machineType) throw new LabEngineError(`No Google Compute Engine machine type has ${spec.ram} GB of RAM here.`);
    if (!image) throw new LabEngineError(`No Google Compute Engine image for ${spec.image}.`);
    const windows = isWindows(spec.image);
    const zone = spec.zone;
    await this.call(zone, 'create the VM', (requestId) =>
      instances.insert({
        project,
        zone,
        requestId,
        instanceResource: {
          name: spec.vmName,
          machineType: `zones/${zone}/machineTypes/${machineType}`,
          // the install's label: listLabs finds this install's machines, and no other install's
          labels: { app: 'trainlab', 'trainlab-install': this.ns },
          tags: { items: [windows ? GCE_TAGS.rdp : GCE_TAGS.ssh] },
          disks: [
            {
              boot: true,
              autoDelete: true,
              initializeParams: { sourceImage: image, diskSizeGb: String(spec.storage) },
            },
          ],
          networkInterfaces: [
            {
              network: 'global/networks/default',
              accessConfigs: [{ name: 'External NAT', type: 'ONE_TO_ONE_NAT' }],
            },
          ],
          metadata: {
            // the guest agent publishes the SSH host keys there (read back by hostKeys)
            items: [
              ...(windows ? windowsLogin(spec) : linuxLogin(spec)),
              { key: 'enable-guest-attributes', value: 'TRUE' },
            ],
          },
        },
      }),
    );
    return { ref: `${zone}/${spec.vmName}` };
  }

  async start(ref: string): Promise<void> {
    const { instances, project } = this.client();
    const { zone, instance } = GceLabs.split(ref);
    await this.call(zone, 'start the VM', (requestId) => instances.start({ project, zone, instance, requestId }));
  }

  async stop(ref: string): Promise<void> {
    const { instances, project } = this.client();
    const { zone, instance } = GceLabs.split(ref);
    try {
      await this.call(zone, 'stop the VM', (requestId) => instances.stop({ project, zone, instance, requestId }));
    } catch (e) {
      // a machine that is gone is stopped: the meter may close
      if (!(e instanceof LabEngineError && /no longer exists/.test(e.message))) throw e;
    }
  }

  async delete(ref: string): Promise<void> {
    const { instances, project } = this.client();
    const { zone, instance } = GceLabs.split(ref);
    try {
      await this.call(zone, 'delete the VM', (requestId) => instances.delete({ project, zone, instance, requestId }));
    } catch (e) {
      if (!(e instanceof LabEngineError && /no longer exists/.test(e.message))) throw e;
    }
  }

  private async instance(ref: string) {
    const { instances, project } = this.client();
    const { zone, instance } = GceLabs.split(ref);
    try {
      const [found] = await instances.get({ project, zone, instance });
      return found;
    } catch (e) {
      if (isNotFound(e)) return null;
      throw engineError(e, 'read the VM');
    }
  }

  async status(ref: string): Promise<LabState> {
    const found = await this.instance(ref);
    if (!found) return 'missing';
    // starting machines already bill; stopping ones are on their way to stopped
    return ['PROVISIONING', 'STAGING', 'RUNNING'].includes(String(found.status)) ? 'running' : 'stopped';
  }

  async connection(ref: string): Promise<LabEndpoint> {
    const found = await this.instance(ref);
    if (!found) throw new LabEngineError('The machine no longer exists in Google Compute Engine.');
    const host = found.networkInterfaces?.[0]?.accessConfigs?.find((a) => a.natIP)?.natIP;
    if (!host) throw new LabEngineError('The VM has no external IP address yet.');
    const windows = (found.tags?.items ?? []).includes(GCE_TAGS.rdp);
    const username = String(found.metadata?.items?.find((i) => i.key === 'trainlab-user')?.value ?? '');
    if (windows) return { rdp: { host, port: 3389 } };
    return { ssh: { host, port: 22, username, hostKeys: await this.hostKeys(ref) } };
  }

  /**
   * The machine's SSH host keys, as its guest agent publishes them in the guest attributes
   * (`hostkeys/`, enabled at create): read through the authenticated API, so the terminal bridge
   * can refuse any other machine that answers at the lab's address.
   */
  private async hostKeys(ref: string): Promise<string[]> {
    const { instances, project } = this.client();
    const { zone, instance } = GceLabs.split(ref);
    let items: { key?: string | null; value?: string | null }[] = [];
    try {
      const [attributes] = await instances.getGuestAttributes({ project, zone, instance, queryPath: 'hostkeys/' });
      items = attributes.queryValue?.items ?? [];
    } catch (e) {
      if (!isNotFound(e)) throw engineError(e, 'read the VM');
    }
    const keys = items.map((i) => String(i.value ?? '').trim()).filter((v) => /^[A-Za-z0-9+/]+=*$/.test(v));
    if (keys.length === 0) throw new LabEngineError(HOST_KEY_PENDING);
    return keys;
  }

  /** This install's machines in every zone of the project (by the install's label). */
  async listLabs(): Promise<EngineLab[]> {
    const { instances, project } = this.client();
    const found: EngineLab[] = [];
    try {
      // the iterator asks for each next page itself; the client's default (autoPaginate) only warns here
      for await (const [scope, list] of instances.aggregatedListAsync(
        { project, filter: `labels.trainlab-install=${this.ns}` },
        { autoPaginate: false },
      )) {
        const zone = scope.replace(/^zones\//, '');
        for (const i of list.instances ?? []) {
          if (i.name && i.labels?.['trainlab-install'] === this.ns)
            found.push({ ref: `${zone}/${i.name}`, vmName: i.name });
        }
      }
    } catch (e) {
      throw engineError(e, 'list the VMs');
    }
    return found;
  }

  async close(): Promise<void> {
    if (!this.clients) return;
    await Promise.all([this.clients.instances.close(), this.clients.operations.close()]);
    this.clients = null;
  }
}

/** Linux: the account and its password hash, set by the start-up script at every boot. */
function linuxLogin(spec: LabSpec) {
  const hash = sha512Crypt(spec.password);
  const script = [
    '#!/bin/bash',
    `id -u ${spec.username} >/dev/null 2>&1 || useradd -m -s /bin/bash ${spec.username}`,
    `echo '${spec.username}:${hash}' | chpasswd -e`,
    "sed -i 's/^#\\?PasswordAuthentication .*/PasswordAuthentication yes/' /etc/ssh/sshd_config",
    'rm -f /etc/ssh/sshd_config.d/60-cloudimg-settings.conf',
    'systemctl reload ssh || systemctl reload sshd || true',
    '',
  ].join('\n');
  return [
    { key: 'trainlab-user', value: spec.username },
    { key: 'startup-script', value: script },
  ];
}

/** Windows: a local administrator made once, at first boot (sysprep specialize), for RDP. */
function windowsLogin(spec: LabSpec) {
  const quoted = spec.password.replace(/'/g, "''");
  const script = [
    `$p = ConvertTo-SecureString '${quoted}' -AsPlainText -Force`,
    `New-LocalUser -Name '${spec.username}' -Password $p -PasswordNeverExpires`,
    `Add-LocalGroupMember -Group 'Administrators' -Member '${spec.username}'`,
    `Add-LocalGroupMember -Group 'Remote Desktop Users' -Member '${spec.username}'`,
    '',
  ].join('\r\n');
  return [
    { key: 'trainlab-user', value: spec.username },
    { key: 'sysprep-specialize-script-ps1', value: script },
  ];
}
