import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { STOP_SIGNAL_REPEAT_MS } from '../../server/http/limits';

/**
 * The server as production runs it, from the build `npm run build` made: `npm run serve` runs `node
 * dist/server/main.js` itself (no TypeScript loader, no shell between npm and node), its output off a terminal is JSON
 * lines without the admin token, and a SIGTERM to npm reaches the server, which drains: requests in flight finish,
 * requests arriving on open connections get 503 with Retry-After, none is reset, and the whole process tree exits 0
 * with its port closed.
 */
const ROOT = resolve(__dirname, '../..');
/** How long the built server may take to listen on a busy machine. */
const START_LIMIT_MS = 30_000;
jest.setTimeout(90_000);

interface Served {
  npm: ChildProcess;
  origin: string;
  port: number;
  dataDir: string;
  stdout: () => string;
  /** Resolves once the server's output holds `count` lines matching `line`. */
  logged: (line: RegExp, count?: number) => Promise<void>;
  exited: Promise<number | null>;
}

const started: Served[] = [];

/** `npm run serve`; `terminal`: in a process group of its own, as a shell starts a foreground job. */
function serve({ terminal = false } = {}): Promise<Served> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vidframe-serve-'));
  const npm = spawn('npm', ['run', '--silent', 'serve'], {
    cwd: ROOT,
    detached: terminal,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', VIDFRAME_ADS_PORT: '0', VIDFRAME_DATA_DIR: dataDir, VIDFRAME_RATE_LIMIT: 'off', LOG: '' },
  });
  let stdout = '';
  let stderr = '';
  npm.stdout!.on('data', (chunk) => (stdout += chunk));
  npm.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((done) => npm.once('exit', (code) => done(code)));
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm run serve did not listen within ${START_LIMIT_MS} ms:\n${stdout}${stderr}`)), START_LIMIT_MS);
    void exited.then((code) => reject(new Error(`npm run serve exited (${code}) before listening:\n${stdout}${stderr}`)));
    const onData = () => {
      const match = /VidFrame is running: (http:\/\/127\.0\.0\.1:(\d+))\//.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      npm.stdout!.off('data', onData);
      const logged = (line: RegExp, count = 1) =>
        new Promise<void>((done) => {
          const check = () => {
            if (stdout.split('\n').filter((text) => line.test(text)).length < count) return;
            npm.stdout!.off('data', check);
            done();
          };
          npm.stdout!.on('data', check);
          check();
        });
      const served = { npm, origin: match[1]!, port: Number(match[2]), dataDir, stdout: () => stdout, logged, exited };
      started.push(served);
      resolvePromise(served);
    };
    npm.stdout!.on('data', onData);
  });
}

/** The processes under `pid` (its children, theirs, …). */
function descendantsOf(pid: number): number[] {
  let children: number[] = [];
  try {
    children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((child) => child > 0);
  } catch {
    // no children: ps exits 1
  }
  return children.flatMap((child) => [child, ...descendantsOf(child)]);
}

const commandOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/^\S+\s+\S+\s+Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));

const portRefuses = (port: number) =>
  new Promise<boolean>((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), done(false)));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code === 'ECONNREFUSED'));
  });

interface Answer {
  status?: number;
  retryAfter?: string;
  error?: string;
}

/** A request on `agent`; `body` is sent in two halves, the second when `second` resolves. */
function send(origin: string, agent: Agent, method: string, path: string, body?: { first: string; rest: string; second: Promise<void> }): Promise<Answer> {
  return new Promise((done) => {
    const req = request(`${origin}${path}`, {
      method,
      agent,
      headers: body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body.first + body.rest) } : {},
    });
    req.once('response', (res) => {
      res.resume();
      res.once('end', () => done({ status: res.statusCode, retryAfter: res.headers['retry-after'] as string | undefined }));
      res.once('error', (error: NodeJS.ErrnoException) => done({ error: error.code ?? error.message }));
    });
    req.once('error', (error: NodeJS.ErrnoException) => done({ error: error.code ?? error.message }));
    if (!body) return void req.end();
    req.write(body.first);
    void body.second.then(() => req.end(body.rest));
  });
}

afterAll(() => {
  for (const served of started) {
    if (served.npm.exitCode === null) served.npm.kill('SIGKILL');
    for (const pid of descendantsOf(served.npm.pid!)) process.kill(pid, 'SIGKILL');
    rmSync(served.dataDir, { recursive: true, force: true });
  }
});

describe('npm run serve: the built server under a process manager', () => {
  it('runs plain node on dist/server/main.js, logs JSON lines only and never the admin token', async () => {
    const served = await serve();
    const tree = descendantsOf(served.npm.pid!).map(commandOf);
    expect(tree).toEqual([expect.stringMatching(/^\S*node dist\/server\/main\.js$/)]);
    expect(tree.join(' ')).not.toMatch(/tsx|\bsh\b/);
    expect(await (await fetch(`${served.origin}/healthz`)).json()).toEqual({ ok: true, videos: expect.any(Number) });

    const adminToken = readFileSync(join(served.dataDir, 'secrets', 'admin-token'), 'utf8').trim();
    const lines = served.stdout().trim().split('\n');
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(served.stdout()).not.toContain(adminToken);
    const start = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((record) => String(record.msg).startsWith('VidFrame is running'));
    expect(start).toMatchObject({ origin: served.origin, adminTokenFrom: join(served.dataDir, 'secrets', 'admin-token'), store: 'sqlite' });
    served.npm.kill('SIGTERM');
    expect(await served.exited).toBe(0);
  });

  it('SIGTERM to npm drains: requests in flight finish, requests arriving get 503 with Retry-After, none reset', async () => {
    const served = await serve();
    const pids = [served.npm.pid!, ...descendantsOf(served.npm.pid!)];
    let signalled!: () => void;
    const afterSignal = new Promise<void>((done) => (signalled = done));
    // 25 uploads in flight (headers and half the body sent) and 25 idle keep-alive connections, one agent each.
    const agents = Array.from({ length: 50 }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
    const report = (i: number) => `{"message":"drain ${i}","stack":"`;
    const uploads = agents
      .slice(0, 25)
      .map((agent, i) => send(served.origin, agent, 'POST', '/error_204', { first: report(i), rest: 'x"}', second: afterSignal }));
    const idle = agents.slice(25);
    for (const answer of await Promise.all(idle.map((agent) => send(served.origin, agent, 'GET', '/healthz')))) expect(answer.status).toBe(200);
    // Every upload has reached the server (the access log's line for it) before the signal.
    await served.logged(/"url":"\/error_204".*"msg":"incoming request"/, 25);

    served.npm.kill('SIGTERM');
    await served.logged(/VidFrame is stopping/);
    const arriving = idle.map((agent) => send(served.origin, agent, 'GET', '/healthz'));
    signalled();
    const inFlight = await Promise.all(uploads);
    const late = await Promise.all(arriving);

    expect(inFlight.filter((answer) => answer.status !== 204)).toEqual([]);
    expect(late.filter((answer) => !(answer.status === 503 && answer.retryAfter !== undefined))).toEqual([]);
    expect(await served.exited).toBe(0);
    expect(pids.filter(alive)).toEqual([]);
    expect(await portRefuses(served.port)).toBe(true);
    for (const agent of agents) agent.destroy();
  });

  it('a second signal stops at once, without waiting for a request in flight', async () => {
    const served = await serve();
    const agent = new Agent({ keepAlive: true });
    const never = new Promise<void>(() => undefined);
    const stuck = send(served.origin, agent, 'POST', '/error_204', { first: '{"message":"', rest: 'x"}', second: never });
    await served.logged(/"url":"\/error_204".*"msg":"incoming request"/);
    served.npm.kill('SIGTERM');
    await served.logged(/VidFrame is stopping/);
    expect(served.npm.exitCode).toBeNull(); // draining: the upload is still in flight
    // A signal within STOP_SIGNAL_REPEAT_MS of the first is the same stop (the Ctrl-C test below): wait past it.
    await new Promise((done) => setTimeout(done, STOP_SIGNAL_REPEAT_MS + 200));
    served.npm.kill('SIGTERM');
    await served.logged(/VidFrame stops now/);
    expect(await served.exited).toBe(1);
    expect((await stuck).error).toBeDefined(); // forced: its connection is closed unanswered
    agent.destroy();
  });

  it('Ctrl-C in a terminal (SIGINT to the process group, which npm hands on again) drains and exits 0', async () => {
    const served = await serve({ terminal: true });
    const agent = new Agent({ keepAlive: true });
    let signalled!: () => void;
    const afterSignal = new Promise<void>((done) => (signalled = done));
    const upload = send(served.origin, agent, 'POST', '/error_204', { first: '{"message":"ctrl-c","stack":"', rest: 'x"}', second: afterSignal });
    await served.logged(/"url":"\/error_204".*"msg":"incoming request"/);
    process.kill(-served.npm.pid!, 'SIGINT');
    await served.logged(/VidFrame is stopping/);
    signalled();
    expect(await upload).toMatchObject({ status: 204 });
    await served.logged(/"msg":"VidFrame stopped"/);
    expect(served.stdout()).not.toMatch(/VidFrame stops now/);
    expect(await served.exited).toBe(0);
    agent.destroy();
  });

  it('on a terminal prints a banner that names where the admin token is, never the token', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vidframe-tty-'));
    // util-linux's script(1) gives the server a pseudo-terminal for its stdout.
    const tty = spawn('script', ['-qec', 'exec node dist/server/main.js', '/dev/null'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', VIDFRAME_ADS_PORT: '0', VIDFRAME_DATA_DIR: dataDir, LOG: '0' },
    });
    try {
      let output = '';
      await new Promise<void>((done, fail) => {
        tty.stdout!.on('data', (chunk) => {
          output += chunk;
          if (/Ads host \(anonymous id\)/.test(output)) done();
        });
        tty.once('exit', (code) => fail(new Error(`the server exited (${code}):\n${output}`)));
      });
      const tokenFile = join(dataDir, 'secrets', 'admin-token');
      expect(output).toMatch(/^VidFrame is running: http:\/\/127\.0\.0\.1:\d+\/ \(demo host page\)/m);
      expect(output).toContain(`sign in with the admin token kept in ${tokenFile}`);
      expect(output).not.toContain(readFileSync(tokenFile, 'utf8').trim());
      expect(output).not.toMatch(/"msg":"VidFrame is running/);
    } finally {
      tty.kill('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
