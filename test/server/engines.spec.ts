import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import semver from 'semver';

/**
 * Issue 16: `engines` matches what the dependencies require. Every package the lock file installs (dev and optional
 * ones included) must accept the lowest Node version our own `engines.node` admits, so `npm install` on a supported
 * Node prints no EBADENGINE warning.
 */
const root = resolve(__dirname, '../..');
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(resolve(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
};

describe('engines', () => {
  const lowest = semver.minVersion(pkg.engines.node);

  it('declares a Node range with a lowest version', () => {
    expect(lowest?.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('every locked package accepts the lowest Node version engines.node admits', () => {
    const refusing = Object.entries(lock.packages)
      .filter(([path]) => path !== '')
      .flatMap(([path, entry]) => {
        const range = !entry.engines || Array.isArray(entry.engines) ? undefined : entry.engines.node;
        return range && !semver.satisfies(lowest!, range, { includePrerelease: true }) ? [`${path}@${entry.version} wants node ${range}`] : [];
      });
    expect(refusing).toEqual([]);
  });
});
