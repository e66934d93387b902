import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildApp, type VidFrameApp } from '../../../server/app';
import { DEMO_ACCOUNTS } from '../../../server/accounts/demoAccounts';
import { loadCatalog } from '../../../server/media/catalog';
import { playerResponseFor } from '../../../server/media/playerResponse';
import { PLAYER_HEARTBEAT_INTERVAL_MS } from '../../../streams/timing';
import { apiTokensFor } from '../../helpers/apiTokens';

/**
 * The catalogue's viewer rules through the whole app (spec §8's 150 and 151): a video only signed-in viewers may
 * play, one blocked in a region (`gl`), and one whose playback the server's heartbeat stops.
 */
const SECRET = 'viewer-rules-spec-shared-secret-0123456789';
const T0 = 1_800_000_000_000;
const { ada } = DEMO_ACCOUNTS;

describe('the player answer and the heartbeat follow the viewer rules', () => {
  let dataDir: string;
  let app: VidFrameApp;
  let now = T0;
  const tokens = apiTokensFor(SECRET, () => now);

  const post = (url: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url, payload: { session_token: tokens.antiForgeryToken(), ...body }, headers });
  const player = (videoId: string, gl?: string, headers: Record<string, string> = {}) =>
    post('/youtubei/v1/player', { videoId, ...(gl && { context: { client: { gl } } }) }, headers);
  const heartbeat = (body: Record<string, unknown>, headers: Record<string, string> = {}) => post('/youtubei/v1/player/heartbeat', body, headers);
  const signedIn = async (): Promise<Record<string, string>> => {
    const form = await app.inject({
      method: 'POST',
      url: '/signin',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ email: ada.email, password: ada.password }).toString(),
    });
    const session = String([form.headers['set-cookie']].flat().find((c) => String(c).startsWith('vf_session=')))
      .split(';')[0]
      .slice('vf_session='.length);
    const { accessToken } = (await app.inject({ method: 'POST', url: '/accounts/token', payload: { session } })).json();
    return { authorization: `Bearer ${accessToken}`, 'x-youtube-bootstrap-logged-in': 'true' };
  };

  beforeEach(async () => {
    now = T0;
    dataDir = mkdtempSync(join(tmpdir(), 'viewer-rules-'));
    app = await buildApp({ dataDir, streamSecret: SECRET, adminToken: 'viewer-rules-admin-token-0123', now: () => now, rateLimit: false });
  });
  afterEach(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a members-only video asks an anonymous viewer to sign in (LOGIN_REQUIRED) and plays for a signed-in one', async () => {
    const anonymous = (await player('VFmembers01')).json();
    expect(anonymous.playabilityStatus).toEqual({ status: 'LOGIN_REQUIRED', reason: 'Sign in to watch this video.' });
    expect(anonymous.streamingData).toBeUndefined();
    expect(anonymous.videoDetails.title).toBe('Members only');
    const member = (await player('VFmembers01', undefined, await signedIn())).json();
    expect(member.playabilityStatus).toEqual({ status: 'OK' });
    expect(member.streamingData.formats[0].url).toContain('/media/videos/VFcitylight/');
  });

  it("a regional video is blocked where the client context's gl says DE (mrm.blocked) and plays elsewhere or without gl", async () => {
    for (const gl of ['DE', 'de']) {
      const blocked = (await player('VFregional1', gl)).json();
      expect(blocked.playabilityStatus).toMatchObject({ status: 'UNPLAYABLE', errorCode: 'mrm.blocked' });
      expect(blocked.streamingData).toBeUndefined();
    }
    for (const gl of ['US', undefined, 'not-a-region']) expect((await player('VFregional1', gl)).json().playabilityStatus).toEqual({ status: 'OK' });
  });

  it('the embed page, which does not know the viewer yet, gives only the details of a video whose answer depends on it', () => {
    const catalog = loadCatalog(resolve(__dirname, '../../../media'));
    for (const id of ['VFmembers01', 'VFregional1']) {
      // What the embed page inlines: the answer without a viewer.
      const page = playerResponseFor(catalog, id);
      expect(page).toMatchObject({ playabilityStatus: { status: 'OK' }, viewerDependent: true, videoDetails: { videoId: id } });
      expect(page.streamingData).toBeUndefined();
    }
    expect(playerResponseFor(catalog, 'VFheartbt01').viewerDependent).toBeUndefined();
  });

  it('the heartbeat video carries heartbeatParams; its heartbeat stops the playback after 4 s of play, pauses counted at most twice the interval', async () => {
    const answer = (await player('VFheartbt01')).json();
    expect(answer.heartbeatParams).toEqual({
      intervalMilliseconds: String(PLAYER_HEARTBEAT_INTERVAL_MS),
      heartbeatToken: expect.any(String),
      softFailOnError: false,
    });
    expect((await player('VFoceanwave')).json().heartbeatParams).toBeUndefined();
    const heartbeatToken = answer.heartbeatParams.heartbeatToken as string;

    // The first heartbeat starts the count at 0.
    const first = (await heartbeat({ videoId: 'VFheartbt01', heartbeatToken })).json();
    expect(first).toMatchObject({ playabilityStatus: { status: 'OK' }, heartbeatServerData: expect.stringMatching(/^vfhb1\./) });
    // 2 s of play: 2 s counted, goes on.
    now += 2_000;
    const second = (await heartbeat({ videoId: 'VFheartbt01', heartbeatToken, heartbeatServerData: first.heartbeatServerData })).json();
    expect(second.playabilityStatus).toEqual({ status: 'OK' });
    // A pause of a minute: at most twice the interval counts, 2 s + 10 s ≥ 4 s: stopped.
    now += 60_000;
    const third = (await heartbeat({ videoId: 'VFheartbt01', heartbeatToken, heartbeatServerData: second.heartbeatServerData })).json();
    expect(third.playabilityStatus).toEqual({ status: 'UNPLAYABLE', reason: 'Playback of this video has ended here.' });
    expect(third.heartbeatServerData).toBeUndefined();
  });

  it('the heartbeat stops at the first heartbeat past 4 s; forged or foreign server data starts again; other videos need none', async () => {
    let data: string | undefined;
    const statuses: string[] = [];
    for (let i = 0; i < 3; i++) {
      const a = (await heartbeat({ videoId: 'VFheartbt01', heartbeatToken: 'tok', ...(data && { heartbeatServerData: data }) })).json();
      statuses.push(a.playabilityStatus.status);
      data = a.heartbeatServerData;
      now += 2_500;
    }
    // 0 s, 2.5 s, then 5 s ≥ 4 s.
    expect(statuses).toEqual(['OK', 'OK', 'UNPLAYABLE']);
    const forged = (await heartbeat({ videoId: 'VFheartbt01', heartbeatToken: 'tok', heartbeatServerData: 'vfhb1.eyJ2IjoiVkYifQ.' + 'A'.repeat(43) })).json();
    expect(forged.playabilityStatus).toEqual({ status: 'OK' });
    expect((await heartbeat({ videoId: 'VFoceanwave' })).json()).toMatchObject({ playabilityStatus: { status: 'OK' }, stopHeartbeat: true });
  });

  it('the heartbeat checks the viewer again, and refuses a body without a valid videoId (400)', async () => {
    expect((await heartbeat({ videoId: 'VFmembers01' })).json().playabilityStatus.status).toBe('LOGIN_REQUIRED');
    expect((await heartbeat({ videoId: 'VFregional1', context: { client: { gl: 'DE' } } })).json().playabilityStatus.status).toBe('UNPLAYABLE');
    expect((await heartbeat({ videoId: 'VFunknown00' })).json().playabilityStatus.status).toBe('ERROR');
    for (const body of [{}, { videoId: 'bad!' }, { videoId: 42 }]) expect((await heartbeat(body)).statusCode).toBe(400);
  });
});
