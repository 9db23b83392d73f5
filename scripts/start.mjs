// npm start: install what is missing, build the web app and the server, then serve both on one
// port. The server applies migrations and seeds demo data on first start (not in production).
import { execSync, spawn } from 'node:child_process';
import { ensureInstall } from './ensure-install.mjs';

ensureInstall();
console.log('Building…');
execSync('npm run build', { stdio: 'inherit' });
const child = spawn(process.execPath, ['apps/server/dist/main.js'], { stdio: 'inherit', env: process.env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
