// npm start: install what is missing, build what changed since the last build (web app, server),
// then serve both on one port. The server applies migrations and seeds demo data on first start
// (not in production).
// first: an older node is refused here, before anything is installed or built
import './node-check.mjs';
import { execSync, spawn } from 'node:child_process';
import { BUILDS, inputHash, stamp, upToDate } from './build-stamp.mjs';
import { ensureInstall } from './ensure-install.mjs';

ensureInstall();
for (const build of BUILDS) {
  const hash = inputHash(build);
  if (upToDate(build, hash)) {
    console.log(`${build.workspace}: unchanged since its last build`);
    continue;
  }
  console.log(`Building ${build.workspace}…`);
  // Always a production build, whatever the caller's shell says: Vite builds React's development
  // bundle (three times the size, slower) when it finds NODE_ENV=development.
  execSync(`npm run build -w ${build.workspace}`, {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  stamp(build, hash);
}
const child = spawn(process.execPath, ['apps/server/dist/main.js'], { stdio: 'inherit', env: process.env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
