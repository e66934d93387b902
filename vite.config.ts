import { defaultClientConditions, defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';

/**
 * Multi-page build: the embed page (framed by third-party sites), the demo host page and the collector dashboard
 * (served at `/collector`, reading the admin API with the admin token).
 * The reference server (server/) serves `dist/` and inlines the player configuration into the embed page.
 * `base: '/'` keeps every asset URL root-relative, so the pages work behind any proxy or CDN host name.
 */
export default defineConfig({
  base: '/',
  plugins: [react()],
  resolve: {
    // rxjs publishes its ES2015 build under the `es2015` condition; without it the ES5 build and `tslib` are bundled
    // (larger and slower: downlevelled classes and generators). Issue 15.
    conditions: ['es2015', ...defaultClientConditions],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: {
      input: {
        embed: resolve(import.meta.dirname, 'src/embed/index.html'),
        host: resolve(import.meta.dirname, 'src/host/index.html'),
        dashboard: resolve(import.meta.dirname, 'src/dashboard/index.html'),
      },
    },
  },
  server: {
    // `npm run dev` serves the pages with hot reload; the API and media come from the reference server.
    proxy: {
      '/youtubei': 'http://localhost:8080',
      '/media': 'http://localhost:8080',
      '/generate_204': 'http://localhost:8080',
      '/error_204': 'http://localhost:8080',
      '/embed': 'http://localhost:8080',
      '/collector/api': 'http://localhost:8080',
    },
  },
});
