import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { JANUS_BIN, JANUS_MISSING, JANUS_PP_REC_BIN, startJanus } from '../../../scripts/janus-local.mjs';
import type { JanusEngine } from '../src/adapters/meeting/janus';

/**
 * A real Janus for the tests (scripts/janus-local.mjs). No skipping: without the Debian packages the
 * test file fails and says what to install.
 */
export async function localJanus(opts: Parameters<typeof startJanus>[0] = {}) {
  if (!existsSync(JANUS_BIN) || !existsSync(JANUS_PP_REC_BIN)) throw new Error(JANUS_MISSING);
  return startJanus(opts);
}

/**
 * A publisher whose media is plain RTP sent to Janus (VideoRoom `add_remote_publisher`, the
 * mechanism Janus uses between its own servers): unlike a browser it needs no ICE or DTLS, so Node
 * can play one. `display` is what our relay would give the page's publisher (`{peer}:{source}`).
 * Janus tells a remote publisher's streams apart by SSRC: 1000 + 10 × the m-line index.
 */
export async function remotePublisher(engine: JanusEngine, room: number, secret: string, display: string) {
  const handle = await engine.attach();
  const res = (await handle.message({
    request: 'add_remote_publisher',
    room,
    secret,
    display,
    iface: '127.0.0.1',
    streams: [
      { type: 'audio', mindex: 0, mid: '0', codec: 'opus' },
      { type: 'video', mindex: 1, mid: '1', codec: 'vp8' },
    ],
  })) as { plugindata: { data: { id: number; port: number } } };
  const { id, port } = res.plugindata.data;
  return {
    id,
    port,
    /**
     * `seconds` of a tone and a test picture (Opus + VP8) as RTP, in real time; `started` settles
     * once ffmpeg has sent its first frames (it takes seconds to begin on a busy machine).
     */
    send(seconds: number): Promise<void> & { started: Promise<void> } {
      const input = (lavfi: string) => ['-re', '-t', String(seconds), '-f', 'lavfi', '-i', lavfi];
      const args = [
        '-hide_banner',
        '-loglevel',
        'error',
        ...input('sine=frequency=440:sample_rate=48000'),
        ...input('testsrc=size=320x240:rate=15'),
        ...['-map', '0:a', '-c:a', 'libopus', '-payload_type', '111', '-ssrc', '1000'],
        ...['-f', 'rtp', `rtp://127.0.0.1:${port}`],
        ...['-map', '1:v', '-c:v', 'libvpx', '-deadline', 'realtime', '-b:v', '300k'],
        ...['-payload_type', '96', '-ssrc', '1010', '-f', 'rtp', `rtp://127.0.0.1:${port}`],
      ];
      let began!: () => void;
      const started = new Promise<void>((resolve) => {
        began = resolve;
      });
      const done = new Promise<void>((resolve, reject) => {
        const ff = spawn('ffmpeg', ['-progress', 'pipe:1', '-stats_period', '0.2', ...args], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        ff.stdout.on('data', (d) => {
          if (/^frame=[1-9]/m.test(String(d))) began();
        });
        let err = '';
        ff.stderr.on('data', (d) => {
          err += d;
        });
        ff.once('error', reject);
        ff.once('exit', (code) => {
          began();
          code === 0 ? resolve() : reject(new Error(`ffmpeg ${code}: ${err}`));
        });
      });
      return Object.assign(done, { started });
    },
    async remove() {
      await handle.message({ request: 'remove_remote_publisher', room, secret, id }).catch(() => {});
      await handle.detach().catch(() => {});
    },
  };
}
