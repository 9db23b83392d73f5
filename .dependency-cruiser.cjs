// The floors of the server (docs/ARCHITECTURE.md, "Floors and the layer check"):
//   platform (with db/schema)  <  adapters  <  domains  <  top (app.ts, main.ts, other-endpoints.ts, cli/, seed/)
// A file imports only from its own floor or a lower one, and no files import each other in a
// circle at run time. `npm run lint:layers` runs this; scripts/test.mjs runs it beside biome.
const SRC = '^apps/server/src/';
const PLATFORM = `${SRC}(platform|db)/`;
const ADAPTERS = `${SRC}adapters/`;
const DOMAINS = `${SRC}domains/`;
const TOP = `${SRC}(app[.]ts$|main[.]ts$|other-endpoints[.]ts$|cli/|seed/)`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'platform-imports-up',
      severity: 'error',
      comment:
        'platform is the bottom floor: it imports no adapter, domain or top-floor file. An engine it needs is a port (platform/ports/) that the caller passes in.',
      from: { path: PLATFORM },
      to: { path: [ADAPTERS, DOMAINS, TOP] },
    },
    {
      name: 'adapters-import-up',
      severity: 'error',
      comment: 'adapters implement platform ports; they import no domain or top-floor file.',
      from: { path: ADAPTERS },
      to: { path: [DOMAINS, TOP] },
    },
    {
      name: 'domains-import-top',
      severity: 'error',
      comment: 'domains import no top-floor file (app.ts, main.ts, cli/, seed/): the top floor passes what they need.',
      from: { path: DOMAINS },
      to: { path: TOP },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Files that import each other at run time load in an order that depends on who is imported first. A circle made only possible by `import type` is erased by the compiler and allowed.',
      from: { path: SRC },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules'] },
    exclude: { path: ['node_modules', '[.]d[.]ts$'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'apps/server/tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
