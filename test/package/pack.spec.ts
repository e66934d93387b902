import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix, relative } from 'node:path';
import { consumer, npm, pack, packageDir, root, run, scratchApp, tsc, version, vite } from './scratch';

/**
 * The host SDK as a developer outside this repository meets it (issue 16 items 1 and 2): the package that
 * `npm run build` assembles in `dist/package/` is packed with `npm pack`, installed from the tarball into a scratch
 * project in a temp folder (`--prefer-offline`: from npm's cache, which `npm ci` filled; the registry only for what is
 * missing), then used: a plain Node ESM script imports it, a small host app is type-checked against it under
 * `moduleResolution` bundler, node16 and nodenext (strict, noImplicitAny), including the type compatibility with
 * @types/youtube, and a Vite + React app is built from it.
 *
 * Needs the build (`npm test` runs it first; alone: `npm run build && npx jest --selectProjects package`).
 */
let work: string;
let app: string;
let tarball: string;
let packedFiles: string[];
let manifest: {
  name: string;
  version: string;
  license?: string;
  type: string;
  exports: Record<string, unknown>;
  files: string[];
  sideEffects: unknown;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  engines?: Record<string, string>;
};

beforeAll(() => {
  if (!existsSync(join(packageDir, 'package.json'))) {
    throw new Error(`${packageDir} is missing: run \`npm run build\` first (npm test does)`);
  }
  work = mkdtempSync(join(tmpdir(), 'vidframe-pack-'));
  ({ tarball, files: packedFiles } = pack(work));
  // The SDK's dependencies at the versions this repository locks (its range alone would take the registry's newest on the
  // day, so a new @types/youtube could fail this test with no change here); npm's cache from `npm ci` holds them.
  app = scratchApp(join(work, 'app'), [tarball, `rxjs@${version('rxjs')}`, `@types/youtube@${version('@types/youtube')}`]);
  manifest = JSON.parse(readFileSync(join(app, 'node_modules/vidframe/package.json'), 'utf8'));
}, 240_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The packed paths that the declaration maps name as their sources (resolved from each map's own folder). */
function mappedSources(): Set<string> {
  const seen = new Set<string>();
  for (const file of packedFiles.filter((f) => f.endsWith('.d.ts.map'))) {
    const map = JSON.parse(readFileSync(join(app, 'node_modules/vidframe', file), 'utf8')) as { sources: string[]; sourceRoot?: string };
    for (const source of map.sources) seen.add(posix.normalize(posix.join(posix.dirname(file), map.sourceRoot ?? '', source)));
  }
  return seen;
}

describe('the packed vidframe package', () => {
  it('holds the built entries, their declarations and the sources these map to, nothing of the server or tests', () => {
    for (const file of [
      'package.json',
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
      'dist/vidframe.js',
      'dist/react.js',
      'iframe_api/iframe_api.js',
      'iframe_api/iframe_api.d.ts',
      'types/src/host/sdk/index.d.ts',
      'types/src/host/sdk/Player.d.ts',
      'types/src/host/react/index.d.ts',
      'types/src/host/react/index.d.ts.map',
      'src/src/host/react/YouTube.tsx',
    ]) {
      expect(packedFiles).toContain(file);
    }
    const outside = packedFiles.filter(
      (f) => !/^(dist|types|src|iframe_api)\//.test(f) && !['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'].includes(f),
    );
    expect(outside).toEqual([]);
    // TypeScript sources only under src/, and only those the declaration maps point at; no server, test, media or bench file.
    const sources = packedFiles.filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts'));
    expect(sources.filter((f) => !f.startsWith('src/'))).toEqual([]);
    expect(packedFiles.filter((f) => f.startsWith('src/') && !/\.tsx?$/.test(f))).toEqual([]);
    expect(sources.filter((f) => !mappedSources().has(f))).toEqual([]);
    expect(packedFiles.filter((f) => /(^|\/)(server|test|media|bench)\//.test(f))).toEqual([]);
  });

  it('maps every declaration to its TypeScript source, which it carries ("Go to definition" lands in real code)', () => {
    const declarations = packedFiles.filter((f) => f.startsWith('types/') && f.endsWith('.d.ts'));
    expect(declarations.length).toBeGreaterThan(10);
    expect(declarations.filter((f) => !packedFiles.includes(`${f}.map`))).toEqual([]);
    const pkg = join(app, 'node_modules/vidframe');
    for (const file of declarations) {
      expect(readFileSync(join(pkg, file), 'utf8')).toMatch(new RegExp(`\\n//# sourceMappingURL=${file.split('/').pop()!.replace(/\./g, '\\.')}\\.map\\n?$`));
    }
    // Every `sources` entry of every map is a file of the tarball, and the map points at the line its name is declared on.
    const missing = [...mappedSources()].filter((f) => !packedFiles.includes(f));
    expect(missing).toEqual([]);
    expect(mappedSources().size).toBeGreaterThan(10);
    const map = JSON.parse(readFileSync(join(pkg, 'types/src/host/sdk/index.d.ts.map'), 'utf8')) as { sources: string[]; mappings: string };
    expect(map.sources).toEqual(['../../../../src/src/host/sdk/index.ts']);
    // The entry's first line (the `youtube` reference the packaging adds) maps to nothing.
    expect(map.mappings.startsWith(';')).toBe(true);
  });

  it('declares its own manifest: ESM, exports with types first, side effects, only the SDK’s runtime dependencies, React an optional peer', () => {
    expect(manifest).toMatchObject({
      name: 'vidframe',
      type: 'module',
      license: 'MIT',
      version: JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version,
    });
    // The licence it names is the one it carries, and its changelog has an entry for the version it is.
    expect(readFileSync(join(app, 'node_modules/vidframe/LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
    expect(readFileSync(join(app, 'node_modules/vidframe/CHANGELOG.md'), 'utf8')).toContain(`\n## ${manifest.version}\n`);
    // The README stands on its own (there is no public repository to point at): the react-youtube drop-in, the React
    // range it declares, the changelog; no link or field naming a repository.
    const readme = readFileSync(join(app, 'node_modules/vidframe/README.md'), 'utf8');
    expect(readme).toContain("import YouTube, { type YouTubeProps } from 'vidframe/react'; // was: from 'react-youtube'");
    expect(readme).toContain(`\`${manifest.peerDependencies?.react}\``);
    expect(readme).toContain('CHANGELOG.md');
    expect(readme).not.toMatch(/repository|https?:\/\/(?!your-vidframe-host)/i);
    expect(manifest).not.toHaveProperty('repository');
    expect(manifest).not.toHaveProperty('homepage');
    expect(Object.keys(manifest.exports)).toEqual(['.', './react', './iframe_api', './package.json']);
    for (const entry of ['.', './react', './iframe_api']) {
      expect(Object.keys(manifest.exports[entry] as object)[0]).toBe('types');
    }
    expect(manifest.sideEffects).toEqual(['./iframe_api/iframe_api.js']);
    // The SDK imports rxjs at run time; @types/youtube carries the YT namespace its iframe_api declarations extend.
    expect(Object.keys(manifest.dependencies ?? {}).sort()).toEqual(['@types/youtube', 'rxjs']);
    expect(Object.keys(manifest.peerDependencies ?? {})).toEqual(['react']);
    // Every React with hooks: olderReact.spec.ts renders it with 16.8, 17 and 18, the tests below with 19.
    expect(manifest.peerDependencies?.react).toBe('>=16.8.0');
    expect(manifest.peerDependenciesMeta?.react?.optional).toBe(true);
    expect(manifest.engines?.node).toMatch(/^>=\d/);
    // The core install brought no React, no server dependency.
    const installed = readdirSync(join(app, 'node_modules')).filter((n) => !n.startsWith('.'));
    expect(installed).toEqual(expect.arrayContaining(['vidframe', 'rxjs', '@types']));
    for (const absent of ['react', 'react-dom', 'observable-hooks', 'fastify', 'tsx', 'better-sqlite3', '@fastify']) expect(installed).not.toContain(absent);
  });

  it('its declarations import relative files with .js extensions (node16 / nodenext) and mention no bundled dependency', () => {
    const types = join(app, 'node_modules/vidframe/types');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else files.push(path);
      }
    };
    walk(types);
    expect(files.length).toBeGreaterThan(10);
    const bad: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const [, spec] of text.matchAll(/(?:from\s*|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)) {
        if ((spec.startsWith('.') && !spec.endsWith('.js')) || spec === 'observable-hooks') bad.push(`${relative(types, file)}: ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('runs in a plain Node ESM script without React: real exports', () => {
    cpSync(join(consumer, 'run.mjs'), join(app, 'run.mjs'));
    const out = run(process.execPath, ['run.mjs'], app);
    expect(out).toMatch(/^vidframe \d+\.\d+\.\d+: .*\bPlayer PlayerState buildEmbedUrl\b/);
  });

  describe('with React and its types installed (a host app)', () => {
    beforeAll(() => {
      npm(
        [
          'install',
          '--prefer-offline',
          '--no-audit',
          '--no-fund',
          `react@${version('react')}`,
          `react-dom@${version('react-dom')}`,
          `@types/react@${version('@types/react')}`,
          `@types/react-dom@${version('@types/react-dom')}`,
        ],
        app,
      );
      for (const file of readdirSync(consumer)) cpSync(join(consumer, file), join(app, file));
    }, 240_000);

    it.each([
      ['bundler', 'esnext'],
      ['node16', 'node16'],
      ['nodenext', 'nodenext'],
    ])(
      'type-checks a host app under moduleResolution %s (strict, noImplicitAny; YT.Player compatibility included)',
      (moduleResolution, module) => {
        writeFileSync(
          join(app, `tsconfig.${moduleResolution}.json`),
          JSON.stringify({
            compilerOptions: {
              target: 'ES2022',
              lib: ['ES2023', 'DOM', 'DOM.Iterable'],
              module,
              moduleResolution,
              jsx: 'react-jsx',
              strict: true,
              noImplicitAny: true,
              noEmit: true,
              // Our declarations are checked too, not only the app.
              skipLibCheck: false,
              types: ['youtube'],
            },
            files: ['core.ts', 'yt-compat.ts', 'iframe-api.ts', 'react.tsx', 'react-youtube-example.tsx'],
          }),
        );
        run(process.execPath, [tsc, '-p', `tsconfig.${moduleResolution}.json`], app);
      },
      120_000,
    );

    it("brings the YT namespace with `import 'vidframe'` to an app whose tsconfig names no @types", () => {
      writeFileSync(
        join(app, 'tsconfig.no-types.json'),
        JSON.stringify({
          compilerOptions: { target: 'ES2022', lib: ['ES2023', 'DOM'], module: 'esnext', moduleResolution: 'bundler', strict: true, noEmit: true, types: [] },
          // yt-compat.ts alone: nothing else in the program names @types/youtube.
          files: ['yt-compat.ts'],
        }),
      );
      run(process.execPath, [tsc, '-p', 'tsconfig.no-types.json'], app);
    }, 120_000);

    it('its react-youtube example, with the import line of react-youtube, type-checks against react-youtube itself', () => {
      // The example differs from its react-youtube version by that line only (test/e2e/reactYoutube.e2e.ts checks it).
      const original = readFileSync(join(consumer, 'react-youtube-example.tsx'), 'utf8');
      const theirs = original.replace("from 'vidframe/react';", "from 'react-youtube';");
      expect(theirs).not.toBe(original);
      writeFileSync(join(app, 'react-youtube-original.tsx'), theirs);
      npm(['install', '--prefer-offline', '--no-audit', '--no-fund', 'react-youtube@10.1.0', '@types/youtube-player@5', '@types/prop-types@15'], app);
      writeFileSync(
        join(app, 'tsconfig.react-youtube.json'),
        JSON.stringify({
          // react-youtube's own declarations predate @types/react 19 (its global JSX): they are not checked, the app is.
          compilerOptions: {
            target: 'ES2022',
            lib: ['ES2023', 'DOM'],
            module: 'esnext',
            moduleResolution: 'bundler',
            jsx: 'react-jsx',
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            types: [],
          },
          files: ['react-youtube-original.tsx'],
        }),
      );
      run(process.execPath, [tsc, '-p', 'tsconfig.react-youtube.json'], app);
    }, 180_000);

    it('builds a Vite + React app from it (the React entry and the classic script bundled, React from the app)', () => {
      writeFileSync(join(app, 'index.html'), '<!doctype html><html><body><div id="root"></div><script type="module" src="/main.tsx"></script></body></html>');
      writeFileSync(
        join(app, 'main.tsx'),
        "import 'vidframe/iframe_api';\nimport { createRoot } from 'react-dom/client';\nimport { App } from './react';\ncreateRoot(document.getElementById('root')!).render(<App />);\n",
      );
      writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { jsx: 'react-jsx', module: 'esnext', moduleResolution: 'bundler' } }));
      run(process.execPath, [vite, 'build', '--logLevel', 'warn'], app);
      const assets = join(app, 'dist/assets');
      const bundle = readdirSync(assets)
        .filter((f) => f.endsWith('.js'))
        .map((f) => readFileSync(join(assets, f), 'utf8'))
        .join('\n');
      // Our player (its listening handshake) and React's DOM renderer are both in the app's bundle.
      expect(bundle).toContain('listening');
      expect(bundle).toContain('VidFrame Player');
      expect(bundle).toMatch(/react-dom|createRoot|__reactContainer/);
      // The classic script, imported for its side effect (the one `sideEffects` declares), is kept.
      expect(bundle).toContain('onYouTubeIframeAPIReady');
    }, 180_000);
  });
});
