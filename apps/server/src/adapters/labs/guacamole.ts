import net from 'node:net';
import { StringDecoder } from 'node:string_decoder';

/**
 * The Guacamole protocol as guacd speaks it: instructions `LENGTH.VALUE,LENGTH.VALUE,…;` where
 * each LENGTH counts Unicode code points. Our server does the handshake itself (select, size,
 * connect with the lab's address and login) so the lab's password never reaches the browser;
 * after `ready` it only relays whole instructions both ways.
 */
export type Instruction = string[];

export function encodeInstruction(elements: readonly (string | number)[]): string {
  return `${elements.map((e) => `${[...String(e)].length}.${e}`).join(',')};`;
}

/** Splits a stream of text into whole instructions; partial ones wait for the next chunk. */
export class InstructionReader {
  private buffer = '';
  private readonly decoder = new StringDecoder('utf8');

  /** what the chunk completes: each instruction parsed, and their raw text (to relay as is) */
  push(chunk: Buffer | string): { instructions: Instruction[]; raw: string } {
    this.buffer += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    const instructions: Instruction[] = [];
    let consumed = 0;
    let at = 0;
    let current: string[] = [];
    while (at < this.buffer.length) {
      const dot = this.buffer.indexOf('.', at);
      if (dot === -1) break;
      const lengthText = this.buffer.slice(at, dot);
      if (!/^\d{1,9}$/.test(lengthText)) throw new Error('Malformed Guacamole instruction.');
      const end = advance(this.buffer, dot + 1, Number(lengthText));
      if (end === -1 || end >= this.buffer.length) break;
      current.push(this.buffer.slice(dot + 1, end));
      const terminator = this.buffer[end];
      at = end + 1;
      if (terminator === ';') {
        instructions.push(current);
        current = [];
        consumed = at;
      } else if (terminator !== ',') {
        throw new Error('Malformed Guacamole instruction.');
      }
    }
    const raw = this.buffer.slice(0, consumed);
    this.buffer = this.buffer.slice(consumed);
    if (this.buffer.length > 8 * 1024 * 1024) throw new Error('Guacamole instruction too long.');
    return { instructions, raw };
  }
}

/** the index just past `count` code points from `from`, or -1 when the text ends first */
function advance(text: string, from: number, count: number): number {
  // the usual case (base64 images, ASCII) needs no walk
  const quick = text.slice(from, from + count);
  if (quick.length === count && !/[\uD800-\uDBFF]/.test(quick)) return from + count;
  let at = from;
  for (let n = 0; n < count; n++) {
    if (at >= text.length) return -1;
    const code = text.charCodeAt(at);
    at += code >= 0xd800 && code <= 0xdbff ? 2 : 1;
  }
  return at > text.length ? -1 : at;
}

export interface RdpTarget {
  host: string;
  port: number;
  username: string;
  password: string;
  width: number;
  height: number;
}

/** values of the `connect` instruction, in the order guacd's `args` asked for them */
function connectValues(args: string[], target: RdpTarget): string[] {
  const known: Record<string, string> = {
    hostname: target.host,
    port: String(target.port),
    username: target.username,
    password: target.password,
    // lab machines have self-signed certificates; the gateway talks to them on our network
    'ignore-cert': 'true',
    security: 'any',
    'resize-method': 'display-update',
    'enable-font-smoothing': 'true',
  };
  // the first argument may be the protocol version guacd offers: we speak 1.5
  return args.map((name) => (/^VERSION_\d+_\d+_\d+$/.test(name) ? 'VERSION_1_5_0' : (known[name] ?? '')));
}

export class GuacdError extends Error {}

/**
 * Opens an RDP connection through guacd: select, args, size/audio/video/image/timezone, connect,
 * ready. Resolves with the socket, the connection id and whatever guacd sent after `ready`.
 */
export function openGuacd(
  gateway: { host: string; port: number },
  target: RdpTarget,
  timeoutMs = 15_000,
): Promise<{ socket: net.Socket; id: string; reader: InstructionReader; rest: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: gateway.host, port: gateway.port, noDelay: true });
    const reader = new InstructionReader();
    let done = false;
    const fail = (message: string) => {
      if (done) return;
      done = true;
      socket.destroy();
      reject(new GuacdError(message));
    };
    const timer = setTimeout(() => fail('The remote-desktop gateway did not answer in time.'), timeoutMs);
    socket.on('error', () => fail('The remote-desktop gateway (guacd) cannot be reached.'));
    socket.on('close', () => fail('The remote-desktop gateway closed the connection.'));
    socket.on('connect', () => socket.write(encodeInstruction(['select', 'rdp'])));
    const onData = (chunk: Buffer) => {
      let parsed: ReturnType<InstructionReader['push']>;
      try {
        parsed = reader.push(chunk);
      } catch {
        fail('The remote-desktop gateway sent something unexpected.');
        return;
      }
      for (let i = 0; i < parsed.instructions.length; i++) {
        const [opcode, ...values] = parsed.instructions[i]!;
        if (opcode === 'args') {
          socket.write(
            encodeInstruction(['size', target.width, target.height, 96]) +
              encodeInstruction(['audio']) +
              encodeInstruction(['video']) +
              encodeInstruction(['image', 'image/png', 'image/jpeg']) +
              encodeInstruction(['timezone', 'UTC']) +
              encodeInstruction(['connect', ...connectValues(values, target)]),
          );
        } else if (opcode === 'ready') {
          done = true;
          clearTimeout(timer);
          socket.off('data', onData);
          socket.removeAllListeners('error');
          socket.removeAllListeners('close');
          // instructions that came in the same chunk as `ready` go on to the browser
          const rest = parsed.instructions
            .slice(i + 1)
            .map((ins) => encodeInstruction(ins))
            .join('');
          resolve({ socket, id: values[0] ?? '', reader, rest });
          return;
        } else if (opcode === 'error') {
          fail(`The remote-desktop gateway refused the connection (${values[1] ?? 'error'}).`);
          return;
        }
      }
    };
    socket.on('data', onData);
  });
}
