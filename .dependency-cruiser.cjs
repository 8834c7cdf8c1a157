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
      comment: 'No import circle anywhere.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    forbid('schema-is-the-bottom', 'schema/ imports nothing of ours but schema/.', '^schema/', '^(server|adapters|public)/'),
    forbid('board-is-pure', 'server/board/ is the board itself: it imports schema/ and server/board/ only.', '^server/board/', '^(server/(?!board/)|adapters/|public/)'),
    {
      name: 'board-is-browser-safe',
      comment: 'server/board/ runs in the browser: no Node API.',
      severity: 'error',
      from: { path: '^server/board/' },
      to: { dependencyTypes: ['core'] },
    },
    forbid('host-below-store-and-surfaces', 'server/host/ runs documents at run time over the store interface: it knows no store engine, no cluster, no adapter, no app.', '^server/host/', '^(server/(store/(sqlite|pg)/|cluster/|app/)|adapters/|public/)'),
    forbid('store-below-host', 'server/store/ implements the store interface: it imports the board and schema, never the host, the cluster, the app or a surface.', '^server/store/', '^(server/(host/|cluster/|app/)|adapters/|public/)'),
    forbid('store-engines-apart', 'SQLite and PostgreSQL do not import each other.', '^server/store/(sqlite|pg)/', '^server/store/(sqlite|pg)/', '^server/store/$1/'),
    forbid('cluster-no-surfaces', 'server/cluster/ (Redis) imports the host and the store interface, never an adapter or the app.', '^server/cluster/', '^(server/app/|adapters/|public/)'),
    forbid('only-the-app-knows-adapters', 'server/app/ is the composition root: the only place under server/ that imports adapters/.', '^server/(?!app/)', '^adapters/'),
    forbid('adapters-apart', 'No adapter imports another; what they share is in adapters/kit/, not beside them.', '^adapters/([^/]+)/', '^adapters/(?!kit/)', '^adapters/$1/'),
    forbid('adapters-no-engines', 'Adapters reach the board through the host; they never import a store engine, the cluster or the app.', '^adapters/', '^(server/(store/(sqlite|pg)/|cluster/|app/)|public/)'),
    forbid('browser-imports-board-and-schema', 'public/ imports schema/ and server/board/ only.', '^public/', '^(server/(?!board/)|adapters/)'),
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
