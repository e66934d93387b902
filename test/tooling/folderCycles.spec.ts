import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describeCycle, folderCycles, folderEdges, folderOf, type FileSystem } from './folderGraph';

/**
 * No two folders of `streams/`, `src/` and `server/` depend on each other, directly or around a longer cycle: the
 * layers of architecture.md read one way, so a folder can be understood, tested and moved with what it imports only.
 * `src/embed/` and `src/host/` hold one folder per role, so their subfolders are the folders there.
 */
const root = resolve(__dirname, '../..');
const ROOTS = ['streams', 'server', 'src', 'src/embed', 'src/host'];

function sourceFiles(dir: string): string[] {
  return readdirSync(resolve(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(resolve(root, path)).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|js|mjs)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const treeFiles = (): FileSystem => ({
  files: ['streams', 'server', 'src'].flatMap(sourceFiles),
  readFile: (path) => (existsSync(resolve(root, path)) ? readFileSync(resolve(root, path), 'utf8') : undefined),
  fileExists: (path) => existsSync(resolve(root, path)) && statSync(resolve(root, path)).isFile(),
});

/** A made-up tree: paths to sources. */
const memoryFiles = (files: Record<string, string>): FileSystem => ({
  files: Object.keys(files),
  readFile: (path) => files[path],
  fileExists: (path) => path in files,
});

const cyclesOf = (files: Record<string, string>) => folderCycles(folderEdges(root, memoryFiles(files), ROOTS)).map(describeCycle);

describe('folder imports: no cycle between folders', () => {
  it('the tree has no folder cycle', () => {
    const cycles = folderCycles(folderEdges(root, treeFiles(), ROOTS));
    expect(cycles.map(describeCycle).join('\n\n')).toBe('');
  });

  it('two folders importing each other fail, with the imports that make the cycle', () => {
    const cycles = cyclesOf({
      'streams/sources/visibilityEvents.ts': "import { documentVisibility } from '../visibility/documentVisibility';\nexport const a = documentVisibility;\n",
      'streams/visibility/documentVisibility.ts': 'export const documentVisibility = 1;\n',
      'streams/visibility/visibilityState.ts': "import { a } from '../sources/visibilityEvents';\nexport const b = a;\n",
    });
    expect(cycles).toEqual([
      [
        'streams/sources <-> streams/visibility',
        '  streams/sources -> streams/visibility:',
        '    streams/sources/visibilityEvents.ts imports streams/visibility/documentVisibility.ts',
        '  streams/visibility -> streams/sources:',
        '    streams/visibility/visibilityState.ts imports streams/sources/visibilityEvents.ts',
      ].join('\n'),
    ]);
  });

  it('a longer cycle fails, through type-only imports, re-exports, dynamic imports, subfolders and index files too', () => {
    const cycles = cyclesOf({
      'server/api/registerApi.ts': "import type { Store } from '../collector';\nexport type A = Store;\n",
      'server/collector/index.ts': "export { type Store } from './stores/store';\n",
      'server/collector/stores/store.ts': "export interface Store { tokens: typeof import('../../platform/tokens').tokens }\n",
      'server/platform/tokens.ts': "export const tokens = () => import('../api/registerApi');\n",
    });
    expect(cycles).toHaveLength(1);
    expect(cycles[0]?.split('\n')[0]).toBe('server/api <-> server/collector <-> server/platform');
  });

  it('imports one way only, inside a folder, or to a file directly in a root, pass', () => {
    const cycles = cyclesOf({
      'server/app.ts':
        "import { registerApi } from './api/registerApi';\nimport { registerCollector } from './collector/registerCollector';\nexport const app = [registerApi, registerCollector];\n",
      'server/errors.ts': 'export class HttpError extends Error {}\n',
      'server/api/registerApi.ts':
        "import { HttpError } from '../errors';\nimport { store } from '../collector/store';\nexport const registerApi = [HttpError, store];\n",
      'server/collector/store.ts': 'export const store = 1;\n',
      'server/collector/registerCollector.ts':
        "import { HttpError } from '../errors';\nimport { sqlite } from './stores/sqlite/createSqliteStore';\nexport const registerCollector = [HttpError, sqlite];\n",
      'server/collector/stores/sqlite/createSqliteStore.ts':
        "import { store } from '../../store';\nimport { LIMIT } from '../../../../streams/timing';\nexport const sqlite = [store, LIMIT];\n",
      'streams/timing.ts': 'export const LIMIT = 1;\n',
      'src/embed/page/main.ts': "import { App } from '../views/App';\nexport const main = App;\n",
      'src/embed/views/App.tsx': "import { map } from 'rxjs';\nimport { LIMIT } from '../../../streams/timing';\nexport const App = [map, LIMIT];\n",
    });
    expect(cycles).toEqual([]);
  });

  it('a folder is the one directly under the deepest root that holds the file', () => {
    const folder = folderOf(ROOTS);
    expect(
      ['src/embed/page/main.ts', 'src/host/sdk/x/y.ts', 'src/dashboard/main.tsx', 'server/collector/stores/sqlite/a.ts', 'server/app.ts'].map(folder),
    ).toEqual(['src/embed/page', 'src/host/sdk', 'src/dashboard', 'server/collector', 'server/app.ts']);
    expect(folder('test/streams/a.spec.ts')).toBeUndefined();
  });
});
