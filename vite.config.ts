import { defaultClientConditions, defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';

/**
 * The pages: the embed page (framed by third-party sites), the demo host page and the collector dashboard (served at
 * `/collector`, reading the admin API with the admin token), built in two runs into one `dist/` (see below).
 * The reference server (server/) serves `dist/` and inlines the player configuration into the embed page.
 * In development (`npm run dev`) the same configuration runs as Vite's dev server inside the reference server, in
 * middleware mode (`server/dev/registerViteDev.ts`): one process and port for the pages, the API and the media.
 * `base: '/'` keeps every asset URL root-relative, so the pages work behind any proxy or CDN host name.
 */
const pages = {
  embed: resolve(import.meta.dirname, 'src/embed/index.html'),
  host: resolve(import.meta.dirname, 'src/host/index.html'),
  dashboard: resolve(import.meta.dirname, 'src/dashboard/index.html'),
};

/**
 * `vite build` builds the embed alone; `vite build --mode pages` then the demo host page and the dashboard into the same
 * `dist/`. Apart, because the embed's first load is then its script, one chunk it shares with its own lazy chunks and
 * its style: built together, the modules the pages share (rxjs, the host protocol's event list, the log
 * endpoints) were split into more shared chunks, more requests before the embed could start; with the poster and the
 * media they came to seven, over HTTP/1.1's six connections per host, so the media request waited. The dev server
 * serves all three pages.
 */
const inputOf = (command: string, mode: string): Record<string, string> =>
  command === 'serve' ? pages : mode === 'pages' ? { host: pages.host, dashboard: pages.dashboard } : { embed: pages.embed };

export default defineConfig(({ command, mode }) => ({
  base: '/',
  plugins: [react()],
  resolve: {
    // rxjs publishes its ES2015 build under the `es2015` condition; without it the ES5 build and `tslib` are bundled
    // (larger and slower: downlevelled classes and generators).
    conditions: ['es2015', ...defaultClientConditions],
  },
  build: {
    outDir: 'dist',
    // The embed's build comes first and starts from an empty `dist/`; the pages' build adds to it.
    emptyOutDir: mode !== 'pages',
    sourcemap: true,
    rollupOptions: {
      input: inputOf(command, mode),
      // Every module two chunks share goes into one chunk: the embed's first load stays its script, that chunk and its
      // style, however many lazy chunks (services, controls, the streaming engine) share which modules with it.
      output: { codeSplitting: { groups: [{ name: 'shared', minShareCount: 2 }] } },
    },
  },
}));
