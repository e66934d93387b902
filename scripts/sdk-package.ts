/**
 * Assembles the installable host SDK package `vidframe` in `dist/package/` from the SDK builds (`npm run build` runs it
 * last; `npm run pack:sdk` then packs it into `dist/vidframe-<version>.tgz`).
 *
 * Why a generated package folder instead of publishing the repository root: the root `package.json` is the reference
 * application (private; Fastify, SQLite, `tsx` and React are its runtime dependencies), and the design keeps that top
 * level. The package gets its own manifest with only what the SDK needs at run time, and its `files` are the built
 * ones only, plus the SDK's own TypeScript sources that its declaration maps point at, so nothing else from `src`,
 * and nothing from `server`, `test` or the media, ends up in it.
 *
 * Layout of `dist/package/`:
 *   package.json, README.md, LICENSE (the repository's, MIT), CHANGELOG.md (the SDK's versions and version policy)
 *   dist/      vidframe.js (entry `.`), react.js (entry `./react`), their shared chunk, source maps
 *   types/     the declarations (`.js` extensions on relative imports: bundler, node16 and nodenext), each with its
 *              `.d.ts.map` pointing into `src/`
 *   src/       the TypeScript sources of the declarations, at their repository paths (`src/src/host/…`,
 *              `src/streams/…`: their relative imports still resolve), so "Go to definition" lands in real code
 *   iframe_api/iframe_api.js   the classic `/iframe_api` script (entry `./iframe_api`, the one file with side effects)
 *   iframe_api/iframe_api.d.ts global declarations for pages that load it: `YT.ready`, `YT.loaded`, `YT.setConfig`,
 *                              `window.onYouTubeIframeAPIReady`, merged into `@types/youtube`'s `YT`
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

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

/**
 * The React versions `vidframe/react` supports: every React with hooks. The binding uses only hooks of React 16.8
 * (`useState`, `useRef`, `useEffect`, `useLayoutEffect`, `useDebugValue`), `Component` and `createElement` (its JSX
 * is compiled to `createElement`, not `react/jsx-runtime`), nothing of React 18 or 19; the package tests render it
 * with React 16.8, 17, 18 and 19.
 */
