import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createBackup } from '../../platform/backup';
import type { Deps } from '../../platform/deps';
import { sendRefusal } from '../../platform/errors';

export const BACKUP_TOKEN_FILE = 'backup.token';
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * POST /internal/backup: the running server writes a backup and sends it. `npm run backup` uses it on
 * the embedded database, whose folder only this process may open. Asked from this machine only, with
 * the token this process wrote in DATA_DIR (whoever can read it can read the data anyway).
 */
export function backupRoute(app: FastifyInstance, deps: Deps): void {
  if (deps.database.kind !== 'pglite') return;
  const token = randomBytes(32).toString('hex');
  mkdirSync(deps.config.DATA_DIR, { recursive: true });
  writeFileSync(path.join(deps.config.DATA_DIR, BACKUP_TOKEN_FILE), token, { mode: 0o600 });
  app.post('/internal/backup', async (request, reply) => {
    const given = Buffer.from(String(request.headers['x-backup-token'] ?? ''));
    const local = LOOPBACK.has(request.socket.remoteAddress ?? '') && !request.headers['x-forwarded-for'];
    if (!local || given.length !== token.length || !timingSafeEqual(given, Buffer.from(token))) {
      return sendRefusal(reply, 404, 'Not Found');
    }
    const dir = await mkdtemp(path.join(tmpdir(), 'trainlab-send-'));
    const archive = path.join(dir, 'backup.tar.gz');
    await createBackup({ database: deps.database, filesDir: path.join(deps.config.DATA_DIR, 'files') }, archive);
    const stream = createReadStream(archive);
    stream.on('close', () => void rm(dir, { recursive: true, force: true }));
    return reply.type('application/gzip').send(stream);
  });
}
