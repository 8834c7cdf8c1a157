/**
 * The layers of docs/architecture.md as rules: `npm test` runs them
 * (`npm run check:layers`), so an import that crosses a layer the wrong way
 * fails the suite. Each rule's comment is the sentence of the architecture
 * page it enforces.
 */
/** A rule: no import from a path matching `from` to one matching `to` (unless it matches `toNot`). */
function forbid(name, comment, from, to, toNot) {
  return { name, comment, severity: 'error', from: { path: from }, to: toNot ? { path: to, pathNot: toNot } : { path: to } };
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circle anywhere that exists at run time (a circle of type-only imports is erased by the compiler).',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    forbid('schema-is-the-bottom', 'schema/ imports nothing of ours but schema/.', '^schema/', '^(board|host|store|cluster|adapters|app|web)/'),
    forbid('board-is-pure', 'board/ is the board itself: it imports schema/ and board/ only.', '^board/', '^(host|store|cluster|adapters|app|web)/'),
    {
      name: 'board-is-browser-safe',
      comment: 'board/ runs in the browser: no Node API.',
      severity: 'error',
      from: { path: '^board/' },
      to: { dependencyTypes: ['core'] },
    },
    forbid('host-below-store-and-surfaces', 'host/ runs documents at run time over the store interface: it knows no store engine, no cluster, no adapter, no app.', '^host/', '^(store/(sqlite|pg)|cluster|adapters|app|web)/'),
    forbid('store-below-host', 'store/ implements the store interface: it imports the board and schema, never the host, the cluster, the app or a surface.', '^store/', '^(host|cluster|adapters|app|web)/'),
    forbid('store-engines-apart', 'SQLite and PostgreSQL do not import each other.', '^store/(sqlite|pg)/', '^store/(sqlite|pg)/', '^store/$1/'),
    forbid('cluster-no-surfaces', 'cluster/ (Redis) imports the host and the store interface, never an adapter or the app.', '^cluster/', '^(adapters|app|web)/'),
    forbid('adapters-apart', 'No adapter imports another; what they share is in adapters/kit/, not beside them.', '^adapters/([^/]+)/', '^adapters/(?!kit/)', '^adapters/$1/'),
    forbid('adapters-no-engines', 'Adapters reach the board through the host; they never import a store engine, the cluster or the app.', '^adapters/', '^(store/(sqlite|pg)|cluster|app|web)/'),
    forbid('only-the-app-knows-adapters', 'app/ is the composition root: the only layer that imports adapters/ and the store engines.', '^(schema|board|host|store|cluster)/', '^adapters/'),
    forbid('browser-imports-board-and-schema', 'web/ imports schema/ and board/ only.', '^web/', '^(host|store|cluster|adapters|app)/'),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|test|bench)/' },
    tsPreCompilationDeps: true,
    // TypeScript 7 has no JavaScript compiler API for dependency-cruiser to parse with; swc parses the same files.
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
