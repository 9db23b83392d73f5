import path from 'node:path';
import type { Plugin, Rollup } from 'vite';

type OutputBundle = Rollup.OutputBundle;
type OutputChunk = Rollup.OutputChunk;

/**
 * Names, in index.html, the files each likely-next screen loads (its chunk, the chunks it imports
 * that the first page does not, and their styles), as a JSON data block the browser never runs.
 * The page then asks for them with <link rel="prefetch">: downloaded at idle priority and kept in the
 * cache, but not evaluated, so the first page's main thread stays free (an `import()` would run the
 * screen's modules during the first seconds).
 */
export function likelyNextFiles(modules: Record<string, string>, blockId: string): Plugin {
  let root = '';
  return {
    name: 'trainlab-likely-next-files',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle) return html;
        const files = nextFiles(ctx.bundle, root, modules);
        // `<` escaped so the data can never close the script element
        const json = JSON.stringify(files).replace(/</g, '\\u003c');
        return {
          html,
          tags: [{ tag: 'script', attrs: { type: 'application/json', id: blockId }, children: json, injectTo: 'head' }],
        };
      },
    },
  };
}

function nextFiles(bundle: OutputBundle, root: string, modules: Record<string, string>): Record<string, string[]> {
  const chunks = Object.values(bundle).filter((o): o is OutputChunk => o.type === 'chunk');
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const closure = (start: OutputChunk): Set<string> => {
    const seen = new Set<string>();
    const walk = (c: OutputChunk) => {
      if (seen.has(c.fileName)) return;
      seen.add(c.fileName);
      for (const i of c.imports) {
        const next = byFile.get(i);
        if (next) walk(next);
      }
    };
    walk(start);
    return seen;
  };
  const entry = chunks.find((c) => c.isEntry);
  if (!entry) throw new Error('likely-next: the build has no entry chunk');
  const firstPage = closure(entry);
  const out: Record<string, string[]> = {};
  for (const [key, source] of Object.entries(modules)) {
    const id = path.resolve(root, source);
    const chunk = chunks.find((c) => c.facadeModuleId === id);
    if (!chunk) throw new Error(`likely-next: no chunk is built from ${source} (named for ${key})`);
    const files: string[] = [];
    for (const file of closure(chunk)) {
      if (firstPage.has(file)) continue;
      files.push(`/${file}`);
      const css = (byFile.get(file) as OutputChunk & { viteMetadata?: { importedCss: Set<string> } }).viteMetadata
        ?.importedCss;
      for (const sheet of css ?? []) files.push(`/${sheet}`);
    }
    out[key] = files;
  }
  return out;
}
