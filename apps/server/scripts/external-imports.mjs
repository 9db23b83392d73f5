// The build's check on the imports it leaves to Node (issue 38): every npm import that stays
// external must resolve the way Node resolves it when `npm start` runs the bundle. Node's ES module
// resolver adds no extension and reads no folder's index, so `pkg/lib/xml` (which the CommonJS
// resolver, vitest and tsx all accept) fails there at the first use of the chunk holding it; the
// check fails the build instead, naming the import and the chunk.
import { existsSync, statSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const builtins = new Set(builtinModules);
const isBuiltin = (spec) => spec.startsWith('node:') || builtins.has(spec) || builtins.has(spec.split('/')[0]);

/**
 * Why `spec` does not load from a chunk as Node loads it, or null when it does. `kind` is esbuild's
 * import kind: a `require` resolves by CommonJS rules, everything else by the ES module rules.
 * Resolution starts at this script, whose node_modules folders are those of the bundle's output
 * beside it (apps/server/dist or another folder inside apps/server).
 */
export function unresolved(spec, kind) {
  if (isBuiltin(spec)) return null;
  if (kind === 'require-call' || kind === 'require-resolve') {
    try {
      createRequire(import.meta.url).resolve(spec);
      return null;
    } catch (e) {
      return e.message.split('\n')[0];
    }
  }
  let url;
  try {
    url = import.meta.resolve(spec);
  } catch (e) {
    return e.message.split('\n')[0];
  }
  // import.meta.resolve answers a package's deep path without looking at the disk; the loader does
  if (url.startsWith('file:')) {
    const file = fileURLToPath(url);
    if (!existsSync(file) || !statSync(file).isFile()) {
      return `Cannot find module '${file}' (Node's ES module resolver adds no extension nor index.js)`;
    }
  }
  return null;
}

/** Every external import of the build's outputs that Node would not load: `chunk: import — reason`. */
export function unresolvedExternals(metafile) {
  const problems = [];
  for (const [output, { imports }] of Object.entries(metafile.outputs)) {
    for (const { path: spec, kind, external } of imports) {
      if (!external) continue;
      const why = unresolved(spec, kind);
      if (why) problems.push(`${path.basename(output)}: ${spec} — ${why}`);
    }
  }
  return problems;
}

/** esbuild plugin: the build fails when an external import would not load under Node. */
export const externalImportsResolve = {
  name: 'external-imports-resolve',
  setup(build) {
    build.initialOptions.metafile = true;
    build.onEnd((result) => {
      if (!result.metafile) return;
      return {
        errors: unresolvedExternals(result.metafile).map((text) => ({
          text: `an import Node cannot load from the bundle: ${text}. Import the package's public entry point (or the full file name with its extension).`,
        })),
      };
    });
  },
};
