import { defineConfig, type Plugin } from 'vite';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import ts from 'typescript';
import { rewriteSpecifiers, withJsExtension } from './scripts/declarationSpecifiers';

/**
 * The host SDK outside the pages (`npm run build` runs it after the page build, which empties `dist/`):
 * - default mode: `/iframe_api`, one classic script (IIFE) defining the global `YT`, at `dist/iframe_api/iframe_api.js`
 *   (served by server/iframeApiRoute.ts);
 * - `--mode sdk`: the typed ESM SDK for host apps that bundle (package exports `vidframe` and `vidframe/react`), at
 *   `dist/sdk/` with declarations in `dist/sdk/types/`. React and RxJS stay external (the package's optional peer
 *   and its dependency); observable-hooks is bundled into the React entry: as a dependency it would bring its own
 *   required peers `react` and `react-dom` into every install (npm installs peers), also for hosts that use only the
 *   core entry. `scripts/sdk-package.ts` then assembles the installable package from both builds (`dist/package/`).
 */
const root = import.meta.dirname;
const sdkEntry = resolve(root, 'src/host/sdk/index.ts');
const reactEntry = resolve(root, 'src/host/react/index.ts');

/**
 * Emits `.d.ts` files (and their `.d.ts.map`) for the SDK entries with the TypeScript compiler (Vite itself only strips types), with `.js`
 * extensions on relative imports so that they work under `moduleResolution` `bundler`, `node16` and `nodenext`.
 */
function declarations(outDir: string): Plugin {
  return {
    name: 'vidframe-sdk-declarations',
    apply: 'build',
    closeBundle() {
      const program = ts.createProgram([sdkEntry, reactEntry], {
        declaration: true,
        // Maps from each declaration to its source (`scripts/sdk-package.ts` ships those sources): "Go to definition"
        // in a host app lands in the TypeScript source, not in the `.d.ts`.
        declarationMap: true,
        emitDeclarationOnly: true,
        declarationDir: outDir,
        rootDir: root,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        jsx: ts.JsxEmit.ReactJSX,
        strict: true,
        skipLibCheck: true,
        esModuleInterop: true,
        lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
        types: [],
      });
      const files = new Map<string, string>();
      const result = program.emit(undefined, (fileName, text) => files.set(resolve(fileName), text));
      const errors = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics].filter((d) => d.category === ts.DiagnosticCategory.Error);
      if (errors.length > 0 || result.emitSkipped) {
        throw new Error(
          `SDK declarations failed:\n${ts.formatDiagnostics(errors, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' })}`,
        );
      }
      const emitted = new Set(files.keys());
      rmSync(outDir, { recursive: true, force: true });
      for (const [fileName, text] of files) {
        mkdirSync(dirname(fileName), { recursive: true });
        writeFileSync(fileName, fileName.endsWith('.map') ? text : rewriteSpecifiers(text, (spec) => withJsExtension(spec, fileName, emitted)));
      }
    },
  };
}

export default defineConfig(({ mode }) =>
  mode === 'sdk'
    ? {
        base: '/',
        publicDir: false,
        plugins: [declarations(resolve(root, 'dist/sdk/types'))],
        // The JSX runtime is a module of ours made of `createElement` (src/host/react/jsxRuntime.ts), bundled in, not
        // React's `react/jsx-runtime`: that module exists from React 16.14 and 17 on, `createElement` in every React
        // the binding supports (the package's peer range).
        resolve: { alias: { 'react/jsx-runtime': resolve(root, 'src/host/react/jsxRuntime.ts') } },
        build: {
          outDir: 'dist/sdk',
          emptyOutDir: true,
          sourcemap: true,
          lib: { entry: { vidframe: sdkEntry, react: reactEntry }, formats: ['es'] },
          rollupOptions: {
            external: (id) => /^(react|react-dom|rxjs)(\/|$)/.test(id) && id !== 'react/jsx-runtime',
          },
        },
      }
    : {
        base: '/',
        publicDir: false,
        // The script is classic (no module), so it can read document.currentScript for its own origin.
        define: { 'process.env.NODE_ENV': JSON.stringify('production') },
        build: {
          outDir: 'dist/iframe_api',
          emptyOutDir: true,
          sourcemap: true,
          lib: { entry: resolve(root, 'src/host/sdk/iframeApi.ts'), name: 'VidFrameIframeApi', formats: ['iife'], fileName: () => 'iframe_api.js' },
        },
      },
);
