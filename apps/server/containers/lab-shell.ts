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
    const id = `${++n}_${Math.random().toString(36).slice(2, 8)}`;
    const start = `__from_${id}`;
    const mark = `__done_${id}`;
    const from = out.length;
    // both marks are printed by the shell, not echoed as typed (split so the typed line never
    // matches): what lies between the printed ones is the command's own output, whatever the
    // terminal did with the typed line (wrapped, redrawn by tmux after a backlog)
    const split = (m: string) => `"${m.slice(0, 4)}""${m.slice(4)}"`;
    ws.send(JSON.stringify({ type: 'data', data: `echo ${split(start)}; ${cmd}; echo ${split(mark)}\n` }));
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const seen = plain(out.slice(from));
      const at = seen.lastIndexOf(`${mark}\r\n`);
      const began = at >= 0 ? seen.lastIndexOf(`${start}\r\n`, at) : -1;
      if (began >= 0) return seen.slice(began + start.length + 2, at);
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
