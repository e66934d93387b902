import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildApp, DEFAULT_API_KEY, type VidFrameApp } from '../../../server/app';
import { DEMO_ACCOUNTS } from '../../../server/accounts/demoAccounts';
import { ACCESS_TOKEN_LIFETIME_MS, VISITOR_DATA_LIFETIME_MS } from '../../../server/tokens/limits';
import { createStreamTokens } from '../../../server/tokens/streamTokens';
import { apiTokensFor } from '../../helpers/apiTokens';

/**
 * The one request-validation step of every API call (spec §6/§7), through the whole app: the player call and
 * the collector's log_event, signed in through the real sign-in form and token endpoint.
 */
const SECRET = 'identity-spec-shared-secret-0123456789abcdef';
const ADMIN = 'identity-spec-admin-token-0123';
const T0 = 1_800_000_000_000;
const { ada, grace } = DEMO_ACCOUNTS;

describe('API identity: bearer token, logged-in flag, visitor id, anti-forgery field, delegation', () => {
  let dataDir: string;
  let app: VidFrameApp;
  let now = T0;
  const tokens = apiTokensFor(SECRET, () => now);
  const streamToken = () => createStreamTokens({ secret: SECRET, now: () => now }).issue().token;

  const signIn = async (email: string, password: string, actAs?: string): Promise<{ accessToken: string; session: string }> => {
    const form = await app.inject({
      method: 'POST',
      url: '/signin',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ email, password }).toString(),
    });
    expect(form.statusCode).toBe(303);
    const session = String([form.headers['set-cookie']].flat().find((c) => String(c).startsWith('vf_session=')))
      .split(';')[0]
      .slice('vf_session='.length);
    const answer = actAs
      ? await app.inject({ method: 'POST', url: '/accounts/act_as', payload: { session, channelId: actAs } })
      : await app.inject({ method: 'POST', url: '/accounts/token', payload: { session } });
    expect(answer.statusCode).toBe(200);
    return { accessToken: answer.json().accessToken, session };
  };
  const player = (body: Record<string, unknown>, headers: Record<string, string> = {}, url = '/youtubei/v1/player') =>
    app.inject({ method: 'POST', url, payload: { videoId: 'VFsunrise01', ...body }, headers });
  const log = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/youtubei/v1/log_event',
      payload: { events: [{ clientEventId: `e:${Math.random()}`, playerStateChange: { state: 1 } }], ...body },
      headers: { 'x-vidframe-stream-token': streamToken(), ...headers },
    });
  const requests = async (query = '') =>
    (await app.inject({ url: `/collector/api/requests?limit=100${query}`, headers: { authorization: `Bearer ${ADMIN}`, host: 'localhost' } })).json().items;

  beforeEach(async () => {
    now = T0;
    dataDir = mkdtempSync(join(tmpdir(), 'identity-'));
    app = await buildApp({ dataDir, streamSecret: SECRET, adminToken: ADMIN, now: () => now, rateLimit: false });
  });
  afterEach(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a POST without the anti-forgery field, or with a forged one, with a clear 403; the page token passes', async () => {
    const missing = await player({});
    expect(missing.statusCode).toBe(403);
    expect(missing.json().error.message).toBe(
      'The request carries no anti-forgery token (session_token): every POST carries the anti-forgery token the page was given',
    );
    const forged = await player({ session_token: tokens.antiForgeryToken().replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().error.message).toMatch(/^The anti-forgery token signature is wrong/);
    // A stream token is signed too, but is not an anti-forgery token.
    expect((await player({ session_token: streamToken() })).statusCode).toBe(403);
    expect((await log({})).statusCode).toBe(403);
    expect(await requests()).toHaveLength(0);
    expect((await player({ session_token: tokens.antiForgeryToken() })).statusCode).toBe(200);
  });

  it('keeps the anti-forgery token valid as long as the retry queue keeps a request (37 days), not longer', async () => {
    const old = tokens.antiForgeryToken();
    now = T0 + 36 * 24 * 3600 * 1000;
    expect((await log({ session_token: old })).statusCode).toBe(200);
    now = T0 + 38 * 24 * 3600 * 1000;
    const late = await log({ session_token: old });
    expect(late.statusCode).toBe(403);
    expect(late.json().error.message).toMatch(/^The anti-forgery token has expired/);
  });

  it('a signed-in viewer is attributed at the collector; an anonymous one is not, and sends no credentials', async () => {
    const { accessToken } = await signIn(ada.email, ada.password);
    const signedIn = await log(
      { session_token: tokens.antiForgeryToken() },
      { authorization: `Bearer ${accessToken}`, 'x-youtube-bootstrap-logged-in': 'true' },
    );
    expect(signedIn.statusCode).toBe(200);
    // A signed-in viewer gets a consistency token jar to send back (spec §3).
    expect(signedIn.json().responseContext.consistencyTokenJar).toEqual({
      encryptedTokenJarContents: expect.stringMatching(/^v1\./),
      expirationSeconds: '600',
    });
    const anonymous = await log({ session_token: tokens.antiForgeryToken() });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json().responseContext.consistencyTokenJar).toBeUndefined();
    const [first, second] = await requests();
    expect(first.accountId).toBe(ada.id);
    expect(first.headers['x-youtube-bootstrap-logged-in']).toBe('true');
    expect(first.headers.authorization).toBeUndefined(); // never stored
    expect(second.accountId).toBeUndefined();
    expect((await requests(`&accountId=${ada.id}`)).map((r: { accountId: string }) => r.accountId)).toEqual([ada.id]);
  });

  it('a bad, expired or signed-out access token is a 401 with the reason, never an anonymous success', async () => {
    const { accessToken, session } = await signIn(grace.email, grace.password);
    const send = (authorization: string) => log({ session_token: tokens.antiForgeryToken() }, { authorization });
    const malformed = await send('Bearer nonsense');
    expect(malformed.statusCode).toBe(401);
    expect(malformed.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    expect(malformed.json().error.message).toBe('The access token is malformed');
    expect((await send(`Basic ${accessToken}`)).json().error.message).toBe('The Authorization header must be "Bearer <access token>"');
    now = T0 + ACCESS_TOKEN_LIFETIME_MS + 1;
    expect((await send(`Bearer ${accessToken}`)).json().error.message).toBe('The access token has expired; sign in again');
    now = T0;
    expect((await app.inject({ method: 'POST', url: '/accounts/signout', payload: { session } })).statusCode).toBe(200);
    const ended = await send(`Bearer ${accessToken}`);
    expect(ended.statusCode).toBe(401);
    expect(ended.json().error.message).toBe('The session of this access token has ended; sign in again');
    expect(await requests()).toHaveLength(0);
  });

  it('the logged-in flag without credentials is refused; the flag is never read from the body', async () => {
    const claimed = await player({ session_token: tokens.antiForgeryToken() }, { 'x-youtube-bootstrap-logged-in': 'true' });
    expect(claimed.statusCode).toBe(401);
    expect(claimed.json().error.message).toMatch(/X-Youtube-Bootstrap-Logged-In: true.*no access token/);
    expect((await player({ session_token: tokens.antiForgeryToken(), loggedIn: true })).statusCode).toBe(200);
  });

  it('delegation: an account acts for a channel it manages (attributed to both), not for one it does not', async () => {
    const { accessToken } = await signIn(ada.email, ada.password, grace.channel.id);
    const asGrace = { context: { user: { delegatedSessionId: grace.channel.id } }, session_token: tokens.antiForgeryToken() };
    expect((await log(asGrace, { authorization: `Bearer ${accessToken}` })).statusCode).toBe(200);
    const [request] = await requests();
    expect(request).toMatchObject({ accountId: ada.id, channelId: grace.channel.id });

    const graceToken = (await signIn(grace.email, grace.password)).accessToken;
    const asAda = { context: { user: { delegatedSessionId: ada.channel.id } }, session_token: tokens.antiForgeryToken() };
    const refused = await log(asAda, { authorization: `Bearer ${graceToken}` });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe(`This account cannot act for channel ${ada.channel.id}`);
    const anonymous = await log(asAda);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.message).toBe(`Acting for channel ${ada.channel.id} needs a signed-in account`);
  });

  it('visitor id: handed out when absent or expired, refused when forged (400)', async () => {
    const first = await player({ session_token: tokens.antiForgeryToken() });
    const issued = first.json().responseContext.visitorData;
    expect(issued).toMatch(/^v1\./);
    const kept = await player({ session_token: tokens.antiForgeryToken() }, { 'x-goog-visitor-id': issued });
    expect(kept.json().responseContext.visitorData).toBeUndefined(); // the client keeps the one it has
    const forged = await player({ session_token: tokens.antiForgeryToken() }, { 'x-goog-visitor-id': 'v1.made-up-visitor' });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error.message).toBe('The visitor id is malformed (X-Goog-Visitor-Id)');
    now = T0 + VISITOR_DATA_LIFETIME_MS + 1000;
    const renewed = await player({ session_token: tokens.antiForgeryToken() }, { 'x-goog-visitor-id': issued });
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json().responseContext.visitorData).not.toBe(issued);
  });

  it('takes a gzip body on every call (the client compresses 500 bytes and more), and refuses a malformed one with a 400', async () => {
    const body = JSON.stringify({ videoId: 'VFsunrise01', session_token: tokens.antiForgeryToken(), padding: 'x'.repeat(600) });
    const zipped = await app.inject({
      method: 'POST',
      url: '/youtubei/v1/player',
      payload: gzipSync(body),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.json().videoDetails.videoId).toBe('VFsunrise01');
    const broken = await app.inject({
      method: 'POST',
      url: '/youtubei/v1/player',
      payload: 'not gzip',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expect(broken.statusCode).toBe(400);
    const bomb = await app.inject({
      method: 'POST',
      url: '/youtubei/v1/next',
      payload: gzipSync(`{"p":"${'y'.repeat(3_000_000)}"}`),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expect(bomb.statusCode).toBe(413);
    const br = await app.inject({
      method: 'POST',
      url: '/youtubei/v1/player',
      payload: body,
      headers: { 'content-type': 'application/json', 'content-encoding': 'br' },
    });
    expect(br.statusCode).toBe(415);
  });

  it('the key is checked when a request names one (spec §7: a query parameter)', async () => {
    expect((await player({ session_token: tokens.antiForgeryToken() }, {}, `/youtubei/v1/player?key=${DEFAULT_API_KEY}`)).statusCode).toBe(200);
    const wrong = await player({ session_token: tokens.antiForgeryToken() }, {}, '/youtubei/v1/player?key=someone-elses-key');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.message).toBe('API key not valid. Please pass a valid API key.');
  });

  it('the embed page hands out the visitor id, the anti-forgery token, the API key and the ads host', async () => {
    const html = (await app.inject({ url: '/embed/VFsunrise01', headers: { host: 'localhost:8080' } })).body;
    const config = JSON.parse(/window\.vidframeConfig=(.*?);<\/script>/s.exec(html)![1]);
    expect(config.args).toMatchObject({
      visitor_data: expect.stringMatching(/^v1\./),
      xsrf_token: expect.stringMatching(/^v1\./),
      innertube_api_key: DEFAULT_API_KEY,
      embed_mode: 'standard',
    });
    expect(config.args.anonymous_id_url).toBeUndefined(); // this app runs without an ads host
    expect((await player({ session_token: config.args.xsrf_token }, { 'x-goog-visitor-id': config.args.visitor_data })).statusCode).toBe(200);
  });
});

describe('embed modes and the ads host URL', () => {
  let dataDir: string;
  let app: VidFrameApp;
  afterEach(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each([
    ['localhost:8080', 'standard', 'http://localhost:8081/pagead/id'],
    ['nocookie.localhost:8080', 'private', 'http://nocookie.localhost:8081/pagead/id'],
    ['edu.localhost:8080', 'education', 'http://edu.localhost:8081/pagead/id'],
  ])('an embed served as %s is %s, told to fetch the anonymous id from %s', async (host, mode, url) => {
    dataDir = mkdtempSync(join(tmpdir(), 'modes-'));
    app = await buildApp({ dataDir, ads: { port: 8081, privateEmbedHosts: ['nocookie.localhost'] }, educationEmbedHosts: ['edu.localhost'] });
    const html = (await app.inject({ url: '/embed/VFsunrise01', headers: { host } })).body;
    const config = JSON.parse(/window\.vidframeConfig=(.*?);<\/script>/s.exec(html)![1]);
    expect(config.args.embed_mode).toBe(mode);
    expect(config.args.anonymous_id_url).toBe(url);
  });
});
