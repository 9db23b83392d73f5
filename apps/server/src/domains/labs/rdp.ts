import { randomUUID } from 'node:crypto';
import { VM_DISPLAY } from '@trainlab/contract';
import type { FastifyRequest } from 'fastify';
import { encodeInstruction, GuacdError, InstructionReader, openGuacd } from '../../adapters/labs/guacamole';
import type { Deps } from '../../platform/deps';
import { fromBrowser as inputTo, toBrowser } from './flow';
import { activity, admit, inbox, type WebSocket } from './socket-admission';

/**
 * /ws/labs/rdp/{name}: a Windows lab's desktop in the browser (guacamole-common-js, WebSocket
 * subprotocol `guacamole`) through the Guacamole daemon guacd (GUACD_HOST). The socket is admitted
 * like the other lab sockets; our server then does guacd's handshake with the lab's address and
 * login, so the password stays on the server, and relays whole instructions both ways.
 * Refusals close with our code (4401, 4404, 4409, 4503) and, as the reason, the Guacamole status
 * code guacamole-common-js reads from it.
 */
export const GUAC_STATUS: Record<number, number> = {
  4401: 0x0301, // CLIENT_UNAUTHORIZED
  4404: 0x0204, // RESOURCE_NOT_FOUND
  4409: 0x0205, // RESOURCE_CONFLICT: the lab is not started
  4503: 0x0207, // UPSTREAM_NOT_FOUND: no gateway, or the lab did not answer
  1011: 0x0200, // SERVER_ERROR
};

/** the instructions of the browser's that guacd may receive: input, clipboard and stream replies */
const RELAYED = new Set([
  'key',
  'mouse',
  'touch',
  'size',
  'clipboard',
  'blob',
  'end',
  'ack',
  'sync',
  'disconnect',
  'nop',
  'argv',
]);
const INPUT = new Set(['key', 'mouse', 'touch', 'clipboard']);

/** closes with the Guacamole status as the reason, so the browser's tunnel reports it */
function guacClosing(socket: WebSocket): WebSocket {
  return {
    get readyState() {
      return socket.readyState;
    },
    get OPEN() {
      return socket.OPEN;
    },
    send: (data, done) => socket.send(data, done),
    close: (code = 1000) => socket.close(code, String(GUAC_STATUS[code] ?? 0)),
    pause: () => socket.pause?.(),
    resume: () => socket.resume?.(),
    terminate: () => socket.terminate?.(),
    on: ((event: 'message' | 'close' | 'error', listener: () => void) =>
      socket.on(event as 'close', listener)) as WebSocket['on'],
  };
}

export async function rdp(deps: Deps, raw: WebSocket, request: FastifyRequest): Promise<void> {
  const socket = guacClosing(raw);
  const onMessages = inbox(socket);
  const admitted = await admit(deps, request, socket);
  if (!admitted) return;
  const { vm } = admitted;
  if (!deps.config.GUACD_HOST) {
    socket.close(4503);
    return;
  }
  const endpoint = await deps.labs
    .connection(vm.engine_ref ?? vm.vm_name)
    .catch(() => ({}) as { rdp?: { host: string; port: number } });
  if (!endpoint.rdp) {
    socket.close(4503);
    return;
  }
  let guacd: Awaited<ReturnType<typeof openGuacd>>;
  try {
    guacd = await openGuacd(
      { host: deps.config.GUACD_HOST, port: deps.config.GUACD_PORT },
      {
        host: endpoint.rdp.host,
        port: endpoint.rdp.port,
        username: vm.username ?? vm.vm_name,
        password: vm.password_enc ? deps.cipher.decrypt(vm.password_enc) : '',
        width: VM_DISPLAY.width,
        height: VM_DISPLAY.height,
      },
    );
  } catch (e) {
    if (!(e instanceof GuacdError)) throw e;
    socket.close(4503);
    return;
  }
  if (socket.readyState !== socket.OPEN) {
    guacd.socket.destroy();
    return;
  }
  const track = activity(deps, vm);
  void track.opened();
  const end = () => {
    track.closed();
    guacd.socket.destroy();
    if (socket.readyState === socket.OPEN) socket.close(1000);
  };
  // the tunnel's id comes first (an internal instruction with an empty opcode); then the screen
  socket.send(encodeInstruction(['', randomUUID()]));
  if (guacd.rest) socket.send(guacd.rest);
  // a browser that stops reading pauses guacd's socket (flow.ts), which then stops drawing
  const send = toBrowser(socket, guacd.socket);
  const toGuacd = inputTo(socket, guacd.socket);
  guacd.socket.on('data', (chunk: Buffer) => {
    try {
      const { raw } = guacd.reader.push(chunk);
      if (raw) send(raw);
    } catch {
      end();
    }
  });
  guacd.socket.on('close', end);
  guacd.socket.on('error', end);
  const fromBrowser = new InstructionReader();
  onMessages((data) => {
    let parsed: ReturnType<InstructionReader['push']>;
    try {
      parsed = fromBrowser.push(data.toString('utf8'));
    } catch {
      end();
      return;
    }
    let out = '';
    for (const [opcode, ...args] of parsed.instructions) {
      if (opcode === '') {
        // the tunnel's keep-alive is answered here, never sent to guacd
        if (args[0] === 'ping') send(encodeInstruction(['', 'ping', args[1] ?? '']));
        continue;
      }
      if (!opcode || !RELAYED.has(opcode)) continue;
      if (INPUT.has(opcode)) track.input();
      out += encodeInstruction([opcode, ...args]);
    }
    if (out) toGuacd(out);
  });
  socket.on('close', end);
  socket.on('error', end);
}
