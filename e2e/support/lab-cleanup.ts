import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';

/**
 * After the journeys: the labs the server under test left on the container engine (a journey that
 * failed half-way, a lab a journey started and never deleted) go, containers and home volumes. Only
 * this run's: the engine labels them with the install's namespace, derived from the data folder as
 * the server derives it (apps/server/src/adapters/labs/container.ts, labNamespace).
 */
export default function removeThisRunsLabs(): void {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) return;
  const ns = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 10);
  const filter = `label=org.trainlab.install=${ns}`;
  const ids = (args: string[]) =>
    spawnSync('docker', [...args, '-q', '--filter', filter], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter(Boolean);
  const containers = ids(['ps', '-a']);
  if (containers.length) spawnSync('docker', ['rm', '-f', ...containers]);
  const volumes = ids(['volume', 'ls']);
  if (volumes.length) spawnSync('docker', ['volume', 'rm', '-f', ...volumes]);
}
