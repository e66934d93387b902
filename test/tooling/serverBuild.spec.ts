import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * The production server is JavaScript that plain `node` runs: `vite.server.config.ts` (part of `npm run build`)
 * compiles `server/main.ts` with every module at its own path, and every `server/**\/*Worker.ts` as an entry at its
 * mirrored path, so a worker spawned as `new URL('./xWorker.js', import.meta.url)` is found beside its spawner. Built
 * here into a scratch folder under `dist/` (inside the project: the build's imports resolve from `node_modules`), with
 * a scratch pair of workers.
 */
const ROOT = resolve(__dirname, '../..');
const probe = `buildProbe${process.pid}`;
const probeDir = join(ROOT, 'server', probe);
const outDir = join(ROOT, 'dist', `.server-build-test-${process.pid}`);
jest.setTimeout(120_000);

beforeAll(() => {
  mkdirSync(probeDir, { recursive: true });
  writeFileSync(join(probeDir, 'innerWorker.ts'), "import { parentPort } from 'node:worker_threads';\n\nparentPort?.postMessage(`inner ${1 + 1}`);\n");
  writeFileSync(
    join(probeDir, 'spawnWorker.ts'),
    [
      "import { Worker } from 'node:worker_threads';",
      '',
      "const worker = new Worker(new URL('./innerWorker.js', import.meta.url));",
      "worker.once('message', (message) => {",
      '  console.log(`spawned: ${String(message)}`);',
      '  void worker.terminate();',
      '});',
      '',
    ].join('\n'),
  );
  try {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '-c', 'vite.server.config.ts', '--outDir', outDir], {
      cwd: ROOT,
      stdio: 'pipe',
    });
  } finally {
    rmSync(probeDir, { recursive: true, force: true });
  }
});
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

it('emits every server/**/*Worker.ts at its mirrored path, and a worker spawned by URL beside its spawner runs', () => {
  expect(existsSync(join(outDir, 'server', probe, 'innerWorker.js'))).toBe(true);
  expect(existsSync(join(outDir, 'server', probe, 'spawnWorker.js'))).toBe(true);
  expect(execFileSync(process.execPath, [join(outDir, 'server', probe, 'spawnWorker.js')], { encoding: 'utf8' }).trim()).toBe('spawned: inner 2');
});

it('keeps the module tree: each server module and the streams/ modules it imports at its own path', () => {
  for (const file of [
    'server/main.js',
    'server/app.js',
    'server/http/drain.js',
    'server/collector/stores/sqlite/createSqliteStore.js',
    'streams/collector/adminApi.js',
  ]) {
    expect(existsSync(join(outDir, file))).toBe(true);
  }
  expect(existsSync(join(outDir, 'node_modules'))).toBe(false);
});

it('runs with plain node: finds the project folder, answers /healthz and stops on SIGTERM with 0', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'server-build-'));
  const child = spawn(process.execPath, [join(outDir, 'server', 'main.js')], {
    cwd: tmpdir(),
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', VIDFRAME_ADS_PORT: '0', VIDFRAME_DATA_DIR: dataDir, LOG: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    let output = '';
    const origin = await new Promise<string>((done, fail) => {
      child.stdout!.on('data', (chunk) => {
        output += chunk;
        const match = /"origin":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(output);
        if (match) done(match[1]!);
      });
      child.stderr!.on('data', (chunk) => (output += chunk));
      child.once('exit', (code) => fail(new Error(`the built server exited (${code}):\n${output}`)));
    });
    const health = await fetch(`${origin}/healthz`);
    expect(health.status).toBe(200);
    // The catalogue came from the project's media/ (found from dist/…/server/main.js), not an empty one.
    expect((await health.json()) as unknown).toEqual({ ok: true, videos: expect.any(Number) });
    expect(((await (await fetch(`${origin}/healthz`)).json()) as { videos: number }).videos).toBeGreaterThan(0);
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
