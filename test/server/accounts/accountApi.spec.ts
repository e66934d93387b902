import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ACCESS_TOKEN_LIFETIME_MS } from '../../../server/tokens/limits';
import { DEMO_ACCOUNTS } from '../../../server/accounts/demoAccounts';
import type { Accounts } from '../../../server/accounts/registerAccounts';
import { accountsMigrations } from '../../../server/accounts/migrations';
import { DATABASE_FILE_NAME, openDatabase } from '../../../server/db/openDatabase';
import { buildAccountsTestApp, form, FORM, signIn } from './accountsTestApp';

const { ada, grace } = DEMO_ACCOUNTS;
const DAY = 24 * 3600 * 1000;
const JSON_HEADERS = { 'content-type': 'application/json' } as const;
const payloadOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));

describe('access tokens, acting for channels and datasync ids (/accounts/*, /getDatasyncIdsEndpoint)', () => {
  let dataDir: string;
  let app: FastifyInstance;
  let accounts: Accounts;
  let now: number;
  const build = async () => {
    ({ app, accounts } = await buildAccountsTestApp({ dataDir, now: () => now, accessTokenSecret: 'an-access-token-secret-of-32-chars-or-more' }));
  };
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url, headers: { ...JSON_HEADERS, ...headers }, payload: JSON.stringify(body) });
  const tokenFor = async (session: string) => (await post('/accounts/token', { session })).json().accessToken as string;
  const datasync = (headers: Record<string, string> = {}) => app.inject({ url: '/getDatasyncIdsEndpoint', headers });

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'accounts-api-'));
    now = Date.UTC(2026, 0, 1);
    await build();
  });
  afterEach(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  describe('POST /accounts/token', () => {
    it('answers a token, the account, no acting channel and the channels it may act for, from the cookie', async () => {
      const session = await signIn(app, 'ada@example.com', 'vidframe-ada');
      const response = await app.inject({ method: 'POST', url: '/accounts/token', headers: { cookie: `vf_session=${session}` } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const answer = response.json();
      expect(answer).toEqual({
        signedIn: true,
        accessToken: expect.stringMatching(/^vfat1\.[\w-]+\.[\w-]{43}$/),
        expiresAtMs: now + ACCESS_TOKEN_LIFETIME_MS,
        account: { id: ada.id, displayName: 'Ada Lovelace', email: 'ada@example.com' },
        actingChannel: null,
        channels: [
          { id: ada.channel.id, title: "Ada's Workshop", relation: 'owner' },
          { id: grace.channel.id, title: "Grace's Lectures", relation: 'manager' },
        ],
      });
      expect(payloadOf(answer.accessToken)).toEqual({ sub: ada.id, sid: expect.stringMatching(/^[0-9a-f]{32}$/), exp: answer.expiresAtMs });
      expect(await accounts.verifyAuthorization(`Bearer ${answer.accessToken}`)).toEqual({
        kind: 'account',
        ok: true,
        accountId: ada.id,
        sessionId: payloadOf(answer.accessToken).sid,
        expiresAtMs: answer.expiresAtMs,
      });
    });

    it('takes the session from the body (the pop-up hand-over), with no cookie', async () => {
      const session = await signIn(app, 'grace@example.com', 'vidframe-grace');
      const response = await post('/accounts/token', { session });
      expect(response.statusCode).toBe(200);
      expect(response.json().account.id).toBe(grace.id);
    });

    it('answers 200 { signedIn: false } without a session, with an unknown one, and with an expired one (which is deleted)', async () => {
      const session = await signIn(app, 'ada@example.com', 'vidframe-ada');
      for (const response of [
        await app.inject({ method: 'POST', url: '/accounts/token' }),
        await post('/accounts/token', {}),
        await post('/accounts/token', { session: 'A'.repeat(43) }),
        await app.inject({ method: 'POST', url: '/accounts/token', headers: { cookie: `vf_session=${'B'.repeat(43)}` } }),
      ]) {
        expect(response.statusCode).toBe(200);
        expect(response.headers['cache-control']).toBe('no-store');
        expect(response.json()).toEqual({ signedIn: false });
      }
      now += 14 * DAY;
      expect((await post('/accounts/token', { session })).json()).toEqual({ signedIn: false });
      const db = openDatabase(join(dataDir, DATABASE_FILE_NAME), { readonly: true });
      expect(db.prepare('SELECT count(*) FROM sessions').pluck().get()).toBe(0);
      db.close();
    });

    it('refuses a malformed body with the JSON error shape (400)', async () => {
      const response = await post('/accounts/token', { session: 'not a session' });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toEqual({ code: 400, message: expect.stringContaining('body/session must match pattern') });
    });

    it('never outlives its session', async () => {
      await app.close();
      ({ app, accounts } = await buildAccountsTestApp({ dataDir, now: () => now, sessionLifetimeMs: 60_000 }));
      const session = await signIn(app, 'ada@example.com', 'vidframe-ada');
      expect((await post('/accounts/token', { session })).json().expiresAtMs).toBe(now + 60_000);
    });

    it('refuses a cookie-carrying request from another site (403)', async () => {
      const session = await signIn(app, 'ada@example.com', 'vidframe-ada');
      const response = await app.inject({
        method: 'POST',
        url: '/accounts/token',
        headers: { cookie: `vf_session=${session}`, origin: 'https://evil.example' },
      });
      expect(response.statusCode).toBe(403);
    });
  });

  describe('verifyAuthorization', () => {
    it('tells anonymous (no header) from refused (a header that proves nothing)', async () => {
      expect(await accounts.verifyAuthorization(undefined)).toEqual({ kind: 'anonymous', ok: true });
      expect(await accounts.verifyAuthorization('Basic YWRhOnB3')).toEqual({
        kind: 'refused',
        ok: false,
        status: 401,
        reason: 'The Authorization header must be "Bearer <access token>"',
      });
      expect(await accounts.verifyAuthorization('Bearer vfat1.nope')).toEqual({
        kind: 'refused',
        ok: false,
        status: 401,
        reason: 'The access token is malformed',
      });
    });

    it('refuses an expired token, a forged one, and every token of a signed-out session at once', async () => {
      const session = await signIn(app, 'ada@example.com', 'vidframe-ada');
      const token = await tokenFor(session);
      const forged = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
      expect(await accounts.verifyAuthorization(`Bearer ${forged}`)).toMatchObject({ kind: 'refused', reason: 'The access token signature is invalid' });

      now += ACCESS_TOKEN_LIFETIME_MS;
      expect(await accounts.verifyAuthorization(`Bearer ${token}`)).toMatchObject({ kind: 'refused', reason: 'The access token has expired; sign in again' });

      const fresh = await tokenFor(session);
      expect((await accounts.verifyAuthorization(`bearer ${fresh}`)).kind).toBe('account');
      const out = await post('/accounts/signout', {}, { cookie: `vf_session=${session}` });
      expect(out.json()).toEqual({ signedOut: true });
      expect(out.headers['set-cookie']).toMatch(/^vf_session=; Max-Age=0;/);
      expect(await accounts.verifyAuthorization(`Bearer ${fresh}`)).toEqual({
        kind: 'refused',
        ok: false,
        status: 401,
        reason: 'The session of this access token has ended; sign in again',
      });
      expect((await post('/accounts/token', { session })).json()).toEqual({ signedIn: false });
      expect((await post('/accounts/signout', { session })).json()).toEqual({ signedOut: false });
    });

    it('signs a session out by the secret in the body too', async () => {
      const session = await signIn(app, 'grace@example.com', 'vidframe-grace');
      const token = await tokenFor(session);
      expect((await post('/accounts/signout', { session })).json()).toEqual({ signedOut: true });
      expect((await accounts.verifyAuthorization(`Bearer ${token}`)).kind).toBe('refused');
    });

    it('refuses a token whose acting channel the account may no longer act for', async () => {
      const session = await signIn(app, 'ada@example.com', 'vidframe-ada');
      const token = (await post('/accounts/act_as', { session, channelId: grace.channel.id })).json().accessToken;
      expect(await accounts.verifyAuthorization(`Bearer ${token}`)).toMatchObject({ kind: 'account', actingChannelId: grace.channel.id });
      const db = openDatabase(join(dataDir, DATABASE_FILE_NAME));
      db.prepare('DELETE FROM channel_managers WHERE account_id = ?').run(ada.id);
      db.close();
      expect(await accounts.verifyAuthorization(`Bearer ${token}`)).toMatchObject({
        kind: 'refused',
        reason: expect.stringContaining(`can no longer act for channel ${grace.channel.id}`),
      });
      // The session falls back to Ada herself.
      expect((await post('/accounts/token', { session })).json().actingChannel).toBeNull();
    });
  });

  describe('POST /accounts/act_as', () => {
    it('acts for a channel the account owns, one it manages, and again for itself', async () => {
      const session = await signIn(app, 'ada@example.com', 'vidframe-ada');
      const own = await post('/accounts/act_as', { session, channelId: ada.channel.id });
      expect(own.statusCode).toBe(200);
      expect(own.json().actingChannel).toEqual({ id: ada.channel.id, title: "Ada's Workshop" });
      expect(payloadOf(own.json().accessToken)).toMatchObject({ sub: ada.id, ch: ada.channel.id });

      const managed = await post('/accounts/act_as', { session, channelId: grace.channel.id });
      expect(managed.statusCode).toBe(200);
      expect(managed.json().actingChannel).toEqual({ id: grace.channel.id, title: "Grace's Lectures" });
      // The choice is the session's: the next token speaks for the same channel.
      expect((await post('/accounts/token', { session })).json().actingChannel.id).toBe(grace.channel.id);

      const self = await post('/accounts/act_as', { session, channelId: null });
      expect(self.json().actingChannel).toBeNull();
      expect(payloadOf(self.json().accessToken)).not.toHaveProperty('ch');
    });

    it('is 403 for a channel the account neither owns nor manages, 401 without a session, 400 for a malformed id', async () => {
      const session = await signIn(app, 'grace@example.com', 'vidframe-grace');
      const denied = await post('/accounts/act_as', { session, channelId: ada.channel.id });
      expect(denied.statusCode).toBe(403);
      expect(denied.json()).toEqual({ error: { code: 403, message: `You cannot act for channel ${ada.channel.id}` } });
      expect((await post('/accounts/token', { session })).json().actingChannel).toBeNull();
      const unknown = await post('/accounts/act_as', { session, channelId: 'UCnoSuchChannel000000000' });
      expect(unknown.statusCode).toBe(403);
      expect((await post('/accounts/act_as', { channelId: grace.channel.id })).json()).toEqual({ error: { code: 401, message: 'Not signed in' } });
      expect((await post('/accounts/act_as', { session, channelId: 'UC<script>' })).statusCode).toBe(400);
      expect((await post('/accounts/act_as', { session })).statusCode).toBe(400);
    });

    it("takes the sign-in page's picker form and goes back to /signin, where the choice is selected", async () => {
      const session = await signIn(app, 'ada@example.com', 'vidframe-ada');
      const cookie = `vf_session=${session}`;
      const picked = await app.inject({
        method: 'POST',
        url: '/accounts/act_as',
        headers: { ...FORM, cookie },
        payload: form({ channelId: grace.channel.id }),
      });
      expect(picked.statusCode).toBe(303);
      expect(picked.headers.location).toBe('/signin');
      expect((await app.inject({ url: '/signin', headers: { cookie } })).body).toContain(`<option value="${grace.channel.id}" selected>`);
      await app.inject({ method: 'POST', url: '/accounts/act_as', headers: { ...FORM, cookie }, payload: form({ channelId: '' }) });
      expect((await app.inject({ url: '/signin', headers: { cookie } })).body).toContain('<option value="" selected>');
      const crossSite = await app.inject({
        method: 'POST',
        url: '/accounts/act_as',
        headers: { ...FORM, cookie, origin: 'https://evil.example' },
        payload: form({ channelId: '' }),
      });
      expect(crossSite.statusCode).toBe(403);
    });
  });

  describe('GET /getDatasyncIdsEndpoint', () => {
    const parse = (body: string) => {
      expect(body.startsWith(")]}'\n")).toBe(true);
      return JSON.parse(body.slice(5));
    };

    it('answers no id to an anonymous viewer', async () => {
      const response = await datasync();
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.body).toBe(`)]}'\n{"responseContext":{},"datasyncIds":[]}`);
    });

    it('answers "<accountId>||" for the account itself and "<channelId>||<accountId>" when acting for a channel', async () => {
      const session = await signIn(app, 'ada@example.com', 'vidframe-ada');
      const self = await datasync({ authorization: `Bearer ${await tokenFor(session)}` });
      expect(parse(self.body)).toEqual({ responseContext: {}, datasyncIds: [`${ada.id}||`] });
      const delegated = (await post('/accounts/act_as', { session, channelId: grace.channel.id })).json().accessToken;
      const acting = await datasync({ authorization: `Bearer ${delegated}` });
      expect(parse(acting.body)).toEqual({ responseContext: {}, datasyncIds: [`${grace.channel.id}||${ada.id}`] });
    });

    it('is 401 with the reason for an expired, forged or malformed bearer, never an anonymous answer', async () => {
      const session = await signIn(app, 'ada@example.com', 'vidframe-ada');
      const token = await tokenFor(session);
      const forged = await datasync({ authorization: `Bearer ${token.slice(0, -2)}xx` });
      expect(forged.statusCode).toBe(401);
      expect(forged.json()).toEqual({ error: { code: 401, message: 'The access token signature is invalid' } });
      expect(forged.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
      expect((await datasync({ authorization: 'Bearer garbage' })).json().error.message).toBe('The access token is malformed');
      now += ACCESS_TOKEN_LIFETIME_MS + 1;
      const expired = await datasync({ authorization: `Bearer ${token}` });
      expect(expired.statusCode).toBe(401);
      expect(expired.json()).toEqual({ error: { code: 401, message: 'The access token has expired; sign in again' } });
    });
  });

  describe('the database across restarts', () => {
    it('reopens without migrating or seeding again, keeps live sessions, and prunes expired ones on start', async () => {
      const live = await signIn(app, 'ada@example.com', 'vidframe-ada');
      await app.close();
      now += DAY;
      ({ app, accounts } = await buildAccountsTestApp({ dataDir, now: () => now, accessTokenSecret: 'an-access-token-secret-of-32-chars-or-more' }));
      expect((await post('/accounts/token', { session: live })).statusCode).toBe(200);
      const db = openDatabase(join(dataDir, DATABASE_FILE_NAME), { readonly: true });
      expect(db.prepare("SELECT count(*) FROM schema_migrations WHERE domain = 'accounts'").pluck().get()).toBe(accountsMigrations.length);
      expect(db.prepare('SELECT count(*) FROM accounts').pluck().get()).toBe(2);
      db.close();
      await app.close();
      now += 14 * DAY;
      ({ app, accounts } = await buildAccountsTestApp({ dataDir, now: () => now, seedDemoAccounts: false }));
      const after = openDatabase(join(dataDir, DATABASE_FILE_NAME), { readonly: true });
      expect(after.prepare('SELECT count(*) FROM sessions').pluck().get()).toBe(0);
      after.close();
    });

    it('exposes canActFor and displayNameOf', async () => {
      expect(await accounts.canActFor(ada.id, grace.channel.id)).toBe(true);
      expect(await accounts.canActFor(grace.id, ada.channel.id)).toBe(false);
      expect(await accounts.displayNameOf(grace.id)).toBe('Grace Hopper');
      expect(await accounts.displayNameOf('acc_nobody')).toBeUndefined();
    });
  });
});