export const REACT_PEER_RANGE = '>=16.8.0';

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
    files: ['dist', 'types', 'src', 'iframe_api', 'README.md', 'CHANGELOG.md', 'LICENSE'],
    // Only the classic script defines a global (window.YT); the ESM entries can be tree-shaken.
    sideEffects: ['./iframe_api/iframe_api.js'],
    dependencies: {
      rxjs: range('rxjs'),
      // The iframe_api declarations extend its `YT` namespace (`/// <reference types="youtube" />`), and types a
      // package's declarations need belong in its dependencies.
      '@types/youtube': range('@types/youtube'),
    },
    // Any React with hooks (see REACT_PEER_RANGE); the root's own range (^19.3) is the reference app's.
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
- \`vidframe/react\` (needs \`react\`): a drop-in for react-youtube as its default export, and \`EmbeddedPlayer\`,
  \`usePlayer\`, \`usePlayerState\`, \`usePlayerInfo\`, \`usePlayerEvent\`.
- \`vidframe/iframe_api\`: the classic \`/iframe_api\` script (defines \`window.YT\`); its types declare \`YT.ready\` and
  \`onYouTubeIframeAPIReady\` (\`/// <reference types="vidframe/iframe_api" />\`).

\`\`\`ts
import { Player, PlayerState } from 'vidframe';

const player = new Player('player', { host: 'https://your-vidframe-host', videoId: 'VFsunrise01' });
player.state$.subscribe((state) => console.log(state === PlayerState.PLAYING ? 'playing' : state));
\`\`\`

The embed origin is \`host\` (a prop, or \`opts.host\`); without it, the page's own origin.

## From react-youtube

An app written for react-youtube works by changing its import line only:

\`\`\`tsx
import { useRef } from 'react';
import YouTube, { type YouTubeProps } from 'vidframe/react'; // was: from 'react-youtube'

function Example() {
  const ref = useRef<YouTube>(null);
  const onReady: YouTubeProps['onReady'] = (event) => event.target.pauseVideo();
  const onStateChange: YouTubeProps['onStateChange'] = (event) => {
    if (event.data === YouTube.PlayerState.PLAYING) console.log('playing');
  };
  return (
    <>
      <YouTube ref={ref} videoId="VFsunrise01" opts={{ width: 640, height: 390, host: 'https://your-vidframe-host' }}
        onReady={onReady} onStateChange={onStateChange} />
      <button onClick={() => ref.current?.getInternalPlayer()?.playVideo()}>Play</button>
    </>
  );
}
\`\`\`

- Props as react-youtube's: \`videoId\`, \`opts\` (\`width\`, \`height\`, \`playerVars\`, \`host\`), \`id\` (the iframe's),
  \`className\` (the container's), \`iframeClassName\`, \`style\`, \`title\`, \`loading\`, and the events \`onReady\`,
  \`onStateChange\`, \`onPlay\`, \`onPause\`, \`onEnd\`, \`onError\`, \`onPlaybackRateChange\`,
  \`onPlaybackQualityChange\` (each called with \`{ target, data }\`, \`target\` the player). A new \`videoId\` is loaded
  or cued in the same iframe; new \`playerVars\` or \`host\` make a new player.
- \`YouTube.PlayerState\`: \`UNSTARTED\` -1, \`ENDED\` 0, \`PLAYING\` 1, \`PAUSED\` 2, \`BUFFERING\` 3, \`CUED\` 5.
- Through a ref: \`getInternalPlayer()\` (and the field \`internalPlayer\`) give the player with every method returning
  a promise, as react-youtube's do (\`await ref.current.getInternalPlayer().getCurrentTime()\`), and
  \`on('stateChange', listener)\`; \`null\` before the player exists and after it is gone. The field \`player\` is the
  player itself (\`Player\`, methods answering at once, observables).
- Types: \`YouTubeProps\`, \`YouTubeEvent\`, \`YouTubePlayer\`.

Beyond react-youtube, \`EmbeddedPlayer\` takes the same props plus \`host\`, \`width\`, \`height\` and \`playerVars\` at
the top level, \`onPlayer\` (called with the \`Player\`) and \`facade\` (a poster and a play button until pressed).

## Versions

ESM only, with declarations and their maps (the TypeScript sources are in \`src/\`); Node ${'>='}20.19 for tooling.
React is an optional peer dependency (\`${REACT_PEER_RANGE}\`: React 16.8 and every later React), needed by
\`vidframe/react\` only; the core entry and the script need nothing but \`rxjs\`. MIT licensed (\`LICENSE\`).
\`CHANGELOG.md\` lists every version and says what a major, a minor and a patch version may change.
`;
}

interface DeclarationMap {
  sources: string[];
  sourceRoot?: string;
  mappings: string;
}

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]));

/**
 * Points every `.d.ts.map` under `outTypes` at a copy of its source in the package's `src/` (the repository path kept
 * below it) and copies those sources, only those: TypeScript wrote the maps for `sdkTypes`, pointing into the
 * repository. A map pointing outside the repository's TypeScript fails the build.
 */
function shipDeclarationSources(sdkTypes: string, outTypes: string): void {
  for (const mapFile of filesUnder(outTypes).filter((f) => f.endsWith('.d.ts.map'))) {
    const builtDir = dirname(join(sdkTypes, relative(outTypes, mapFile)));
    const map = JSON.parse(readFileSync(mapFile, 'utf8')) as DeclarationMap;
    map.sources = map.sources.map((source) => {
      const repoPath = relative(root, resolve(builtDir, map.sourceRoot ?? '', source));
      if (repoPath.startsWith('..') || !/\.tsx?$/.test(repoPath)) throw new Error(`sdk-package: ${mapFile} maps to ${source}, not a source of the repository`);
      const shipped = join(out, 'src', repoPath);
      if (!existsSync(shipped)) {
        mkdirSync(dirname(shipped), { recursive: true });
        cpSync(join(root, repoPath), shipped);
      }
      return relative(dirname(mapFile), shipped).split(sep).join('/');
    });
    map.sourceRoot = '';
    writeFileSync(mapFile, JSON.stringify(map));
  }
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
  // That line moves the declarations one line down: their map gets an empty first line.
  const entryMap = JSON.parse(readFileSync(`${entryTypes}.map`, 'utf8')) as DeclarationMap;
  writeFileSync(`${entryTypes}.map`, JSON.stringify({ ...entryMap, mappings: `;${entryMap.mappings}` }));
  shipDeclarationSources(join(sdk, 'types'), join(out, 'types'));
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
