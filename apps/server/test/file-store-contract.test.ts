import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskFileStore, FileNotFound, type FileStore } from '../src/adapters/files';
import { S3_MIN_PART, S3FileStore } from '../src/adapters/files/s3-store';
import { privateDataDir } from '../src/platform/data-dir';
import { startS3 } from './s3-support';

const bytesOf = async (r: Readable) => {
  const chunks: Buffer[] = [];
  for await (const c of r) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};
const pattern = (n: number, seed = 1) => {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed) & 0xff;
  return b;
};

let s3: Awaited<ReturnType<typeof startS3>>;
const diskRoot = mkdtempSync(path.join(tmpdir(), 'tl-files-contract-'));
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => {
  await s3.close();
  rmSync(diskRoot, { recursive: true, force: true });
});

/** The same behaviour from every engine: what the rest of the server relies on. */
const engines: [string, () => FileStore][] = [
  ['disk', () => new DiskFileStore(diskRoot)],
  ['s3', () => new S3FileStore(s3.options)],
];

describe.each(engines)('FileStore contract: %s', (_name, make) => {
  it('put a buffer or a stream, stat, read whole and by inclusive byte range, delete', async () => {
    const store = make();
    expect(await store.stat('c/missing.bin')).toBeNull();
    await expect(store.read('c/missing.bin')).rejects.toBeInstanceOf(FileNotFound);
    expect(await store.put('c/a.bin', Buffer.from('hello world'))).toBe(11);
    expect(await store.stat('c/a.bin')).toEqual({ size: 11 });
    expect((await bytesOf(await store.read('c/a.bin'))).toString()).toBe('hello world');
    expect((await bytesOf(await store.read('c/a.bin', { start: 6, end: 10 }))).toString()).toBe('world');
    expect((await bytesOf(await store.read('c/a.bin', { start: 0, end: 0 }))).toString()).toBe('h');
    // a stream larger than one multipart part (S3) and than any single buffer the disk engine writes
    const big = pattern(9 * 1024 * 1024 + 123);
    const parts = [big.subarray(0, 3_000_000), big.subarray(3_000_000, 8_000_000), big.subarray(8_000_000)];
    expect(await store.put('c/big.bin', Readable.from(parts))).toBe(big.length);
    expect(await store.stat('c/big.bin')).toEqual({ size: big.length });
    const slice = await bytesOf(await store.read('c/big.bin', { start: 8_388_000, end: 8_389_999 }));
    expect(slice.equals(big.subarray(8_388_000, 8_390_000))).toBe(true);
    expect((await bytesOf(await store.read('c/big.bin'))).equals(big)).toBe(true);
    // replacing keeps one file
    expect(await store.put('c/a.bin', Readable.from([Buffer.from('new')]))).toBe(3);
    expect((await bytesOf(await store.read('c/a.bin'))).toString()).toBe('new');
    await store.delete('c/a.bin');
    await store.delete('c/a.bin');
    await store.delete('c/big.bin');
    expect(await store.stat('c/a.bin')).toBeNull();
  });

  it('append creates, grows small files and files past S3’s 5 MiB part size, byte for byte', async () => {
    const store = make();
    expect(await store.append('c/log.bin', Buffer.from('hello '))).toBe(6);
    expect(await store.append('c/log.bin', Buffer.from('world'))).toBe(11);
    expect((await bytesOf(await store.read('c/log.bin'))).toString()).toBe('hello world');
    const first = pattern(S3_MIN_PART + 1000, 3);
    const second = pattern(700_000, 5);
    const third = pattern(10, 7);
    expect(await store.append('c/video.bin', first)).toBe(first.length);
    expect(await store.append('c/video.bin', second)).toBe(first.length + second.length);
    expect(await store.append('c/video.bin', third)).toBe(first.length + second.length + third.length);
    const all = Buffer.concat([first, second, third]);
    expect((await bytesOf(await store.read('c/video.bin'))).equals(all)).toBe(true);
    const at = first.length - 5;
    expect(
      (await bytesOf(await store.read('c/video.bin', { start: at, end: at + 9 }))).equals(all.subarray(at, at + 10)),
    ).toBe(true);
    await store.delete('c/log.bin');
    await store.delete('c/video.bin');
  });

  it('refuses keys that could leave the store', async () => {
    const store = make();
    for (const key of ['../x', '/etc/passwd', 'a//b', '.hidden', 'a/../b', '']) {
      await expect(store.put(key, Buffer.from('x')), key).rejects.toThrow(/unsafe/);
      await expect(store.append(key, Buffer.from('x')), key).rejects.toThrow(/unsafe/);
      await expect(store.read(key), key).rejects.toThrow(/unsafe/);
    }
  });
});

describe('S3 presigned URLs', () => {
  it('answer the object and its byte ranges straight from S3, valid for the given seconds', async () => {
    const store = new S3FileStore(s3.options);
    await store.put('c/seg.ts', pattern(5000, 9));
    const url = await store.signedUrl('c/seg.ts', 60, 'video/mp2t');
    expect(url).toContain('X-Amz-Signature=');
    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp2t');
    expect(Buffer.from(await whole.arrayBuffer()).equals(pattern(5000, 9))).toBe(true);
    const part = await fetch(url, { headers: { range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(pattern(5000, 9).subarray(100, 200))).toBe(true);
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('60');
    await store.delete('c/seg.ts');
  });
});

describe('the disk store and the data folder are this account’s alone', () => {
  it('stored and appended files are 0600 in 0700 folders, whatever the umask; the data folder is made 0700', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'tl-files-modes-'));
    const old = process.umask(0o022);
    try {
      const store = new DiskFileStore(path.join(root, 'files'));
      await store.put('kyc/7/address-proof.png', Buffer.from('image'));
      await store.append('uploads/9/video.part', Buffer.from('chunk'));
      const mode = (p: string) => statSync(path.join(root, 'files', p)).mode & 0o777;
      expect(mode('kyc/7/address-proof.png')).toBe(0o600);
      expect(mode('uploads/9/video.part')).toBe(0o600);
      for (const dir of ['kyc', 'kyc/7', 'uploads', 'uploads/9']) expect(mode(dir), dir).toBe(0o700);
      // a data folder left open by an earlier version (or made by hand) is closed at start
      const data = path.join(root, 'data');
      mkdirSync(data, { mode: 0o755 });
      chmodSync(data, 0o755);
      privateDataDir(data);
      expect(statSync(data).mode & 0o777).toBe(0o700);
    } finally {
      process.umask(old);
      rmSync(root, { recursive: true, force: true });
    }
  });
});
