import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/** `npm run bench` as a person meets it first: asking for help, or naming a part that does not exist. */
const root = resolve(__dirname, '../..');
const bench = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });

describe('npm run bench, asked for help or given a wrong part', () => {
  it('--help prints its parts and options and exits 0, running nothing', () => {
    const run = bench('--help');
    expect(run.status).toBe(0);
    for (const part of ['client', 'page', 'retry', 'collector', 'state', 'abr', '--long', '--entry']) expect(run.stdout).toContain(part);
    expect(run.stderr).toBe('');
  }, 60_000);

  it('an unknown part is named, with the usage, exit code 2 and no stack trace', () => {
    const run = bench('page', 'nope');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('no part or option named "nope"');
    expect(run.stderr).toContain('Usage: npm run bench');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toBe('');
  }, 60_000);
});
