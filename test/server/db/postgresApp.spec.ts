import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { SIGNIN_FREE_FAILURES } from '../../../server/accounts/limits';
import { buildApp, type VidFrameApp } from '../../../server/app';
import { POSTGRES_POOL_MAX } from '../../../server/db/openStateDatabase';
import { encodeEditPlaylistParams, PLATFORM_ENDPOINTS, WATCH_LATER_PLAYLIST_ID } from '../../../streams/platform/payloads';
import { apiTokensFor } from '../../helpers/apiTokens';
import { logRequestBody } from '../chaos/chaosClient';
import { solveAttestation } from '../../helpers/solveAttestation';
import type { AttestationChallenge } from '../../../server/tokens/attestationTokens';
import { startPostgres, type PostgresServer } from '../../helpers/postgresServer';

/**
 * Two servers (two apps, two data folders) on one PostgreSQL database (`VIDFRAME_DB`) with the shared secrets of a
 * deployment: what one records, the other serves — a session, its access token, a sign-out, the sign-in throttle and
 * watch later.
 */
jest.setTimeout(60_000);

const SECRET = 'postgres-app-spec-shared-secret-0123456789abcdef';
const ACCESS_SECRET = 'postgres-app-spec-access-secret-0123456789abcdef';
const ROOT = join(__dirname, '..', '..', '..');
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

let server: PostgresServer;
const apps: VidFrameApp[] = [];
const dirs: string[] = [];
let a: VidFrameApp;
let b: VidFrameApp;

beforeAll(async () => {
  server = await startPostgres();
  const url = await server.createDatabase('vf_two_servers');
  // Both start together on the empty database: the ladders and the demo accounts are applied once.
  [a, b] = await Promise.all(
    [0, 1].map(async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'state-postgres-app-'));
      dirs.push(dataDir);
      const app = await buildApp({ dataDir, database: { engine: 'postgres', url }, streamSecret: SECRET, accessTokenSecret: ACCESS_SECRET, rateLimit: false });
      apps.push(app);
      return app;
    }),
  );
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await server?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const signIn = (app: VidFrameApp, email: string, password: string) =>
  app.inject({ method: 'POST', url: '/signin', headers: FORM, payload: new URLSearchParams({ email, password }).toString() });
/** `npm run secrets -- …args` against one database of the test's PostgreSQL. */
const secrets = (database: string, ...args: string[]) =>
  spawnSync(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'scripts', 'secrets.ts'), ...args], {
    env: { ...process.env, VIDFRAME_DB: server.urlOf(database), VIDFRAME_STREAM_SECRET: '' },
    encoding: 'utf8',
  });
const sessionOf = (response: Awaited<ReturnType<typeof signIn>>) =>
  String([response.headers['set-cookie']].flat().find((c) => String(c).startsWith('vf_session=')))
    .split(';')[0]
    .slice('vf_session='.length);

describe('two servers on one PostgreSQL database', () => {
  it('serves through one server the session another signed in, and ends it everywhere when one signs it out', async () => {
    const signedIn = await signIn(a, 'ada@example.com', 'vidframe-ada');
    expect(signedIn.statusCode).toBe(303);
    const session = sessionOf(signedIn);
    const token = await b.inject({ method: 'POST', url: '/accounts/token', payload: { session } });
    expect(token.json()).toMatchObject({ signedIn: true, account: { email: 'ada@example.com' } });
    const bearer = { authorization: `Bearer ${token.json().accessToken}` };
    expect((await a.inject({ url: '/getDatasyncIdsEndpoint', headers: bearer })).statusCode).toBe(200);

    expect((await b.inject({ method: 'POST', url: '/accounts/signout', payload: { session } })).json()).toEqual({ signedOut: true });
    expect((await a.inject({ method: 'POST', url: '/accounts/token', payload: { session } })).json()).toEqual({ signedIn: false });
    expect((await a.inject({ url: '/getDatasyncIdsEndpoint', headers: bearer })).statusCode).toBe(401);
  });

  it('throttles a password guessed through both servers as through one', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < SIGNIN_FREE_FAILURES + 2; i++) statuses.push((await signIn(i % 2 ? b : a, 'grace@example.com', `guess-${i}`)).statusCode);
    expect(statuses).toEqual([...Array<number>(SIGNIN_FREE_FAILURES).fill(401), 429, 429]);
  });

  it('shows in one server the watch later edited through the other', async () => {
    const session = sessionOf(await signIn(b, 'ada@example.com', 'vidframe-ada'));
    const accessToken = (await a.inject({ method: 'POST', url: '/accounts/token', payload: { session } })).json().accessToken as string;
    const tokens = apiTokensFor(SECRET);
    const call = (app: VidFrameApp, endpoint: string, body: Record<string, unknown>) =>
      app.inject({
        method: 'POST',
        url: `/youtubei/v1/${endpoint}`,
        payload: { context: { client: { clientName: 'WEB_EMBEDDED_PLAYER' } }, session_token: tokens.antiForgeryToken(), ...body },
        headers: { authorization: `Bearer ${accessToken}`, 'x-youtube-bootstrap-logged-in': 'true' },
      });
    const edited = await call(a, PLATFORM_ENDPOINTS.editPlaylist, {
      actions: [{ action: 'ACTION_ADD_VIDEO', addedVideoId: 'VFsunrise01' }],
      params: encodeEditPlaylistParams({ source: 'embed_watch_later', videoId: 'VFsunrise01' }),
      playlistId: WATCH_LATER_PLAYLIST_ID,
    });
    expect(edited.json()).toMatchObject({ videoIds: ['VFsunrise01'] });
    const next = await call(b, 'next', { videoId: 'VFsunrise01' });
    expect(next.statusCode).toBe(200);
    expect(next.json()).toMatchObject({ videoId: 'VFsunrise01', inWatchLater: true });
  });
});

