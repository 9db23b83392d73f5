import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import http from 'node:http';

/**
 * A local fake of the Compute Engine REST endpoints the lab engine uses (instances insert, get,
 * start, stop, delete; zone operations get). It checks every call is signed by the test's
 * service-account key (a self-signed RS256 JWT), records the calls, and plays long-running
 * operations as PENDING → RUNNING → DONE over successive polls.
 */
export interface FakeCall {
  method: string;
  path: string;
  body: unknown;
  authorized: boolean;
  /** the change's requestId (the engine sends one with every insert, start, stop and delete) */
  requestId: string | null;
}
interface Instance {
  name: string;
  zone: string;
  status: string;
  body: Record<string, unknown>;
}

export function serviceAccountKey(dir: string, project = 'hc-project') {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = {
    type: 'service_account',
    project_id: project,
    private_key_id: 'k1',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: 'labs@hc-project.iam.gserviceaccount.com',
    client_id: '1',
    token_uri: 'http://127.0.0.1:1/token',
  };
  const file = `${dir}/key.json`;
  writeFileSync(file, JSON.stringify(key));
  return { file, key, publicKey };
}

export async function startFakeCompute(port: number, publicKey: ReturnType<typeof createPublicKey>) {
  const calls: FakeCall[] = [];
  const instances = new Map<string, Instance>();
  const operations = new Map<string, { polls: number; then: () => void; error?: unknown }>();
  const state = {
    quota: false,
    /** how many of the next changes are made but their answers lost (the connection reset) */
    loseAnswers: 0,
    opError: null as null | { code: string; message: string },
    /** the guest attributes' SSH host keys: [type, base64 blob] */
    hostKeys: [['ssh-ed25519', 'AAAAC3NzaC1lZDI1NTE5AAAAIFakeHostKeyForTheTestsOnly0000000000000000']] as [
      string,
      string,
    ][],
  };
  let seq = 0;
  const answered = new Map<string, unknown>();

  const signed = (header: string | undefined) => {
    const m = /^Bearer (.+)\.(.+)\.(.+)$/.exec(header ?? '');
    if (!m) return false;
    const [, h, p, s] = m;
    const ok = verify('RSA-SHA256', Buffer.from(`${h}.${p}`), publicKey, Buffer.from(s!, 'base64url'));
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString()) as { iss?: string };
    return ok && claims.iss === 'labs@hc-project.iam.gserviceaccount.com';
  };
  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const notFound = (res: http.ServerResponse, what: string) =>
    send(res, 404, {
      error: { code: 404, message: `The resource '${what}' was not found`, errors: [{ reason: 'notFound' }] },
    });
  const operation = (zone: string, then: () => void) => {
    const name = `operation-${++seq}`;
    operations.set(name, { polls: 0, then, error: state.opError ?? undefined });
    return { kind: 'compute#operation', name, zone, status: 'PENDING', operationType: 'x' };
  };

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const body = raw ? JSON.parse(raw) : null;
      const authorized = signed(req.headers.authorization);
      const requestId = url.searchParams.get('requestId');
      calls.push({ method: req.method ?? '', path: url.pathname, body, authorized, requestId });
      if (!authorized)
        return send(res, 401, { error: { code: 401, message: 'Request had invalid authentication credentials.' } });
      // the API does a change at most once per requestId: the same id answers the same operation
      const done = requestId ? answered.get(requestId) : undefined;
      if (done) return send(res, 200, done);
      if (requestId && req.method !== 'GET') {
        const answer = res as unknown as { end: (body: string) => void };
        const end = answer.end.bind(res);
        answer.end = (text: string) => {
          if (res.statusCode === 200) answered.set(requestId, JSON.parse(text));
          // the connection lost after the change was made: the client never reads the answer
          if (state.loseAnswers > 0) {
            state.loseAnswers--;
            req.socket.destroy();
            return;
          }
          end(text);
        };
      }
      const agg = /^\/compute\/v1\/projects\/([^/]+)\/aggregated\/instances$/.exec(url.pathname);
      if (agg && req.method === 'GET') {
        // the filter the engine sends: labels.<key>=<value>
        const f = /^labels\.([\w-]+)=(\S+)$/.exec(url.searchParams.get('filter') ?? '');
        const items: Record<string, { instances: Record<string, unknown>[] }> = {};
        for (const inst of instances.values()) {
          const labels = (inst.body.labels ?? {}) as Record<string, string>;
          if (f && labels[f[1]!] !== f[2]) continue;
          items[`zones/${inst.zone}`] ??= { instances: [] };
          items[`zones/${inst.zone}`]!.instances.push({ ...inst.body, status: inst.status });
        }
        return send(res, 200, { kind: 'compute#instanceAggregatedList', items });
      }
      const m =
        /^\/compute\/v1\/projects\/([^/]+)\/zones\/([^/]+)\/(instances|operations)(?:\/([^/]+))?(?:\/(start|stop|getGuestAttributes))?$/.exec(
          url.pathname,
        );
      if (!m) return notFound(res, url.pathname);
      const [, , zone, kind, name, action] = m as unknown as [string, string, string, string, string?, string?];
      if (kind === 'operations') {
        const op = operations.get(name ?? '');
        if (!op) return notFound(res, name ?? '');
        op.polls++;
        const status = op.polls === 1 ? 'RUNNING' : 'DONE';
        if (status === 'DONE' && op.polls === 2 && !op.error) op.then();
        return send(res, 200, {
          kind: 'compute#operation',
          name,
          zone,
          status,
          ...(status === 'DONE' && op.error ? { error: { errors: [op.error] } } : {}),
        });
      }
      if (req.method === 'POST' && !name) {
        if (state.quota) {
          return send(res, 403, {
            error: {
              code: 403,
              message: "Quota 'CPUS' exceeded.  Limit: 8.0 in region asia-south1.",
              errors: [
                {
                  message: "Quota 'CPUS' exceeded.  Limit: 8.0 in region asia-south1.",
                  domain: 'usageLimits',
                  reason: 'quotaExceeded',
                },
              ],
            },
          });
        }
        const b = body as { name: string };
        return send(
          res,
          200,
          operation(zone, () =>
            instances.set(b.name, { name: b.name, zone, status: 'RUNNING', body: body as Record<string, unknown> }),
          ),
        );
      }
      const inst = instances.get(name ?? '');
      if (!inst) return notFound(res, `projects/x/zones/${zone}/instances/${name}`);
      if (req.method === 'GET' && action === 'getGuestAttributes') {
        // what the guest agent publishes once booted: its SSH host keys (none while state.hostKeys is empty)
        return send(res, 200, {
          kind: 'compute#guestAttributes',
          queryPath: url.searchParams.get('queryPath'),
          queryValue: { items: state.hostKeys.map(([key, value]) => ({ namespace: 'hostkeys', key, value })) },
        });
      }
      if (req.method === 'GET') {
        return send(res, 200, {
          ...inst.body,
          status: inst.status,
          networkInterfaces: [{ accessConfigs: [{ name: 'External NAT', natIP: '127.0.0.1' }] }],
        });
      }
      if (req.method === 'DELETE')
        return send(
          res,
          200,
          operation(zone, () => instances.delete(inst.name)),
        );
      if (action === 'start')
        return send(
          res,
          200,
          operation(zone, () => {
            inst.status = 'RUNNING';
          }),
        );
      if (action === 'stop')
        return send(
          res,
          200,
          operation(zone, () => {
            inst.status = 'TERMINATED';
          }),
        );
      return notFound(res, url.pathname);
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    calls,
    instances,
    state,
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
export { createPublicKey };
