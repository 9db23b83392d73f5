import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real coturn (Debian's `coturn`, installed by .ci/run) on 127.0.0.1 with the TURN REST
 * shared-secret scheme, and just enough of a TURN client (RFC 8656 Allocate over UDP, long-term
 * credentials) to ask it for a relay with a username and credential the way a browser does.
 */
export const TURN_BIN = '/usr/bin/turnserver';
export const TURN_REALM = 'trainlab.test';

export function turnserverInstalled(): boolean {
  return spawnSync(TURN_BIN, ['-h'], { stdio: 'ignore' }).error === undefined;
}

export async function startTurnserver(port: number, secret: string): Promise<{ stop(): Promise<void> }> {
  if (!turnserverInstalled()) {
    throw new Error(`${TURN_BIN} is missing: install Debian's coturn (apt-get install coturn), as .ci/run does`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'he-turn-'));
  const args = [
    '-n',
    '--listening-ip=127.0.0.1',
    `--listening-port=${port}`,
    '--relay-ip=127.0.0.1',
    `--min-port=${port + 1}`,
    `--max-port=${port + 9}`,
    '--use-auth-secret',
    `--static-auth-secret=${secret}`,
    `--realm=${TURN_REALM}`,
    '--no-tls',
    '--no-dtls',
    '--no-cli',
    '--log-file=stdout',
    '--simple-log',
    `--userdb=${join(dir, 'turndb')}`,
    `--pidfile=${join(dir, 'turnserver.pid')}`,
  ];
  const proc: ChildProcess = spawn(TURN_BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  proc.stdout!.on('data', (b: Buffer) => {
    log += b.toString();
  });
  proc.stderr!.on('data', (b: Buffer) => {
    log += b.toString();
  });
  // ready once it answers a STUN binding request
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`turnserver exited (${proc.exitCode}):\n${log}`);
    try {
      await stunRequest(port, message(0x0001, []), 300);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`turnserver did not answer on ${port}:\n${log}`);
    }
  }
  return {
    async stop() {
      if (proc.exitCode === null) {
        const gone = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const MAGIC = 0x2112a442;
const ATTR = {
  USERNAME: 0x0006,
  MESSAGE_INTEGRITY: 0x0008,
  ERROR_CODE: 0x0009,
  REALM: 0x0014,
  NONCE: 0x0015,
  XOR_RELAYED_ADDRESS: 0x0016,
  REQUESTED_TRANSPORT: 0x0019,
} as const;

type Attr = [type: number, value: Buffer];

function encodeAttrs(attrs: Attr[]): Buffer {
  return Buffer.concat(
    attrs.map(([type, value]) => {
      const head = Buffer.alloc(4);
      head.writeUInt16BE(type, 0);
      head.writeUInt16BE(value.length, 2);
      return Buffer.concat([head, value, Buffer.alloc((4 - (value.length % 4)) % 4)]);
    }),
  );
}

function message(type: number, attrs: Attr[], integrityKey?: Buffer): Buffer {
  const body = encodeAttrs(attrs);
  const head = Buffer.alloc(20);
  head.writeUInt16BE(type, 0);
  head.writeUInt32BE(MAGIC, 4);
  randomBytes(12).copy(head, 8);
  if (!integrityKey) {
    head.writeUInt16BE(body.length, 2);
    return Buffer.concat([head, body]);
  }
  // MESSAGE-INTEGRITY covers the message with its length already counting the attribute itself
  head.writeUInt16BE(body.length + 24, 2);
  const mac = createHmac('sha1', integrityKey)
    .update(Buffer.concat([head, body]))
    .digest();
  return Buffer.concat([head, body, encodeAttrs([[ATTR.MESSAGE_INTEGRITY, mac]])]);
}

interface StunAnswer {
  type: number;
  attrs: Map<number, Buffer>;
}

function decode(buf: Buffer): StunAnswer {
  const attrs = new Map<number, Buffer>();
  let at = 20;
  const end = 20 + buf.readUInt16BE(2);
  while (at + 4 <= end) {
    const type = buf.readUInt16BE(at);
    const len = buf.readUInt16BE(at + 2);
    attrs.set(type, buf.subarray(at + 4, at + 4 + len));
    at += 4 + len + ((4 - (len % 4)) % 4);
  }
  return { type: buf.readUInt16BE(0), attrs };
}

/** One UDP socket for a whole exchange: coturn ties the nonce to the client's address and port. */
function stunSocket(port: number) {
  const sock = createSocket('udp4');
  const answers: Buffer[] = [];
  let waiting: ((b: Buffer) => void) | null = null;
  sock.on('message', (buf) => {
    if (waiting) waiting(buf);
    else answers.push(buf);
  });
  return {
    request(msg: Buffer, timeoutMs = 2000): Promise<StunAnswer> {
      sock.send(msg, port, '127.0.0.1');
      const queued = answers.shift();
      if (queued) return Promise.resolve(decode(queued));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting = null;
          reject(new Error('no STUN answer'));
        }, timeoutMs);
        waiting = (buf) => {
          clearTimeout(timer);
          waiting = null;
          resolve(decode(buf));
        };
      });
    },
    close: () => sock.close(),
  };
}

async function stunRequest(port: number, msg: Buffer, timeoutMs = 2000): Promise<StunAnswer> {
  const sock = stunSocket(port);
  try {
    return await sock.request(msg, timeoutMs);
  } finally {
    sock.close();
  }
}

const transportUdp = () => Buffer.from([17, 0, 0, 0]);

/**
 * A TURN Allocate with long-term credentials: the first request learns the realm and nonce (401),
 * the second is signed with MD5(username:realm:credential). Answers the relayed port, or the error
 * code the server gave.
 */
export async function allocate(
  port: number,
  username: string,
  credential: string,
): Promise<{ ok: true; relayPort: number } | { ok: false; code: number }> {
  const sock = stunSocket(port);
  try {
    return await signedAllocate(sock, username, credential);
  } finally {
    sock.close();
  }
}

async function signedAllocate(sock: ReturnType<typeof stunSocket>, username: string, credential: string) {
  const first = await sock.request(message(0x0003, [[ATTR.REQUESTED_TRANSPORT, transportUdp()]]));
  const realm = first.attrs.get(ATTR.REALM);
  const nonce = first.attrs.get(ATTR.NONCE);
  if (first.type !== 0x0113 || !realm || !nonce) throw new Error('expected a 401 challenge with realm and nonce');
  const key = createHash('md5').update(`${username}:${realm.toString()}:${credential}`).digest();
  const second = await sock.request(
    message(
      0x0003,
      [
        [ATTR.REQUESTED_TRANSPORT, transportUdp()],
        [ATTR.USERNAME, Buffer.from(username)],
        [ATTR.REALM, realm],
        [ATTR.NONCE, nonce],
      ],
      key,
    ),
  );
  if (second.type === 0x0103) {
    const relayed = second.attrs.get(ATTR.XOR_RELAYED_ADDRESS)!;
    return { ok: true as const, relayPort: relayed.readUInt16BE(2) ^ (MAGIC >>> 16) };
  }
  const err = second.attrs.get(ATTR.ERROR_CODE);
  return { ok: false as const, code: err ? err[2]! * 100 + err[3]! : 0 };
}
