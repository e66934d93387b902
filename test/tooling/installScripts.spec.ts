import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * `npm install` ends without npm 11's list of install scripts "not yet covered by allowScripts" (a newcomer reads it as
 * a failure): every locked package that has an install script is approved or denied in `package.json`.
 */
const root = resolve(__dirname, '../..');
const read = (file: string) => JSON.parse(readFileSync(resolve(root, file), 'utf8')) as Record<string, unknown>;

describe('install scripts', () => {
  it('each locked package with an install script is named in allowScripts, and each name there is such a package', () => {
    const lock = read('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean }> };
    const withScripts = new Set(
      Object.entries(lock.packages)
        .filter(([, entry]) => entry.hasInstallScript)
        .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)),
    );
    const allowScripts = (read('package.json').allowScripts ?? {}) as Record<string, boolean>;
    expect([...withScripts].sort()).toEqual(Object.keys(allowScripts).sort());
  });
});
