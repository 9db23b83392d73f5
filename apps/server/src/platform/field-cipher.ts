import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './config';

/**
 * Encryption at rest for the columns that must not be readable in a database dump (bank account
 * numbers, Aadhar, PAN, generated VM passwords): AES-256-GCM, one random IV per value.
 *
 * Keys come from FIELD_ENCRYPTION_KEYS as `id:base64key,id:base64key`; the first encrypts, all of
 * them decrypt. Rotation without downtime: put a new key first, keep the old ones after it, and
 * re-encrypt stored values at leisure (`needsRotation` tells which). Without the variable (the
 * embedded default) one key is created in DATA_DIR on first start and kept there.
 *
 * A stored value reads `fc1.<key id>.<iv>.<tag>.<ciphertext>` (base64url parts).
 */
export interface FieldKey {
  id: string;
  key: Buffer;
}

const PREFIX = 'fc1';

export class FieldCipher {
  private readonly byId: Map<string, Buffer>;
  constructor(private readonly keys: FieldKey[]) {
    if (!keys.length) throw new Error('FieldCipher needs at least one key');
    for (const k of keys) if (k.key.length !== 32) throw new Error(`field key ${k.id} must be 32 bytes`);
    this.byId = new Map(keys.map((k) => [k.id, k.key]));
  }

  encrypt(plain: string): string {
    const current = this.keys[0]!;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', current.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url'));
    return [PREFIX, current.id, ...parts].join('.');
  }

  decrypt(stored: string): string {
    const [prefix, id, iv, tag, data] = stored.split('.');
    const key = id ? this.byId.get(id) : undefined;
    if (prefix !== PREFIX || !key || iv === undefined || tag === undefined || data === undefined) {
      throw new Error('A stored value cannot be decrypted with the configured keys');
    }
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** True when the value was written with a key other than the current one. */
  needsRotation(stored: string): boolean {
    return stored.split('.')[1] !== this.keys[0]!.id;
  }
}

export function parseFieldKeys(value: string): FieldKey[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const [id, b64] = entry.split(':');
      if (!id || !b64) throw new Error('FIELD_ENCRYPTION_KEYS entries are id:base64key');
      return { id, key: Buffer.from(b64, 'base64') };
    });
}

/**
 * Creates `file` with `content` unless it exists, atomically: the content is written to a file of
 * this process's own, then linked to the name, which fails when another process linked first. Of
 * several instances starting together on one data folder exactly one key is made; the others read it.
 */
export function createFileOnce(file: string, content: string): void {
  if (existsSync(file)) return;
  mkdirSync(path.dirname(file), { recursive: true });
  const mine = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(mine, content, { mode: 0o600 });
  try {
    linkSync(mine, file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  } finally {
    unlinkSync(mine);
  }
}

/** The cipher of this server: FIELD_ENCRYPTION_KEYS, else a key kept in DATA_DIR (created once). */
export function createFieldCipher(config: Pick<Config, 'FIELD_ENCRYPTION_KEYS' | 'DATA_DIR'>): FieldCipher {
  if (config.FIELD_ENCRYPTION_KEYS) return new FieldCipher(parseFieldKeys(config.FIELD_ENCRYPTION_KEYS));
  const file = path.resolve(config.DATA_DIR, 'field-encryption.key');
  createFileOnce(file, `local:${randomBytes(32).toString('base64')}\n`);
  return new FieldCipher(parseFieldKeys(readFileSync(file, 'utf8')));
}