describe('two servers on one PostgreSQL database without configured secrets', () => {
  const LIMIT = 4;
  let c: VidFrameApp;
  let d: VidFrameApp;
  beforeAll(async () => {
    const url = await server.createDatabase('vf_no_secrets');
    [c, d] = await Promise.all(
      [0, 1].map(async () => {
        const dataDir = mkdtempSync(join(tmpdir(), 'state-postgres-app-'));
        dirs.push(dataDir);
        const app = await buildApp({ dataDir, database: { engine: 'postgres', url }, rateLimit: { max: LIMIT, windowMs: 60_000 }, testHooks: true });
        apps.push(app);
        return app;
      }),
    );
  });

  it('verifies through one server the stream token and the access token the other signed, with keys kept in the database', async () => {
    const page = await c.inject({ url: '/embed/VFsunrise01' });
    const streamToken = /"stream_token":"([^"]+)"/.exec(page.body)?.[1];
    expect(streamToken).toBeDefined();
    const body = JSON.parse(logRequestBody('shared-keys', 0, 1)) as Record<string, unknown>;
    const logged = await d.inject({
      method: 'POST',
      url: '/youtubei/v1/log_event',
      headers: { 'x-vidframe-stream-token': streamToken! },
      remoteAddress: '198.51.100.1',
      payload: { ...body, session_token: /"xsrf_token":"([^"]+)"/.exec(page.body)?.[1] },
    });
    expect(logged.statusCode).toBe(200);

    const session = sessionOf(await signIn(c, 'ada@example.com', 'vidframe-ada'));
    const token = await c.inject({ method: 'POST', url: '/accounts/token', payload: { session } });
    const served = await d.inject({ url: '/getDatasyncIdsEndpoint', headers: { authorization: `Bearer ${token.json().accessToken}` } });
    expect(served.statusCode).toBe(200);
  });

  it('accepts on every server the one admin token kept in the database, which npm run secrets prints', async () => {
    const printed = secrets('vf_no_secrets', 'admin-token');
    expect(printed.status).toBe(0);
    const adminToken = printed.stdout.trim();
    expect(adminToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const app of [c, d]) {
      expect(app.vidframe).toMatchObject({ adminToken, adminTokenSource: 'database' });
      expect((await app.inject({ url: '/collector/api/stats', headers: { authorization: `Bearer ${adminToken}` } })).statusCode).toBe(200);
    }
  });

  it('accepts an attestation token once, whichever server sees it first, for a challenge either signed', async () => {
    const challenge = (await c.inject({ method: 'POST', url: '/attestation/challenge', remoteAddress: '198.51.100.3' })).json() as AttestationChallenge;
    const token = solveAttestation(challenge);
    const verify = (app: VidFrameApp) =>
      app.inject({ method: 'POST', url: '/attestation/testhooks/verify', payload: { response: token } }).then((r) => r.json());
    const [first, second] = await Promise.all([verify(d), verify(c)]);
    expect([first, second]).toContainEqual({ ok: true });
    expect([first, second]).toContainEqual({ ok: false, reason: 'The attestation response was replayed: already used' });
    expect(await verify(d)).toEqual({ ok: false, reason: 'The attestation response was replayed: already used' });
  });

  it('counts one address’s log requests through both servers against one limit', async () => {
    const page = await c.inject({ url: '/embed/VFsunrise01' });
    const streamToken = /"stream_token":"([^"]+)"/.exec(page.body)![1];
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) {
      const response = await (i % 2 ? c : d).inject({
        method: 'POST',
        url: '/youtubei/v1/log_event',
        headers: { 'x-vidframe-stream-token': streamToken },
        remoteAddress: '198.51.100.2',
        payload: 'not json',
      });
      statuses.push(response.statusCode);
    }
    // Each server alone has seen half the limit: only counting together refuses the last two.
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(415), 429, 429]);
  });
});

