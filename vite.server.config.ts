import { readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { relative, resolve } from 'node:path';
import { defineConfig } from 'vite';

/**
 * The reference server compiled to JavaScript for production (`npm run build`, run by `npm start` and `npm run serve`
 * with plain `node`): `server/main.ts` and every `server/**\/*Worker.ts` (worker threads, spawned by path as
 * `new URL('./nameWorker.js', import.meta.url)`) as entries, every module kept at its own path (`server/x/y.ts` →
 * `dist/server/x/y.js`, the shared `streams/` modules it imports → `dist/streams/`), so a worker's URL, resolved beside
 * the module that spawns it, names a file that exists. Dependencies stay in `node_modules`, never bundled.
 */
const root = import.meta.dirname;
const workers = readdirSync(resolve(root, 'server'), { recursive: true, encoding: 'utf8' })
  .filter((file) => /(^|\/)[^/]*Worker\.ts$/.test(file))
  .map((file) => `server/${file}`);
const entries = Object.fromEntries(['server/main.ts', ...workers].map((file) => [file.replace(/\.ts$/, ''), resolve(root, file)]));
const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);

export default defineConfig({
  root,
  publicDir: false,
  logLevel: 'warn',
  build: {
    ssr: true,
    outDir: 'dist',
    // The pages' builds own the rest of `dist/`.
    emptyOutDir: false,
    target: 'node20',
    minify: false,
    sourcemap: true,
    copyPublicDir: false,
    rollupOptions: {
      input: entries,
      // A bare import (a package) or a Node built-in stays an import; only the project's own modules are compiled.
      external: (id) => builtins.has(id) || !(id.startsWith('.') || id.startsWith('/') || id.startsWith('\0')),
      output: {
        format: 'es',
        preserveModules: true,
        preserveModulesRoot: root,
        entryFileNames: (chunk) => `${chunk.facadeModuleId ? relative(root, chunk.facadeModuleId).replace(/\.[cm]?tsx?$/, '') : chunk.name}.js`,
      },
    },
  },
});
