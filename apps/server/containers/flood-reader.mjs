// A browser that stops reading, in a process of its own (labs-holding.test.ts), so that what it
// receives and throws away is not counted in the server's memory: the test's process is the server.
//
//   node flood-reader.mjs <ws base> <terminal|vnc> <lab name> <token> <seconds paused>
//
// It opens the lab socket, makes the lab send as much as it can (the terminal: a command that prints
// without end; the desktop: whole-screen raw updates asked every 20 ms), reads for 1 s, then stops
// reading its TCP socket and prints "paused"; after the given seconds it reads again for 2 s and
// prints one JSON line: the bytes received up to the pause and in all.
import WebSocket from 'ws';

const [base, kind, name, token, pausedFor] = process.argv.slice(2);
const wait = (ms) => new Promise((r) => setTimeout(r, ms));
const ws = new WebSocket(`${base}/ws/labs/${kind}/${name}`, [
  kind === 'terminal' ? 'tl-terminal' : 'binary',
  `auth.${token}`,
]);
let received = 0;
ws.on('message', (d) => {
  received += d.length;
});
ws.on('error', (e) => {
  console.error(`flood-reader: ${e.message}`);
  process.exit(1);
});
await new Promise((resolve) => ws.once('open', resolve));

let asking;
if (kind === 'terminal') {
  // the largest terminal the server allows: each screen the multiplexer draws is as large as it gets
  ws.send(JSON.stringify({ type: 'resize', cols: 500, rows: 500 }));
  await wait(300);
  ws.send(JSON.stringify({ type: 'data', data: 'cat /dev/urandom | base64 -w 499\n' }));
} else {
  // RFB 3.8, security None, a shared ClientInit, then raw pixels only (the largest updates)
  ws.send(Buffer.from('RFB 003.008\n'));
  await wait(300);
  ws.send(Buffer.from([1]));
  await wait(300);
  ws.send(Buffer.from([1]));
  await wait(300);
  ws.send(Buffer.from([2, 0, 0, 1, 0, 0, 0, 0]));
  // a whole-screen, non-incremental update request (a few MB of raw pixels each)
  const full = Buffer.from([3, 0, 0, 0, 0, 0, 0x10, 0, 0x10, 0]);
  asking = setInterval(() => ws.send(full), 20);
}
await wait(1000);
// the client's own TCP socket (ws keeps it as _socket): paused, this side reads nothing
ws._socket.pause();
console.log('paused');
await wait(Number(pausedFor) * 1000);
clearInterval(asking);
const atPause = received;
ws._socket.resume();
await wait(2000);
console.log(JSON.stringify({ atPause, total: received }));
ws.close();
process.exit(0);
