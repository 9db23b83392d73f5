import { openLabSocket } from '../test/lab-sockets';

/**
 * A shell in a lab through the product's own terminal socket (/ws/labs/terminal at `base`):
 * run(cmd) answers what the command printed.
 */
export async function labShell(base: string, name: string, token: string) {
  const { ws } = await openLabSocket(base, 'terminal', name, token);
  let out = '';
  ws.on('message', (d) => {
    out += d.toString();
  });
  let n = 0;
  const run = async (cmd: string, ms = 20_000): Promise<string> => {
    const mark = `__done_${++n}_${Math.random().toString(36).slice(2, 8)}`;
    const from = out.length;
    // the mark is printed by the shell, not echoed as typed: split so the typed line never matches
    ws.send(JSON.stringify({ type: 'data', data: `${cmd}; echo "${mark.slice(0, 4)}""${mark.slice(4)}"\n` }));
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const seen = out.slice(from);
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
    throw new Error(`no answer to ${cmd}: ${out.slice(from)}`);
  };
  return { run, close: () => ws.close() };
}

/**
 * What a TCP connection from inside the lab to target (host:port) gives: OPEN or CLOSED (the words
 * split in the typed command, so only the answer holds them whole).
 */
export const connectCommand = (target: string) =>
  `socat -T2 -u OPEN:/dev/null TCP:${target},connect-timeout=2 2>/dev/null && echo "OP""EN" || echo "CLO""SED"`;
