import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

// The browser app: built from public/ into dist/public, which the server serves at /.
export default defineConfig({
  root: import.meta.dirname,
  publicDir: false,
  build: {
    outDir: '../dist/public',
    emptyOutDir: true,
    chunkSizeWarningLimit: 4096, // mermaid is large, and loaded only when a diagram is shown
  },
  plugins: [
    // A service worker (Workbox) keeps the app shell, so a board seen before opens offline
    // from its IndexedDB copy (docs/browser-app.md, "Opening offline").
    VitePWA({
      injectRegister: 'script',
      registerType: 'autoUpdate',
      manifest: false,
      workbox: {
        // The shell: the page and its entry script and styles. Mermaid's many chunks are not
        // precached (several MB, and most boards have no diagram); they are kept once loaded.
        globPatterns: ['index.html', 'assets/index-*.{js,css}'],
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
          { urlPattern: /\/assets\/[^/]+\.(?:js|css)$/, handler: 'CacheFirst', options: { cacheName: 'lazy-assets', expiration: { maxEntries: 200 } } },
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
