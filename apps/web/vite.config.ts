import { cpSync, createReadStream, existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

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

export default defineConfig({
  plugins: [react(), excalidrawAssets()],
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rollupOptions: {
      output: {
        // the lazily loaded whiteboard (Excalidraw) under a name one recognises in the build output
        chunkFileNames: (chunk) =>
          chunk.moduleIds.some((id) => id.endsWith('/ExcalidrawBoard.tsx'))
            ? 'assets/whiteboard-[hash].js'
            : 'assets/[name]-[hash].js',
        // keep the big, rarely changing libraries in their own cacheable chunks
        manualChunks: {
          react: ['react', 'react-dom', 'react-router'],
          mantine: ['@mantine/core', '@mantine/hooks', '@mantine/form', '@mantine/notifications'],
          query: ['@tanstack/react-query'],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./test/setup.ts'],
    include: ['test/**/*.test.{ts,tsx}'],
    css: false,
    testTimeout: 20000,
  },
});
