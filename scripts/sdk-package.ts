/**
 * Assembles the installable host SDK package `vidframe` in `dist/package/` from the SDK builds (`npm run build` runs it
 * last; `npm run pack:sdk` then packs it into `dist/vidframe-<version>.tgz`).
 *
 * Why a generated package folder instead of publishing the repository root: the root `package.json` is the reference
 * application (private; Fastify, SQLite, `tsx` and React are its runtime dependencies), and the design keeps that top
 * level. The package gets its own manifest with only what the SDK needs at run time, and its `files` are the built
 * ones only, so nothing from `src`, `server`, `test` or the media ends up in it.
 *
 * Layout of `dist/package/`:
 *   package.json, README.md, LICENSE (the repository's, MIT), CHANGELOG.md (the SDK's versions and version policy)
 *   dist/      vidframe.js (entry `.`), react.js (entry `./react`), their shared chunk, source maps
 *   types/     the declarations (`.js` extensions on relative imports: bundler, node16 and nodenext)
 *   iframe_api/iframe_api.js   the classic `/iframe_api` script (entry `./iframe_api`, the one file with side effects)
 *   iframe_api/iframe_api.d.ts global declarations for pages that load it: `YT.ready`, `YT.loaded`, `YT.setConfig`,
 *                              `window.onYouTubeIframeAPIReady`, merged into `@types/youtube`'s `YT`
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const out = join(root, 'dist/package');

interface RootManifest {
  version: string;
  description?: string;
  license?: string;
  engines?: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

/** The React versions `vidframe/react` supports (the package README says React 19). */
export const REACT_PEER_RANGE = '^19.0.0';

/** The package manifest, from the root's version, engines and dependency ranges. */
export function packageManifest(rootManifest: RootManifest): Record<string, unknown> {
  const range = (name: string) => {
    const r = rootManifest.dependencies[name] ?? rootManifest.devDependencies[name];
    if (!r) throw new Error(`sdk-package: the root package.json has no range for ${name}`);
    return r;
  };
  return {
    name: 'vidframe',
    version: rootManifest.version,
    description: 'Host SDK of the VidFrame embed: a drop-in YT.Player with RxJS observables, React bindings and the /iframe_api script.',
    ...(rootManifest.license ? { license: rootManifest.license } : {}),
    type: 'module',
    exports: {
      '.': { types: './types/src/host/sdk/index.d.ts', default: './dist/vidframe.js' },
      './react': { types: './types/src/host/react/index.d.ts', default: './dist/react.js' },
      './iframe_api': { types: './iframe_api/iframe_api.d.ts', default: './iframe_api/iframe_api.js' },
      './package.json': './package.json',
    },
    // For tools that read no `exports` (moduleResolution node10).
    module: './dist/vidframe.js',
    types: './types/src/host/sdk/index.d.ts',
    files: ['dist', 'types', 'iframe_api', 'README.md', 'CHANGELOG.md', 'LICENSE'],
    // Only the classic script defines a global (window.YT); the ESM entries can be tree-shaken.
    sideEffects: ['./iframe_api/iframe_api.js'],
    dependencies: {
      rxjs: range('rxjs'),
      // The iframe_api declarations extend its `YT` namespace (`/// <reference types="youtube" />`), and types a
      // package's declarations need belong in its dependencies.
      '@types/youtube': range('@types/youtube'),
    },
    // Any React 19 (the binding uses nothing newer than 19.0); the root's own range (^19.3) would refuse 19.0–19.2.
    peerDependencies: { react: REACT_PEER_RANGE },
    // The core entry and the script work without React; only `vidframe/react` needs it.
    peerDependenciesMeta: { react: { optional: true } },
    engines: rootManifest.engines ?? { node: '>=20.19' },
  };
}

