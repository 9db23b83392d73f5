import { openLabSocket } from '../test/lab-sockets';

/**
 * A shell in a lab through the product's own terminal socket (/ws/labs/terminal at `base`):
 * run(cmd) answers what the command printed.
 */
export async function labShell(base: string, name: string, token: string) {
  const { ws } = await openLabSocket(base, 'terminal', name, token);
  let out = '';
  let lastAt = Date.now();
  ws.on('message', (d) => {
    out += d.toString();
    lastAt = Date.now();
  });
  // the first command is typed once the terminal has drawn its screen and gone quiet, as a person
  // types after the prompt: keys sent while tmux is still attaching can be dropped with its setup
  const ready = Date.now() + 15_000;
  while (Date.now() < ready && (!out || Date.now() - lastAt < 400)) await new Promise((r) => setTimeout(r, 50));
  let n = 0;
  const run = async (cmd: string, ms = 20_000): Promise<string> => {
    const mark = `__done_${++n}_${Math.random().toString(36).slice(2, 8)}`;
    const from = out.length;
    // the mark is printed by the shell, not echoed as typed: split so the typed line never matches
    ws.send(JSON.stringify({ type: 'data', data: `${cmd}; echo "${mark.slice(0, 4)}""${mark.slice(4)}"\n` }));
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const seen = plain(out.slice(from));
      const at = seen.lastIndexOf(`${mark}\r\n`);
      if (at >= 0) {
        // what the command printed, without the terminal's echo of the typed line (which holds the
        // words the checks look for, such as CLOSED, and would make every check pass)
        const printed = seen.slice(0, at);
        const echoed = printed.indexOf(`"${mark.slice(4)}"`);
        return echoed >= 0 ? printed.slice(printed.indexOf('\n', echoed) + 1) : printed;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no answer to ${cmd}: ${plain(out.slice(from))}`);
  };
  return { run, close: () => ws.close(), ws };
}

const ESC = String.fromCharCode(27);
const BEL = String.fromCharCode(7);
const MOVES = new RegExp(`${ESC}\\[[0-9;]*[Hdf]`, 'g');
const CONTROLS = new RegExp(
  [
    `${ESC}\\[[0-9;?<>=]*[ -/]*[@-~]`, // every other CSI sequence: colours, erases, modes
    `${ESC}\\][^${BEL}${ESC}]*(?:${BEL}|${ESC}\\\\)`, // OSC: window titles
    `${ESC}[()][A-Z0-9]`, // charsets
    `${ESC}[=>78MDEc]`, // keypad modes, saved cursors, scrolls
  ].join('|'),
  'g',
);
/**
 * The text of a terminal's output without its control sequences: the shell runs in tmux, which
 * redraws a screen with cursor moves (read as line breaks) and erases (dropped) between the words.
 */
export const plain = (raw: string) => raw.replace(MOVES, '\r\n').replace(CONTROLS, '');

/**
 * What a TCP connection from inside the lab to target (host:port) gives: OPEN or CLOSED (the words
 * split in the typed command, so only the answer holds them whole).
 */
export const connectCommand = (target: string) =>
  `socat -T2 -u OPEN:/dev/null TCP:${target},connect-timeout=2 2>/dev/null && echo "OP""EN" || echo "CLO""SED"`;
