/**
 * The client half of an RFB (VNC) connection, read message by message so that a view-only
 * watcher's input never reaches the lab: key and pointer events, clipboard, desktop resizes and
 * power requests are dropped here, on the server, whatever the browser sends. What a viewer needs
 * (pixel format, encodings, update requests, fences) passes. The watcher also always asks for a
 * shared session, so it cannot push the learner out. Anything not understood ends the connection.
 *
 * Handshake (RFB 3.7/3.8): 12 bytes of version, 1 byte of security type (None 1, VNC 2 with a
 * 16-byte response), 1 byte ClientInit; then client messages by type (RFC 6143 §7.5 and the
 * community extensions noVNC speaks).
 */
export class ViewOnlyViolation extends Error {}

type Stage = 'version' | 'security' | 'vnc-auth' | 'init' | 'messages';

const u16 = (b: Buffer, at: number) => b.readUInt16BE(at);

/** Length of the complete message at the head of `b`, or null while it is incomplete. */
function messageLength(b: Buffer): number | null {
  const type = b[0]!;
  const need = (n: number) => (b.length >= n ? n : null);
  switch (type) {
    case 0: // SetPixelFormat
      return need(20);
    case 2: // SetEncodings: count at 2
      return b.length < 4 ? null : need(4 + 4 * u16(b, 2));
    case 3: // FramebufferUpdateRequest
      return need(10);
    case 4: // KeyEvent
      return need(8);
    case 5: // PointerEvent
      return need(6);
    case 6: {
      // ClientCutText: signed length at 4 (negative: extended clipboard)
      if (b.length < 8) return null;
      return need(8 + Math.abs(b.readInt32BE(4)));
    }
    case 150: // EnableContinuousUpdates
      return need(10);
    case 248: // Fence: payload length at 8
      return b.length < 9 ? null : need(9 + b[8]!);
    case 250: // xvp (shutdown, reboot, reset)
      return need(4);
    case 251: // SetDesktopSize: screens at 6
      return b.length < 8 ? null : need(8 + 16 * b[6]!);
    case 255: {
      // QEMU: key event (sub 0) or audio (sub 1)
      if (b.length < 2) return null;
      if (b[1] === 0) return need(12);
      if (b[1] === 1) return b.length < 4 ? null : need(u16(b, 2) === 2 ? 10 : 4);
      throw new ViewOnlyViolation('unknown QEMU message');
    }
    default:
      throw new ViewOnlyViolation(`unknown client message ${type}`);
  }
}

/** Message types a watcher may send to the lab. */
const PASSES = new Set([0, 2, 3, 150, 248]);

export class RfbViewOnlyFilter {
  private stage: Stage = 'version';
  private pending: Buffer = Buffer.alloc(0);
  /** how many input messages were dropped (for tests and logs) */
  dropped = 0;

  /** Takes bytes from the watcher and answers the bytes that may go on to the lab. */
  push(chunk: Buffer): Buffer {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const out: Buffer[] = [];
    for (;;) {
      const b = this.pending;
      if (!b.length) break;
      let take: number | null;
      let pass: Buffer | null = null;
      switch (this.stage) {
        case 'version': {
          take = b.length >= 12 ? 12 : null;
          if (take == null) break;
          const version = b.subarray(0, 12).toString('latin1');
          if (!/^RFB 003\.00[78]\n$/.test(version)) throw new ViewOnlyViolation('unsupported RFB version');
          pass = b.subarray(0, 12);
          this.stage = 'security';
          break;
        }
        case 'security': {
          take = 1;
          if (b[0] === 1) this.stage = 'init';
          else if (b[0] === 2) this.stage = 'vnc-auth';
          else throw new ViewOnlyViolation('unsupported security type');
          pass = b.subarray(0, 1);
          break;
        }
        case 'vnc-auth':
          take = b.length >= 16 ? 16 : null;
          pass = take ? b.subarray(0, 16) : null;
          if (take) this.stage = 'init';
          break;
        case 'init':
          take = 1;
          // ClientInit shared-flag: always shared, the learner stays connected
          pass = Buffer.from([1]);
          this.stage = 'messages';
          break;
        default: {
          take = messageLength(b);
          if (take == null) break;
          if (PASSES.has(b[0]!)) pass = b.subarray(0, take);
          else {
            pass = null;
            this.dropped++;
          }
        }
      }
      if (take == null) break;
      if (pass) out.push(Buffer.from(pass));
      this.pending = b.subarray(take);
    }
    // an incomplete message larger than any a viewer needs is not waited for
    if (this.pending.length > 1 << 20) throw new ViewOnlyViolation('message too large');
    return out.length === 1 ? out[0]! : Buffer.concat(out);
  }
}
