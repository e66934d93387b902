import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { consumer, pack, packageDir, run, scratchApp, tsc, version, vite } from './scratch';

/**
 * `vidframe/react` under the oldest React its peer range admits and the majors between (19 is pack.spec.ts's): for
 * each, a scratch app installs the packed package with that React and its types, type-checks the react-youtube example
 * and a host app against them (strict, the package's declarations checked too), builds an app with Vite that renders
 * the example and a `YouTube` held by a ref with the legacy `ReactDOM.render`, JSX compiled the classic way (React 16.8
 * has no `react/jsx-runtime`), and runs that build under jsdom: the iframes appear with react-youtube's props, the ref
 * answers with promises, and unmounting removes them. Needs the build (`npm run build`) and npm's cache or registry.
 */
const exactVersion = /^\d+\.\d+\.\d+$/;
let work: string;
let tarball: string;

beforeAll(() => {
  if (!existsSync(join(packageDir, 'package.json'))) throw new Error(`${packageDir} is missing: run \`npm run build\` first`);
  work = mkdtempSync(join(tmpdir(), 'vidframe-older-react-'));
  ({ tarball } = pack(work));
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe.each([
  ['16.8.0', '16.14.70'],
  ['17.0.2', '17.0.93'],
  ['18.3.1', '18.3.32'],
])('vidframe/react with React %s (@types/react %s)', (react, types) => {
  let app: string;

  beforeAll(() => {
    expect(react).toMatch(exactVersion);
    app = scratchApp(join(work, `react-${react}`), [
      tarball,
      `rxjs@${version('rxjs')}`,
      `@types/youtube@${version('@types/youtube')}`,
      `react@${react}`,
      `react-dom@${react}`,
      `@types/react@${types}`,
    ]);
    for (const file of readdirSync(consumer)) cpSync(join(consumer, file), join(app, file));
  }, 240_000);

  it('type-checks the react-youtube example and a host app against its types', () => {
    writeFileSync(
      join(app, 'tsconfig.check.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
          module: 'esnext',
          moduleResolution: 'bundler',
          jsx: 'react-jsx',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ['youtube'],
        },
        files: ['core.ts', 'react.tsx', 'react-youtube-example.tsx'],
      }),
    );
    run(process.execPath, [tsc, '-p', 'tsconfig.check.json'], app);
  }, 120_000);

  it('renders the example and a YouTube held by a ref, whose internal player answers; unmounts cleanly', () => {
    writeFileSync(
      join(app, 'index.html'),
      '<!doctype html><html><body><div id="root"></div><script type="module" src="./old-react-main.tsx"></script></body></html>',
    );
    writeFileSync(
      join(app, 'vite.config.mjs'),
      `export default {
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'classic', pragma: '__h', pragmaFrag: '__f' }, jsxInject: "import { createElement as __h, Fragment as __f } from 'react';" },
  build: { outDir: 'out', modulePreload: false },
};\n`,
    );
    run(process.execPath, [vite, 'build'], app);
    const bundles = readdirSync(join(app, 'out/assets')).filter((f) => f.endsWith('.js'));
    expect(bundles).toHaveLength(1);
    const out = run(process.execPath, ['old-react-run.mjs', require.resolve('jsdom'), join(app, 'out/assets', bundles[0])], app);
    expect(JSON.parse(out.trim().split('\n').pop()!)).toEqual({
      react,
      iframes: ['https://embed.example/embed/VFsunrise01 640x390', 'https://embed.example/embed/VFcitylight 320x180'],
      refIframeIsSecond: true,
      containerClass: true,
      methodsReturnPromises: true,
      internalPlayerField: true,
      playerState: { UNSTARTED: -1, ENDED: 0, PLAYING: 1, PAUSED: 2, BUFFERING: 3, CUED: 5 },
      afterUnmount: { iframes: 0, ref: null },
    });
  }, 180_000);
});
