// Installs npm packages when node_modules is missing or older than the lock file.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

export function ensureInstall() {
  const marker = 'node_modules/.package-lock.json';
  const stale = !existsSync(marker) || statSync('package-lock.json').mtimeMs > statSync(marker).mtimeMs;
  if (stale) {
    console.log('Installing npm packages…');
    execSync('npm install --no-audit --no-fund', { stdio: 'inherit' });
  }
}
