import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestEntry {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

/**
 * The JavaScript a browser must download before the first page can run: the entry chunk and every
 * chunk it imports statically (lazily imported screens excluded), read from Vite's build manifest.
 * Sizes are gzip level 9, as the server sends them.
 */
export function firstLoadJs(dist: string): { files: { file: string; gzip: number }[]; total: number } {
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    ManifestEntry
  >;
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (!entry) throw new Error('the build manifest names no entry');
  const seen = new Set<string>();
  const walk = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const i of manifest[key]!.imports ?? []) walk(i);
  };
  walk(entry);
  const files = [...seen]
    .map((k) => manifest[k]!.file)
    .filter((f) => f.endsWith('.js'))
    .map((file) => ({ file, gzip: gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length }));
  return { files, total: files.reduce((n, f) => n + f.gzip, 0) };
}
