import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * This module's own file, as the running code names it: a path under Jest (which compiles to CommonJS, where
 * `import.meta` cannot appear), a `file:` URL under tsx or from the build. The stack names it in all three.
 */
function ownFile(): string {
  const prepare = Error.prepareStackTrace;
  try {
    Error.prepareStackTrace = (_error, sites) => sites;
    const sites = new Error().stack as unknown as NodeJS.CallSite[] | undefined;
    const name = sites?.[0]?.getFileName() ?? '';
    return name.startsWith('file:') ? fileURLToPath(name) : name;
  } finally {
    Error.prepareStackTrace = prepare;
  }
}

/**
 * The worker entry `name` beside this module, in this module's own form: `{name}.js` of the build (which emits every
 * `*Worker.ts` as an entry, next to its spawner), or `{name}.ts` under tsx and Jest, started by a two-line bootstrap
 * that registers tsx in the worker first (a worker's own `--import` does not load its entry through tsx).
 */
export function workerEntry(name: 'readWorker' | 'checkpointWorker'): { entry: string | URL; eval: boolean } {
  const own = ownFile();
  if (extname(own) !== '.ts') return { entry: pathToFileURL(join(dirname(own), `${name}.js`)), eval: false };
  const url = pathToFileURL(join(dirname(own), `${name}.ts`)).href;
  return { entry: `import(${JSON.stringify(tsxEsmApi(own))}).then(({ register }) => { register(); return import(${JSON.stringify(url)}); });`, eval: true };
}

/** The ESM entry of `tsx/esm/api`, as tsx's package declares it (resolved from `from`, wherever the server is started). */
function tsxEsmApi(from: string): string {
  const manifest = createRequire(from).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  const target = exports['./esm/api']?.import.default;
  if (!target) throw new Error('tsx declares no ESM entry for tsx/esm/api');
  return pathToFileURL(join(dirname(manifest), target)).href;
}
