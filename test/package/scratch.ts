import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** What the package tests share: the repository's paths and tools, and scratch projects installed from the tarball. */
export const root = resolve(__dirname, '../..');
export const packageDir = join(root, 'dist/package');
export const consumer = join(__dirname, 'consumer');
export const tsc = join(root, 'node_modules/typescript/bin/tsc');
export const vite = join(root, 'node_modules/vite/bin/vite.js');

/** The version of `name` this repository has installed (and so locks). */
export const version = (name: string) => (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

/** Runs a command; a failure throws with everything it printed. */
export function run(command: string, args: string[], cwd: string): string {
  try {
    return execFileSync(command, args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', NODE_ENV: 'production' },
    });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(' ')} (in ${cwd}) failed:\n${e.stdout ?? ''}\n${e.stderr ?? ''}\n${e.message}`, { cause: error });
  }
}
export const npm = (args: string[], cwd: string) => run(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, cwd);

/** Packs `dist/package` into `work`; returns the tarball and the paths it holds, sorted. */
export function pack(work: string): { tarball: string; files: string[] } {
  const packed = JSON.parse(npm(['pack', packageDir, '--pack-destination', work, '--json'], work)) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  return { tarball: join(work, packed[0].filename), files: packed[0].files.map((f) => f.path).sort() };
}

/**
 * A scratch ESM project at `dir` with `packages` installed (`--prefer-offline`: from npm's cache, which `npm ci`
 * filled; the registry only for what is missing).
 */
export function scratchApp(dir: string, packages: string[]): string {
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'scratch-host-app', private: true, type: 'module' }, null, 2));
  npm(['install', '--prefer-offline', '--no-audit', '--no-fund', ...packages], dir);
  return dir;
}
