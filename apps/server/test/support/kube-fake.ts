import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';
import { schemaErrors } from './kube-schema';

/**
 * A local fake of the Kubernetes API server's HTTP API, the part the lab engine uses: namespaces,
 * pods (create, read, list by label, delete), persistent volume claims, network policies and
 * resource quotas in JSON as the API server speaks it (Status objects for refusals), bearer-token
 * authentication, and pod exec over a WebSocket in the channel protocol (v5/v4.channel.k8s.io):
 * each exec runs a real local process (in its pod's own folder, through `script` for a TTY), its
 * stdout and stderr sent on channels 1 and 2, stdin read from channel 0, resizes kept from channel 4,
 * its exit as a Status on channel 3. Every object written is checked against the client's models
 * (kube-schema.ts), as an API server with strict field validation would refuse unknown fields.
 *
 * What it does not do: scheduling (a test says whether a pod is placed: `unschedulable`), admission
 * (pod security, quotas), NetworkPolicy enforcement, watches, a real container: those a real
 * cluster checks, and the docs say so.
 */
export interface KubeCall {
  method: string;
  path: string;
  body?: Record<string, unknown>;
}
interface Obj {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    deletionTimestamp?: string;
    uid?: string;
    resourceVersion?: string;
  };
  spec?: unknown;
  status?: Record<string, unknown>;
}
type Ws = {
  protocol: string;
  readyState: number;
  send(data: Buffer, cb?: (e?: Error) => void): void;
  close(code?: number): void;
  on(event: 'message', cb: (data: Buffer) => void): void;
  on(event: 'close', cb: () => void): void;
};
type WsServerT = {
  handleUpgrade(req: IncomingMessage, socket: unknown, head: Buffer, cb: (ws: Ws) => void): void;
  close(): void;
};
const { WebSocketServer } = createRequire(import.meta.url)('ws') as {
  WebSocketServer: new (o: { noServer: boolean; handleProtocols: (p: Set<string>) => string | false }) => WsServerT;
};

const KINDS: Record<string, { kind: string; model: string; apiVersion: string }> = {
  pods: { kind: 'Pod', model: 'V1Pod', apiVersion: 'v1' },
  persistentvolumeclaims: { kind: 'PersistentVolumeClaim', model: 'V1PersistentVolumeClaim', apiVersion: 'v1' },
  resourcequotas: { kind: 'ResourceQuota', model: 'V1ResourceQuota', apiVersion: 'v1' },
  networkpolicies: { kind: 'NetworkPolicy', model: 'V1NetworkPolicy', apiVersion: 'networking.k8s.io/v1' },
};

export interface KubeFake {
  url: string;
  token: string;
  calls: KubeCall[];
  /** objects by `kind/namespace/name` */
  objects: Map<string, Obj>;
  /** resize messages received on exec channel 4 */
  resizes: { Width: number; Height: number }[];
  /** the protocol each exec spoke */
  execProtocols: string[];
  /** set: new pods stay Pending with this scheduler message */
  unschedulable: string | null;
  /** set: new pods are placed but their image does not pull (this waiting reason, e.g. ImagePullBackOff) */
  pullFails: string | null;
  /** how a command of an exec runs here (default: as given, in the exec's own folder) */
  execCommand: (command: string[]) => string[];
  /** a pod's node went away (phase Unknown) or it was evicted (phase Failed, reason Evicted) */
  loseNode(namespace: string, pod: string): void;
  evict(namespace: string, pod: string): void;
  /** a pod the fake's "scheduler" places now (after `unschedulable` is cleared) */
  place(namespace: string, pod: string): void;
  /** a kubeconfig naming the fake, its CA and the token (or skipping the certificate's check) */
  kubeconfig(dir: string, options?: { skipTls?: boolean; server?: string; token?: string }): string;
  close(): Promise<void>;
}

const status = (code: number, reason: string, message: string) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message,
  reason,
  code,
});

function matches(labels: Record<string, string> | undefined, selector: string | null): boolean {
  if (!selector) return true;
  return selector.split(',').every((term) => {
    const [k, v] = term.split('=');
    if (!labels || !(k! in labels)) return false;
    return v === undefined || labels[k!] === v;
  });
}