/** Global declarations of the classic script, for pages that use `window.YT` (with `@types/youtube`'s `YT`). */
const IFRAME_API_DTS = `/// <reference types="youtube" />
/**
 * Global declarations for pages that load the VidFrame \`/iframe_api\` script (\`vidframe/iframe_api\`): it defines
 * \`window.YT\` (\`YT.Player\`, \`YT.PlayerState\` as declared by @types/youtube, which VidFrame's Player satisfies)
 * and calls \`window.onYouTubeIframeAPIReady\` once ready. Use with \`/// <reference types="vidframe/iframe_api" />\`.
 * For the richer typed API (state$, info$, events$) import \`Player\` from \`vidframe\`.
 */
export {};

declare global {
  namespace YT {
    /** Calls \`callback\` once the API is ready (at once when it already is). */
    function ready(callback: () => void): void;
    /** 1 once ready. */
    let loaded: 0 | 1;
    let loading: 0 | 1;
    /** The embed origin for players created from now on (default: the origin the script came from). */
    function setConfig(config: { host?: string }): void;
    /** Marks VidFrame's implementation. */
    const vidframe: true;
  }
  interface Window {
    YT: typeof YT;
    /** Called by the script once \`YT\` is ready, if the page defined it. */
    onYouTubeIframeAPIReady?: () => void;
  }
}
`;

function readme(version: string): string {
  return `# vidframe ${version}

The host SDK of the VidFrame embed: drive an embedded VidFrame player from your page.

- \`vidframe\`: \`Player\`, a drop-in \`YT.Player\` (assignable to @types/youtube's) with RxJS observables
  (\`state$\`, \`info$\`, \`apiInfo$\`, \`ready$\`, \`events$(name)\`), plus \`buildEmbedUrl\`, \`PlayerState\`, …
- \`vidframe/react\`: \`EmbeddedPlayer\`, \`usePlayer\`, \`usePlayerState\`, \`usePlayerInfo\`, \`usePlayerEvent\` (needs \`react\`).
- \`vidframe/iframe_api\`: the classic \`/iframe_api\` script (defines \`window.YT\`); its types declare \`YT.ready\` and
  \`onYouTubeIframeAPIReady\` (\`/// <reference types="vidframe/iframe_api" />\`).

\`\`\`ts
import { Player, PlayerState } from 'vidframe';

const player = new Player('player', { host: 'https://your-vidframe-host', videoId: 'VFsunrise01' });
player.state$.subscribe((state) => console.log(state === PlayerState.PLAYING ? 'playing' : state));
\`\`\`

ESM only; Node ${'>='}20.19 for tooling. React 19 (\`^19.0.0\`) is an optional peer dependency, needed by \`vidframe/react\` only.
MIT licensed (\`LICENSE\`); versions and what each kind of change means in \`CHANGELOG.md\`. The embed URL, the
protocol and the error codes are described in the README of the VidFrame repository this package was built from.
`;
}

function main(): void {
  const sdk = join(root, 'dist/sdk');
  const script = join(root, 'dist/iframe_api/iframe_api.js');
  for (const needed of [join(sdk, 'vidframe.js'), join(sdk, 'react.js'), join(sdk, 'types/src/host/sdk/index.d.ts'), script]) {
    if (!existsSync(needed)) throw new Error(`sdk-package: ${needed} is missing; run the SDK builds first (npm run build)`);
  }
  const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as RootManifest;

  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, 'dist'), { recursive: true });
  for (const file of readdirSync(sdk)) {
    if (/\.js(\.map)?$/.test(file)) cpSync(join(sdk, file), join(out, 'dist', file));
  }
  cpSync(join(sdk, 'types'), join(out, 'types'), { recursive: true });
  // The core entry names @types/youtube (a dependency): `import 'vidframe'` brings the `YT` namespace, as the IFrame
  // API's users expect, also in an app whose tsconfig lists its `types`.
  const entryTypes = join(out, 'types/src/host/sdk/index.d.ts');
  writeFileSync(entryTypes, `/// <reference types="youtube" />\n${readFileSync(entryTypes, 'utf8')}`);
  mkdirSync(join(out, 'iframe_api'));
  cpSync(script, join(out, 'iframe_api/iframe_api.js'));
  if (existsSync(`${script}.map`)) cpSync(`${script}.map`, join(out, 'iframe_api/iframe_api.js.map'));
  writeFileSync(join(out, 'iframe_api/iframe_api.d.ts'), IFRAME_API_DTS);
  writeFileSync(join(out, 'package.json'), `${JSON.stringify(packageManifest(rootManifest), null, 2)}\n`);
  writeFileSync(join(out, 'README.md'), readme(rootManifest.version));
  for (const file of ['LICENSE', 'CHANGELOG.md']) cpSync(join(root, file), join(out, file));
  console.log(`sdk-package: ${out}`);
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) main();
