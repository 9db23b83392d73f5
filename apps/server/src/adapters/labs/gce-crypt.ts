import { createHash, randomBytes } from 'node:crypto';

/**
 * SHA-512 crypt (`$6$`, as glibc's crypt(3) and `chpasswd -e` read it): a Linux lab's password
 * reaches the machine's start-up script only as this hash, so the metadata Google keeps (and any
 * log of the request) never holds the password itself.
 */
const B64 = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ROUNDS = 5000;
const sha512 = (...parts: Buffer[]) => {
  const h = createHash('sha512');
  for (const p of parts) h.update(p);
  return h.digest();
};
/** `length` bytes of `digest` repeated (the algorithm's P and S sequences) */
const repeat = (digest: Buffer, length: number) => {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i += 64) digest.copy(out, i, 0, Math.min(64, length - i));
  return out;
};
// the byte order of the final 86-character encoding, three bytes at a time
const ORDER = [
  [0, 21, 42],
  [22, 43, 1],
  [44, 2, 23],
  [3, 24, 45],
  [25, 46, 4],
  [47, 5, 26],
  [6, 27, 48],
  [28, 49, 7],
  [50, 8, 29],
  [9, 30, 51],
  [31, 52, 10],
  [53, 11, 32],
  [12, 33, 54],
  [34, 55, 13],
  [56, 14, 35],
  [15, 36, 57],
  [37, 58, 16],
  [59, 17, 38],
  [18, 39, 60],
  [40, 61, 19],
  [62, 20, 41],
] as const;
const encode = (value: number, chars: number) => {
  let out = '';
  let v = value;
  for (let i = 0; i < chars; i++) {
    out += B64[v & 63];
    v >>= 6;
  }
  return out;
};

export function sha512Crypt(password: string, salt = randomSalt()): string {
  const p = Buffer.from(password, 'utf8');
  const s = Buffer.from(salt.slice(0, 16), 'utf8');
  const b = sha512(p, s, p);
  const a = createHash('sha512').update(p).update(s);
  for (let n = p.length; n > 0; n -= 64) a.update(n > 64 ? b : b.subarray(0, n));
  for (let n = p.length; n > 0; n >>= 1) a.update(n & 1 ? b : p);
  let digest = a.digest();
  const dp = createHash('sha512');
  for (let i = 0; i < p.length; i++) dp.update(p);
  const pSeq = repeat(dp.digest(), p.length);
  const ds = createHash('sha512');
  for (let i = 0; i < 16 + digest[0]!; i++) ds.update(s);
  const sSeq = repeat(ds.digest(), s.length);
  for (let r = 0; r < ROUNDS; r++) {
    const c = createHash('sha512');
    c.update(r & 1 ? pSeq : digest);
    if (r % 3) c.update(sSeq);
    if (r % 7) c.update(pSeq);
    c.update(r & 1 ? digest : pSeq);
    digest = c.digest();
  }
  let out = '';
  for (const [i, j, k] of ORDER) out += encode((digest[i]! << 16) | (digest[j]! << 8) | digest[k]!, 4);
  out += encode(digest[63]!, 2);
  return `$6$${s.toString('utf8')}$${out}`;
}

function randomSalt(): string {
  return Array.from(randomBytes(16), (x) => B64[x & 63]).join('');
}
