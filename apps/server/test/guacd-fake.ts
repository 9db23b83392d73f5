import net from 'node:net';
import { encodeInstruction, type Instruction, InstructionReader } from '../src/adapters/labs/guacamole';

/**
 * A small stand-in for guacd (not packaged in Debian): it checks the handshake our server sends
 * (select rdp; size, audio, video, image, timezone; connect with the values for its args), answers
 * `ready` with a few drawing instructions, and answers each key event with a sync.
 */
export const GUACD_ARGS = [
  'VERSION_1_5_0',
  'hostname',
  'port',
  'username',
  'password',
  'ignore-cert',
  'security',
  'domain',
];

export async function startFakeGuacd(port: number) {
  const sessions: {
    received: Instruction[];
    connect: Record<string, string> | null;
    closed: boolean;
    /** bytes written while flooding (state.flood) */
    flooded: number;
  }[] = [];
  /** flood: answer a key press by drawing as fast as the socket takes it, until false again */
  const state = { refuse: false, flood: false };
  const server = net.createServer((socket) => {
    const session = {
      received: [] as Instruction[],
      connect: null as Record<string, string> | null,
      closed: false,
      flooded: 0,
    };
    const blob = encodeInstruction(['blob', '1', 'x'.repeat(60_000)]);
    const pump = () => {
      while (state.flood && !socket.destroyed) {
        session.flooded += blob.length;
        if (!socket.write(blob)) {
          socket.once('drain', pump);
          return;
        }
      }
    };
    sessions.push(session);
    const reader = new InstructionReader();
    socket.on('close', () => {
      session.closed = true;
    });
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      for (const ins of reader.push(chunk).instructions) {
        session.received.push(ins);
        const [opcode, ...args] = ins;
        if (opcode === 'select') {
          if (args[0] !== 'rdp') return socket.destroy();
          socket.write(encodeInstruction(['args', ...GUACD_ARGS]));
        } else if (opcode === 'connect') {
          const handshake = session.received.slice(1, -1).map((i) => i[0]);
          const values = Object.fromEntries(GUACD_ARGS.map((name, i) => [name, args[i] ?? '']));
          session.connect = values;
          if (state.refuse || handshake.join(',') !== 'size,audio,video,image,timezone') {
            socket.end(encodeInstruction(['error', 'Aborted. See logs.', '519']));
            return;
          }
          // ready, then the first drawing in the same write (the proxy must not lose it)
          socket.write(
            encodeInstruction(['ready', '$c0ffee00-1111-2222-3333-444455556666']) +
              encodeInstruction(['size', 0, 1296, 765]) +
              encodeInstruction(['rect', 0, 0, 0, 1296, 765]) +
              encodeInstruction(['cfill', 14, 0, 0, 128, 255, 255]) +
              encodeInstruction(['sync', 1000]),
          );
        } else if (opcode === 'key') {
          socket.write(encodeInstruction(['sync', 2000]));
          if (state.flood) pump();
        }
      }
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return { sessions, state, close: () => new Promise<void>((r) => server.close(() => r())) };
}
