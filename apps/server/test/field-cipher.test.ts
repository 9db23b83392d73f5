import { randomBytes } from 'node:crypto';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/platform/config';
import { createFieldCipher, FieldCipher, parseFieldKeys } from '../src/platform/field-cipher';

const key = () => randomBytes(32);

describe('field encryption at rest', () => {
  it('round-trips, never stores the plain text, and uses a new IV each time', () => {
    const c = new FieldCipher([{ id: 'k1', key: key() }]);
    const a = c.encrypt('1234567890123');
    const b = c.encrypt('1234567890123');
    expect(a).not.toContain('1234567890123');
    expect(a).not.toBe(b);
    expect(c.decrypt(a)).toBe('1234567890123');
  });

  it('rotates: a new first key encrypts, old values still decrypt and are flagged for rotation', () => {
    const old = { id: 'old', key: key() };
    const before = new FieldCipher([old]).encrypt('secret');
    const rotated = new FieldCipher([{ id: 'new', key: key() }, old]);
    expect(rotated.decrypt(before)).toBe('secret');
    expect(rotated.needsRotation(before)).toBe(true);
    expect(rotated.needsRotation(rotated.encrypt('secret'))).toBe(false);
  });

  it('refuses a tampered value and an unknown key', () => {
    const c = new FieldCipher([{ id: 'k1', key: key() }]);
    const v = c.encrypt('secret');
    const parts = v.split('.');
    parts[4] = Buffer.from('xxxxxx').toString('base64url');
    expect(() => c.decrypt(parts.join('.'))).toThrow();
    expect(() => new FieldCipher([{ id: 'k2', key: key() }]).decrypt(v)).toThrow();
  });

  it('reads FIELD_ENCRYPTION_KEYS and refuses a malformed one at start', () => {
    const k = key().toString('base64');
    expect(parseFieldKeys(`a:${k}, b:${k}`).map((x) => x.id)).toEqual(['a', 'b']);
    expect(() => loadConfig({ FIELD_ENCRYPTION_KEYS: 'nokey' })).toThrow(/FIELD_ENCRYPTION_KEYS/);
  });

  it('without keys configured, keeps one key in DATA_DIR, readable only by the owner, the same on restart', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tl-keys-'));
    const one = createFieldCipher({ DATA_DIR: dir, FIELD_ENCRYPTION_KEYS: undefined });
    const stored = one.encrypt('x');
    const again = createFieldCipher({ DATA_DIR: dir, FIELD_ENCRYPTION_KEYS: undefined });
    expect(again.decrypt(stored)).toBe('x');
    expect(statSync(path.join(dir, 'field-encryption.key')).mode & 0o077).toBe(0);
  });
});
