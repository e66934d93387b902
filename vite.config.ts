import { defaultClientConditions, defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';

/**
 * Multi-page build: the embed page (framed by third-party sites), the demo host page and the collector dashboard
 * (served at `/collector`, reading the admin API with the admin token).
 * The reference server (server/) serves `dist/` and inlines the player configuration into the embed page.
 * In development (`npm run dev`) the same configuration runs as Vite's dev server inside the reference server, in
 * middleware mode (`server/dev/registerViteDev.ts`): one process and port for the pages, the API and the media.
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
});
