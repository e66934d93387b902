/** Module specifiers of emitted declaration files (used by `vite.iframe-api.config.ts` for the SDK's `.d.ts`). */
import { dirname, resolve } from 'node:path';

/**
 * A relative module specifier of an emitted declaration file with its `.js` extension (`./Player` → `./Player.js`,
 * `./dir` → `./dir/index.js`), found among the emitted files; bare specifiers (`rxjs`, `react`) stay as they are.
 * The package is `type: module`, so under `moduleResolution` `node16`/`nodenext` its `.d.ts` files are ESM and, as
 * in ESM JavaScript, an extensionless relative import does not resolve (TS2834) and what it carried becomes `any`.
 */
export function withJsExtension(specifier: string, fromFile: string, emitted: ReadonlySet<string>): string {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return specifier;
  if (/\.(js|mjs|cjs|json)$/.test(specifier)) return specifier;
  const base = resolve(dirname(fromFile), specifier);
  if (emitted.has(`${base}.d.ts`)) return `${specifier}.js`;
  if (emitted.has(resolve(base, 'index.d.ts'))) return `${specifier}/index.js`;
  throw new Error(`SDK declarations: ${fromFile} imports ${specifier}, which was not emitted`);
}

/** Every module specifier of a declaration file (`from '…'`, `import('…')`, `import '…'`) through `rewrite`. */
export function rewriteSpecifiers(text: string, rewrite: (specifier: string) => string): string {
  return text.replace(
    /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"\n]+)\2/g,
    (_m, lead: string, quote: string, spec: string) => `${lead}${quote}${rewrite(spec)}${quote}`,
  );
}
