import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';

/**
 * A tiny DNS server on 127.0.0.1 (UDP) answering TXT questions from a table the test fills:
 * a name with records answers them (each record as its chunks), a name listed in `failing` answers
 * SERVFAIL, any other name NXDOMAIN. Enough for the resolver our server asks (node:dns, c-ares).
 */
export interface FakeDns {
  /** host:port, for DNS_RESOLVER */
  server: string;
  /** TXT records by lower-case name; a record is its character-strings (joined by the reader) */
  txt: Map<string, string[][]>;
  failing: Set<string>;
  /** the names asked, in order */
  asked: string[];
  close(): Promise<void>;
}

const TXT = 16;

function readName(msg: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let i = offset;
  while (msg[i]! > 0) {
    const len = msg[i]!;
    labels.push(msg.subarray(i + 1, i + 1 + len).toString('ascii'));
    i += len + 1;
  }
  return { name: labels.join('.').toLowerCase(), end: i + 1 };
}

function answer(query: Buffer, dns: FakeDns): Buffer {
  const { name, end } = readName(query, 12);
  const qtype = query.readUInt16BE(end);
  const question = query.subarray(12, end + 4);
  dns.asked.push(name);
  const records = qtype === TXT ? (dns.txt.get(name) ?? []) : [];
  const rcode = dns.failing.has(name) ? 2 : dns.txt.has(name) ? 0 : 3;
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0);
  // a response, recursion desired and available, the rcode
  header.writeUInt16BE(0x8180 | rcode, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(rcode === 0 ? records.length : 0, 6);
  const answers =
    rcode === 0
      ? records.map((chunks) => {
          const rdata = Buffer.concat(
            chunks.map((c) => Buffer.concat([Buffer.from([Buffer.byteLength(c)]), Buffer.from(c)])),
          );
          const rr = Buffer.alloc(12);
          rr.writeUInt16BE(0xc00c, 0); // the question's name
          rr.writeUInt16BE(TXT, 2);
          rr.writeUInt16BE(1, 4); // IN
          rr.writeUInt32BE(60, 6);
          rr.writeUInt16BE(rdata.length, 10);
          return Buffer.concat([rr, rdata]);
        })
      : [];
  return Buffer.concat([header, question, ...answers]);
}

export async function startFakeDns(): Promise<FakeDns> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
  const dns: FakeDns = {
    server: `127.0.0.1:${(socket.address() as AddressInfo).port}`,
    txt: new Map(),
    failing: new Set(),
    asked: [],
    close: () => new Promise<void>((r) => socket.close(() => r())),
  };
  socket.on('message', (msg, from) => {
    try {
      socket.send(answer(msg, dns), from.port, from.address);
    } catch {
      // a malformed question gets no answer, as from a real server that drops it
    }
  });
  return dns;
}