describe('rotating the token secret kept in PostgreSQL (npm run secrets)', () => {
  const startApp = async (url: string) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'state-postgres-app-'));
    dirs.push(dataDir);
    const app = await buildApp({ dataDir, database: { engine: 'postgres', url }, rateLimit: false });
    apps.push(app);
    return app;
  };
  const streamTokenOf = async (app: VidFrameApp) => /"stream_token":"([^"]+)"/.exec((await app.inject({ url: '/embed/VFsunrise01' })).body)![1];
  /** Whether `app` takes a log request under `token` (401: the token does not verify). */
  const accepts = async (app: VidFrameApp, token: string) =>
    (await app.inject({ method: 'POST', url: '/youtubei/v1/log_event', headers: { 'x-vidframe-stream-token': token }, payload: {} })).statusCode !== 401;

  it('keeps every token valid on every server through stage, restarts, promote and restarts', async () => {
    const url = await server.createDatabase('vf_rotation');
    const before = await startApp(url);
    const oldToken = await streamTokenOf(before);
    const session = sessionOf(await signIn(before, 'ada@example.com', 'vidframe-ada'));
    const oldAccess = (await before.inject({ method: 'POST', url: '/accounts/token', payload: { session } })).json().accessToken as string;

    const staged = secrets('vf_rotation', 'stage');
    expect(staged.status).toBe(0);
    expect(staged.stdout).toContain('staged a successor');
    expect(staged.stdout).toMatch(/tokens:next\s+since/);
    const restarted = await startApp(url);
    expect(await accepts(restarted, oldToken)).toBe(true);

    expect(secrets('vf_rotation', 'promote').status).toBe(0);
    const promoted = await startApp(url);
    const newToken = await streamTokenOf(promoted);
    // A server still on the staged start accepts what the promoted one signs; the promoted one accepts the old tokens.
    expect(await accepts(restarted, newToken)).toBe(true);
    expect(await accepts(promoted, oldToken)).toBe(true);
    expect(await accepts(before, newToken)).toBe(false);
    // The access token a signed-in embed holds is accepted across the rotation too.
    const served = await promoted.inject({ url: '/getDatasyncIdsEndpoint', headers: { authorization: `Bearer ${oldAccess}` } });
    expect(served.statusCode).toBe(200);
    const status = secrets('vf_rotation', 'status').stdout;
    expect(status).toMatch(/^tokens\s+since .*\ntokens:previous\s+since /m);
    expect(status).not.toMatch(/[A-Za-z0-9_-]{43}/);
  });

  it('explains a missing command, and refuses to rotate without PostgreSQL', () => {
    const none = secrets('vf_rotation');
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('usage: npm run secrets');
    const sqlite = spawnSync(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'scripts', 'secrets.ts'), 'status'], {
      env: { ...process.env, VIDFRAME_DB: '' },
      encoding: 'utf8',
    });
    expect(sqlite.status).toBe(2);
    expect(sqlite.stderr).toContain('names no PostgreSQL database');
  });
});

describe('a shared rate-limit store that cannot count', () => {
  it('answers a log request 503 with Retry-After, which the retry queue waits out, instead of failing', async () => {
    const url = await server.createDatabase('vf_no_counts');
    const dataDir = mkdtempSync(join(tmpdir(), 'state-postgres-app-'));
    dirs.push(dataDir);
    const app = await buildApp({ dataDir, database: { engine: 'postgres', url }, rateLimit: { max: 10, windowMs: 60_000 } });
    apps.push(app);
    const streamToken = /"stream_token":"([^"]+)"/.exec((await app.inject({ url: '/embed/VFsunrise01' })).body)![1];
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query('DROP TABLE rate_limit_counts');
    await admin.end();
    const refused = await app.inject({ method: 'POST', url: '/youtubei/v1/log_event', headers: { 'x-vidframe-stream-token': streamToken }, payload: {} });
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json().error.message).toContain('cannot count its rate limits now');
  });
});

describe('readiness on PostgreSQL', () => {
  it('is ready only while the state database answers, and again once it does', async () => {
    const url = await server.createDatabase('vf_ready');
    const dataDir = mkdtempSync(join(tmpdir(), 'state-postgres-app-'));
    dirs.push(dataDir);
    const app = await buildApp({ dataDir, database: { engine: 'postgres', url }, rateLimit: false });
    apps.push(app);
    expect((await app.inject('/readyz')).json()).toEqual({ ready: true, store: 'sqlite', state: 'postgres' });
    const admin = new pg.Client({ connectionString: server.urlOf('postgres') });
    await admin.connect();
    try {
      // No connection may be made to the database, and the server's are ended: as when PostgreSQL goes away.
      await admin.query('ALTER DATABASE vf_ready ALLOW_CONNECTIONS false');
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'vf_ready'");
      const down = await app.inject('/readyz');
      expect(down.statusCode).toBe(503);
      expect(down.json()).toMatchObject({ ready: false, state: 'postgres', error: { message: 'The state database does not answer' } });
      expect(down.body).not.toContain('vf_ready');
      await admin.query('ALTER DATABASE vf_ready ALLOW_CONNECTIONS true');
      // A pooled connection that died with the database fails the poll that meets it and leaves the pool: a balancer's
      // polls see the server ready again within as many polls as the pool has connections.
      const polls: number[] = [];
      while (polls.at(-1) !== 200 && polls.length <= POSTGRES_POOL_MAX + 1) polls.push((await app.inject('/readyz')).statusCode);
      expect(polls.at(-1)).toBe(200);
    } finally {
      await admin.end();
    }
  });
});
