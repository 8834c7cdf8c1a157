/**
 * The layers of docs/architecture.md as rules: `npm test` runs them
 * (`npm run check:layers`), so an import that crosses a layer the wrong way
 * fails the suite. Each rule's comment is the sentence of the architecture
 * page it enforces.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circle anywhere.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'schema-is-the-bottom',
      comment: 'schema/ imports nothing of ours but schema/.',
      severity: 'error',
      from: { path: '^schema/' },
      to: { path: '^(server|adapters|public)/' },
    },
    {
      name: 'board-is-pure',
      comment: 'server/board/ is the board itself: it imports schema/ and server/board/ only.',
      severity: 'error',
      from: { path: '^server/board/' },
      to: { path: '^(server/(?!board/)|adapters/|public/)' },
    },
    {
      name: 'board-is-browser-safe',
      comment: 'server/board/ runs in the browser: no Node API.',
      severity: 'error',
      from: { path: '^server/board/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'host-below-store-and-surfaces',
      comment: 'server/host/ runs documents at run time over the store interface: it knows no store engine, no cluster, no adapter, no app.',
      severity: 'error',
      from: { path: '^server/host/' },
      to: { path: '^(server/(store/(sqlite|pg)/|cluster/|app/)|adapters/|public/)' },
    },
    {
      name: 'store-below-host',
      comment: 'server/store/ implements the store interface: it imports the board and schema, never the host, the cluster, the app or a surface.',
      severity: 'error',
      from: { path: '^server/store/' },
      to: { path: '^(server/(host/|cluster/|app/)|adapters/|public/)' },
    },
    {
      name: 'store-engines-apart',
      comment: 'SQLite and PostgreSQL do not import each other.',
      severity: 'error',
      from: { path: '^server/store/(sqlite|pg)/' },
      to: { path: '^server/store/(sqlite|pg)/', pathNot: '^server/store/$1/' },
    },
    {
      name: 'cluster-no-surfaces',
      comment: 'server/cluster/ (Redis) imports the host and the store interface, never an adapter or the app.',
      severity: 'error',
      from: { path: '^server/cluster/' },
      to: { path: '^(server/app/|adapters/|public/)' },
    },
    {
      name: 'only-the-app-knows-adapters',
      comment: 'server/app/ is the composition root: the only place under server/ that imports adapters/.',
      severity: 'error',
      from: { path: '^server/(?!app/)' },
      to: { path: '^adapters/' },
    },
    {
      name: 'adapters-apart',
      comment: 'No adapter imports another; what they share is in adapters/kit/.',
      severity: 'error',
      from: { path: '^adapters/([^/]+)/' },
      to: { path: '^adapters/(?!kit/)([^/]+)/', pathNot: '^adapters/$1/' },
    },
    {
      name: 'adapters-no-engines',
      comment: 'Adapters reach the board through the host; they never import a store engine, the cluster or the app.',
      severity: 'error',
      from: { path: '^adapters/' },
      to: { path: '^(server/(store/(sqlite|pg)/|cluster/|app/)|public/)' },
    },
    {
      name: 'browser-imports-board-and-schema',
      comment: 'public/ imports schema/ and server/board/ only.',
      severity: 'error',
      from: { path: '^public/' },
      to: { path: '^(server/(?!board/)|adapters/)' },
    },
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