export async function startKubeFake(port: number, namespaces: string[]): Promise<KubeFake> {
  const token = 'fake-cluster-token-7f3a';
  const calls: KubeCall[] = [];
  const objects = new Map<string, Obj>();
  const resizes: { Width: number; Height: number }[] = [];
  const execProtocols: string[] = [];
  const procs = new Set<ChildProcess>();
  // each pod's "container": a folder of its own, where its execs run and its tmux server lives
  const podDirs = new Map<string, string>();
  const podDir = (ns: string, pod: string) => {
    let dir = podDirs.get(`${ns}/${pod}`);
    if (!dir) {
      dir = mkdtempSync(path.join(tmpdir(), 'kube-fake-pod-'));
      podDirs.set(`${ns}/${pod}`, dir);
    }
    return dir;
  };
  let uid = 0;
  const names = new Set(namespaces);
  const key = (resource: string, ns: string, name: string) => `${resource}/${ns}/${name}`;
  // an API server speaks https: its own certificate, which the kubeconfig's CA data names
  const pems = await generate([{ name: 'commonName', value: 'kube-apiserver' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  } as Parameters<typeof generate>[1]);

  const fake: KubeFake = {
    url: `https://127.0.0.1:${port}`,
    token,
    calls,
    objects,
    resizes,
    execProtocols,
    unschedulable: null,
    pullFails: null,
    execCommand: (c) => c,
    loseNode: (ns, pod) => {
      const o = objects.get(key('pods', ns, pod));
      if (o) o.status = { phase: 'Unknown', reason: 'NodeLost', conditions: [{ type: 'Ready', status: 'Unknown' }] };
    },
    evict: (ns, pod) => {
      const o = objects.get(key('pods', ns, pod));
      if (o)
        o.status = {
          phase: 'Failed',
          reason: 'Evicted',
          message: 'The node was low on resource: memory.',
          conditions: [{ type: 'Ready', status: 'False' }],
        };
    },
    place: (ns, pod) => {
      const o = objects.get(key('pods', ns, pod));
      if (o) o.status = running();
    },
    kubeconfig: (dir, options = {}) => {
      const file = path.join(dir, 'kubeconfig.yaml');
      writeFileSync(
        file,
        [
          'apiVersion: v1',
          'kind: Config',
          'clusters:',
          '- name: fake',
          '  cluster:',
          `    server: ${options.server ?? fake.url}`,
          options.skipTls
            ? '    insecure-skip-tls-verify: true'
            : `    certificate-authority-data: ${Buffer.from(pems.cert).toString('base64')}`,
          'users:',
          '- name: trainlab',
          '  user:',
          `    token: ${options.token ?? token}`,
          'contexts:',
          '- name: fake',
          '  context: {cluster: fake, user: trainlab}',
          'current-context: fake',
          '',
        ].join('\n'),
      );
      return file;
    },
    close: async () => {
      for (const p of procs) p.kill('SIGKILL');
      wss.close();
      await new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      for (const d of podDirs.values()) {
        spawnSync('tmux', ['kill-server'], { env: { PATH: process.env.PATH, TMUX_TMPDIR: d }, stdio: 'ignore' });
        rmSync(d, { recursive: true, force: true });
      }
    },
  };

  const running = () => ({
    phase: 'Running',
    conditions: [
      { type: 'PodScheduled', status: 'True' },
      { type: 'Ready', status: 'True' },
    ],
    containerStatuses: [{ name: 'lab', ready: true, state: { running: {} } }],
  });
  const pending = (message: string) => ({
    phase: 'Pending',
    conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message }],
  });

  const send = (res: ServerResponse, code: number, body: unknown) => {
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const authorized = (req: IncomingMessage) => req.headers.authorization === `Bearer ${token}`;

  const server = createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', fake.url);
      const text = Buffer.concat(chunks).toString();
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
      calls.push({ method: req.method ?? 'GET', path: url.pathname, ...(body ? { body } : {}) });
      if (!authorized(req)) return send(res, 401, status(401, 'Unauthorized', 'Unauthorized'));
      const m = /^\/(?:api\/v1|apis\/networking\.k8s\.io\/v1)\/namespaces\/([^/]+)(?:\/([a-z]+)(?:\/([^/]+))?)?$/.exec(
        url.pathname,
      );
      if (!m) return send(res, 404, status(404, 'NotFound', 'the server could not find the requested resource'));
      const [, ns, resource, name] = m as unknown as [string, string, string | undefined, string | undefined];
      if (!resource) {
        if (req.method !== 'GET') return send(res, 405, status(405, 'MethodNotAllowed', 'not here'));
        return names.has(ns)
          ? send(res, 200, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns }, status: { phase: 'Active' } })
          : send(res, 404, status(404, 'NotFound', `namespaces "${ns}" not found`));
      }
      const kind = KINDS[resource];
      if (!kind) return send(res, 404, status(404, 'NotFound', 'the server could not find the requested resource'));
      if (!name && req.method === 'GET') {
        // a list: as a real API server, empty (not 404) in a namespace that does not exist
        const selector = url.searchParams.get('labelSelector');
        const items = [...objects.entries()]
          .filter(([k, o]) => k.startsWith(`${resource}/${ns}/`) && matches(o.metadata.labels, selector))
          .map(([, o]) => o);
        const limit = Number(url.searchParams.get('limit')) || items.length;
        return send(res, 200, {
          apiVersion: kind.apiVersion,
          kind: `${kind.kind}List`,
          metadata: {},
          items: items.slice(0, limit),
        });
      }
      if (!name && req.method === 'POST') {
        if (!names.has(ns)) return send(res, 404, status(404, 'NotFound', `namespaces "${ns}" not found`));
        const obj = body as unknown as Obj;
        const errors = schemaErrors(obj, kind.model);
        if (obj?.kind !== kind.kind) errors.push(`kind must be ${kind.kind}`);
        if (obj?.metadata?.namespace && obj.metadata.namespace !== ns) errors.push('the namespace of the body differs');
        if (!/^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$/.test(obj?.metadata?.name ?? ''))
          errors.push('metadata.name: not a DNS subdomain');
        if (errors.length) return send(res, 422, status(422, 'Invalid', errors.join('; ')));
        const k = key(resource, ns, obj.metadata.name);
        if (objects.has(k))
          return send(res, 409, status(409, 'AlreadyExists', `${resource} "${obj.metadata.name}" already exists`));
        const stored: Obj = {
          ...obj,
          metadata: { ...obj.metadata, namespace: ns, uid: `uid-${++uid}`, resourceVersion: String(uid) },
        };
        if (resource === 'pods')
          stored.status = fake.unschedulable
            ? pending(fake.unschedulable)
            : fake.pullFails
              ? {
                  phase: 'Pending',
                  conditions: [{ type: 'PodScheduled', status: 'True' }],
                  containerStatuses: [{ name: 'lab', ready: false, state: { waiting: { reason: fake.pullFails } } }],
                }
              : running();
        if (resource === 'persistentvolumeclaims') stored.status = { phase: 'Bound' };
        objects.set(k, stored);
        return send(res, 201, stored);
      }
      const k = key(resource, ns, name!);
      const found = objects.get(k);
      if (!found) return send(res, 404, status(404, 'NotFound', `${resource} "${name}" not found`));
      if (req.method === 'GET') return send(res, 200, found);
      if (req.method === 'PUT') {
        const errors = schemaErrors(body, kind.model);
        if (errors.length) return send(res, 422, status(422, 'Invalid', errors.join('; ')));
        const stored = {
          ...(body as unknown as Obj),
          metadata: { ...found.metadata, ...(body as unknown as Obj).metadata },
        };
        objects.set(k, stored);
        return send(res, 200, stored);
      }
      if (req.method === 'DELETE') {
        objects.delete(k);
        return send(res, 200, {
          ...found,
          metadata: { ...found.metadata, deletionTimestamp: new Date().toISOString() },
        });
      }
      return send(res, 405, status(405, 'MethodNotAllowed', 'not here'));
    });
  });

  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (offered) =>
      offered.has('v5.channel.k8s.io')
        ? 'v5.channel.k8s.io'
        : offered.has('v4.channel.k8s.io')
          ? 'v4.channel.k8s.io'
          : false,
  });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', fake.url);
    calls.push({ method: 'EXEC', path: url.pathname + url.search });
    const refuse = (code: number, text: string) => {
      (socket as import('node:net').Socket).end(`HTTP/1.1 ${code} ${text}\r\nConnection: close\r\n\r\n`);
    };
    if (!authorized(req)) return refuse(401, 'Unauthorized');
    const m = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/exec$/.exec(url.pathname);
    const pod = m ? objects.get(key('pods', m[1]!, m[2]!)) : undefined;
    if (!m || !pod) return refuse(404, 'Not Found');
    if (pod.status?.phase !== 'Running') return refuse(400, 'Bad Request');
    const dir = podDir(m[1]!, m[2]!);
    const command = url.searchParams.getAll('command');
    const tty = url.searchParams.get('tty') === 'true';
    wss.handleUpgrade(req, socket, head, (ws) => {
      execProtocols.push(ws.protocol);
      const [cmd, ...args] = fake.execCommand(command);
      // a TTY is a real one: `script` gives the command a pseudo-terminal
      const proc = tty
        ? spawn(
            'script',
            ['-qfec', [cmd, ...args].map((a) => `'${a!.replace(/'/g, `'\\''`)}'`).join(' '), '/dev/null'],
            {
              cwd: dir,
              env: { PATH: process.env.PATH, HOME: dir, TERM: 'xterm', TMUX_TMPDIR: dir },
            },
          )
        : spawn(cmd!, args, { cwd: dir, env: { PATH: process.env.PATH, HOME: dir, TMUX_TMPDIR: dir } });
      procs.add(proc);
      const out = (channel: number) => (data: Buffer) => {
        if (ws.readyState === 1) ws.send(Buffer.concat([Buffer.from([channel]), data]));
      };
      proc.stdout!.on('data', out(1));
      proc.stderr!.on('data', out(2));
      proc.on('error', () => undefined);
      proc.on('exit', (code) => {
        procs.delete(proc);
        const result =
          code === 0
            ? { metadata: {}, status: 'Success' }
            : {
                metadata: {},
                status: 'Failure',
                reason: 'NonZeroExitCode',
                details: { causes: [{ reason: 'ExitCode', message: String(code) }] },
              };
        if (ws.readyState === 1) {
          ws.send(Buffer.concat([Buffer.from([3]), Buffer.from(JSON.stringify(result))]));
          ws.close(1000);
        }
      });
      ws.on('message', (data) => {
        const channel = data[0];
        const rest = data.subarray(1);
        if (channel === 0) proc.stdin!.write(rest);
        else if (channel === 4) resizes.push(JSON.parse(rest.toString()));
        else if (channel === 255 && rest[0] === 0) proc.stdin!.end();
      });
      ws.on('close', () => proc.kill('SIGKILL'));
    });
  });

  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return fake;
}
