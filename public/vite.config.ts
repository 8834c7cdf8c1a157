import { defineConfig } from 'vite';

// The browser app: built from public/ into dist/public, which the server serves at /.
export default defineConfig({
  root: import.meta.dirname,
  publicDir: false,
  build: {
    outDir: '../dist/public',
    emptyOutDir: true,
    chunkSizeWarningLimit: 4096, // mermaid is large, and loaded only when a diagram is shown
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/json': 'http://127.0.0.1:3000',
      '/collab': { target: 'ws://127.0.0.1:3000', ws: true },
    },
  },
});
