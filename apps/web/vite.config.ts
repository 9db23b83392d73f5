import { cpSync, createReadStream, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { likelyNextFiles } from './build/likely-next-files';
import { NEXT_FILES_ID, NEXT_MODULES } from './src/app/likely-next';

/** Must match EXCALIDRAW_ASSET_DIR in src/features/conference/whiteboard-scene.ts. */
const EXCALIDRAW_ASSET_DIR = 'excalidraw-assets';

/**
 * Excalidraw loads its fonts from `window.EXCALIDRAW_ASSET_PATH` (by default a public CDN). The web
 * app sets that path to /excalidraw-assets/, and this plugin puts the package's font files there:
 * copied into the build, served from node_modules by the dev server. Nothing is fetched from outside.
 */
function excalidrawAssets(): Plugin {
  const fontsDir = path.join(
    path.dirname(createRequire(import.meta.url).resolve('@excalidraw/excalidraw')),
    '..',
    'prod',
    'fonts',
  );
  let outDir = 'dist';
  return {
    name: 'trainlab-excalidraw-assets',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    configureServer(server) {
      server.middlewares.use(`/${EXCALIDRAW_ASSET_DIR}/fonts/`, (req, res, next) => {
        const file = path.join(fontsDir, decodeURIComponent((req.url ?? '').split('?')[0] ?? ''));
        if (!file.startsWith(fontsDir) || !existsSync(file) || !statSync(file).isFile()) return next();
        res.setHeader('Content-Type', file.endsWith('.woff2') ? 'font/woff2' : 'application/octet-stream');
        createReadStream(file).pipe(res);
      });
    },
    writeBundle() {
      cpSync(fontsDir, path.join(outDir, EXCALIDRAW_ASSET_DIR, 'fonts'), { recursive: true });
    },
  };
}

/**
 * Writes a .br and a .gz beside every text asset of the build, so the server sends them compressed
 * without compressing on each request (@fastify/static preCompressed).
 */
function precompress(): Plugin {
  let outDir = 'dist';
  const compressible = /\.(js|mjs|css|html|svg|json|txt|map|wasm)$/;
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
    );
  return {
    name: 'trainlab-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const file of walk(outDir)) {
        if (!compressible.test(file) || file.endsWith('.map')) continue;
        const data = readFileSync(file);
        if (data.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(data, {
            params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: data.length },
          }),
        );
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), excalidrawAssets(), likelyNextFiles(NEXT_MODULES, NEXT_FILES_ID), precompress()],
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // the manifest lets a test measure what the first page loads (e2e/tests/first-page.spec.ts)
    manifest: true,
    // every browser the product supports (ES2020 modules) knows <link rel=modulepreload>; the
    // polyfill would cost every first page half a kilobyte
    modulePreload: false,
    rollupOptions: {
      output: {
        // the lazily loaded whiteboard (Excalidraw) under a name one recognises in the build output
        chunkFileNames: (chunk) =>
          chunk.moduleIds.some((id) => id.endsWith('/ExcalidrawBoard.tsx'))
            ? 'assets/whiteboard-[hash].js'
            : 'assets/[name]-[hash].js',
        // React in its own cacheable chunk; everything else is split by use, so the first page
        // carries only the Mantine components and contract parts the landing and login need
        manualChunks: {
          react: ['react', 'react-dom', 'react-router'],
        },
      },
    },
  },
  test: {
    // jsdom, keeping Node's AbortController for fetch on Node 24 (test/jsdom-environment.ts)
    environment: './test/jsdom-environment.ts',
    setupFiles: ['./test/setup.ts'],
    include: ['test/**/*.test.{ts,tsx}'],
    css: false,
    testTimeout: 20000,
    // three forks on two cores: files wait on timers and lazy chunks much of the time
    maxWorkers: Number(process.env.TEST_WORKERS ?? 3),
    minWorkers: 1,
    // the tests run in Node with a browser DOM: take tus-js-client's browser build (its package's
    // `browser` field, which the app's build follows), so uploads go through XMLHttpRequest as in a browser
    alias: [
      {
        find: /^tus-js-client$/,
        replacement: path.join(
          path.dirname(createRequire(import.meta.url).resolve('tus-js-client/package.json')),
          'lib.esm/browser/index.js',
        ),
      },
    ],
  },
});
