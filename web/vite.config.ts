import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/**
 * The entry (src/main.ts) starts a board's first requests and then imports the
 * app (src/app.ts) dynamically; a `modulepreload` of the app's chunk in the page
 * fetches it beside the entry rather than one round trip after it.
 */
function preloadApp(): Plugin {
  return {
    name: 'preload-app',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const app = Object.values(bundle ?? {}).find(
          (chunk) => chunk.type === 'chunk' && chunk.facadeModuleId?.endsWith('/src/app.ts'),
        );
        if (!app) throw new Error('preload-app: no chunk for src/app.ts');
        return [
          {
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${app.fileName}` },
            injectTo: 'head',
          },
        ];
      },
    },
  };
}

// The browser app: built from web/ into dist/web, which the server serves at /.
export default defineConfig({
  root: import.meta.dirname,
  publicDir: false,
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    chunkSizeWarningLimit: 4096, // mermaid is large, and loaded only when a diagram is shown
  },
  plugins: [
    preloadApp(),
    // A service worker (Workbox) keeps the app shell, so a board seen before opens offline
    // from its IndexedDB copy (docs/browser-app.md, "Opening offline").
    VitePWA({
      injectRegister: 'script',
      registerType: 'autoUpdate',
      manifest: false,
      workbox: {
        // The shell: the page and its entry script and styles. Mermaid's many chunks are not
        // precached (several MB, and most boards have no diagram); they are kept once loaded.
        globPatterns: ['index.html', 'assets/index-*.{js,css}', 'assets/app-*.js'],
        // Only the app's own page: /todo, /draw, /api, /json, /mcp, /llms.txt... stay the server's.
        navigateFallback: 'index.html',
        navigateFallbackAllowlist: [/^\/(?:\?[^#]*)?$/],
        // Not the embed: its page carries other headers (frame-ancestors *, no X-Frame-Options), and the
        // precached page's would keep it out of other sites' frames. It is fetched, and kept for offline.
        navigateFallbackDenylist: [/[?&]embed=1(?:&|$)/],
        runtimeCaching: [
          {
            urlPattern: ({ request, url }) => request.mode === 'navigate' && url.searchParams.get('embed') === '1',
            handler: 'NetworkFirst',
            options: { cacheName: 'embed-page', expiration: { maxEntries: 4 } },
          },
          {
            // A board's images, kept once seen so that the board shows them offline too. The network
            // first: an image id can be given a new picture.
            urlPattern: /\/api\/boards\/[^/]+\/images\/[^/?]+$/,
            handler: 'NetworkFirst',
            options: {
              cacheName: 'board-images',
              expiration: { maxEntries: 300, purgeOnQuotaError: true },
              cacheableResponse: { statuses: [200] },
            },
          },
          {
            urlPattern: /\/assets\/[^/]+\.(?:js|css)$/,
            handler: 'CacheFirst',
            options: { cacheName: 'lazy-assets', expiration: { maxEntries: 200 } },
          },
        ],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
      },
    }),
  ],
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/json': 'http://127.0.0.1:3000',
      '/collab': { target: 'ws://127.0.0.1:3000', ws: true },
    },
  },
});
