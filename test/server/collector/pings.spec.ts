import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, type VidFrameApp } from '../../../server/app';
import { apiTokensFor } from '../../helpers/apiTokens';
import { PING_MAX_SEGMENTS } from '../../../streams/timing';

const NOW = 1_700_000_000_000;
const ADMIN = 'admin-token-for-the-ping-tests';
const SECRET = 'a-shared-stream-secret-of-at-least-32-chars';
const { antiForgeryToken } = apiTokensFor(SECRET, () => NOW);
const CPN = 'cpnAbc_def-12345';

/**
 * The ping beacons of spec §7 through the whole app (real SQLite store): the player response names the URLs, the
 * embed's GETs are validated and stored, and the admin API reads them back.
 */
describe('ping beacons: GET /api/stats/playback and /api/stats/watchtime', () => {
  let dataDir: string;
  let app: VidFrameApp;

  const build = (extra: Parameters<typeof buildApp>[0] = {}) =>
    buildApp({ dataDir, now: () => NOW, adminToken: ADMIN, streamSecret: SECRET, rateLimit: false, ...extra });
  const admin = (url: string, token = ADMIN) => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}`, host: 'localhost:8080' } });
  const pings = async (query: string) => (await admin(`/collector/api/pings?${query}`)).json().items;
  /** The tracking URLs of a fresh player response for `videoId`, as the embed receives them. */
  const trackingOf = async (videoId: string) => {
    const res = await app.inject({ method: 'POST', url: '/youtubei/v1/player', payload: { videoId, session_token: antiForgeryToken() } });
    expect(res.statusCode).toBe(200);
    const { videostatsPlaybackUrl, videostatsWatchtimeUrl } = res.json().playbackTracking;
    return { playback: videostatsPlaybackUrl.baseUrl as string, watchtime: videostatsWatchtimeUrl.baseUrl as string };
  };
  const get = (url: string, remoteAddress?: string) => app.inject({ method: 'GET', url, ...(remoteAddress ? { remoteAddress } : {}) });

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'pings-'));
    app = await build();
  });
  afterEach(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('names root-relative tracking URLs in each playable player response, with the video and a per-response ei', async () => {
    const first = await trackingOf('VFsunrise01');
    const second = await trackingOf('VFsunrise01');
    expect(first.playback).toMatch(/^\/api\/stats\/playback\?docid=VFsunrise01&ei=[\w-]{22}$/);
    expect(first.watchtime).toMatch(/^\/api\/stats\/watchtime\?docid=VFsunrise01&ei=[\w-]{22}$/);
    expect(new URLSearchParams(first.playback.split('?')[1]).get('ei')).toBe(new URLSearchParams(first.watchtime.split('?')[1]).get('ei'));
    expect(second.playback).not.toBe(first.playback);
    // No beacons for a video that cannot play.
    const missing = await app.inject({ method: 'POST', url: '/youtubei/v1/player', payload: { videoId: 'VFnotthere1', session_token: antiForgeryToken() } });
    expect(missing.json()).not.toHaveProperty('playbackTracking');
  });

  it('stores a playback ping and watchtime pings (a resent one once) and reads them back through the admin API', async () => {
    const urls = await trackingOf('VFsunrise01');
    const ei = new URLSearchParams(urls.playback.split('?')[1]).get('ei');
    const playback = await get(`${urls.playback}&cpn=${CPN}&seq=0&cmt=0&rt=1.25&len=12.008`);
    expect(playback.statusCode).toBe(204);
    expect(playback.body).toBe('');
    expect(playback.headers['cache-control']).toBe('no-store');
    expect((await get(`${urls.watchtime}&cpn=${CPN}&seq=1&cmt=9.9&rt=11.25&len=12.008&state=playing&st=0&et=9.9`)).statusCode).toBe(204);
    const paused = `${urls.watchtime}&cpn=${CPN}&seq=2&cmt=7&rt=16&state=paused&st=9.9,3&et=12,7&final=1`;
    expect((await get(paused)).statusCode).toBe(204);
    expect((await get(paused)).statusCode).toBe(204); // resent: the answer was lost

    const listed = await pings('docid=VFsunrise01');
    expect(listed).toEqual([
      {
        id: expect.any(String),
        kind: 'playback',
        docid: 'VFsunrise01',
        ei,
        cpn: CPN,
        seq: 0,
        receivedAtMs: NOW,
        cmt: 0,
        rt: 1.25,
        len: 12.008,
        st: [],
        et: [],
        final: false,
      },
      {
        id: expect.any(String),
        kind: 'watchtime',
        docid: 'VFsunrise01',
        ei,
        cpn: CPN,
        seq: 1,
        receivedAtMs: NOW,
        cmt: 9.9,
        rt: 11.25,
        len: 12.008,
        state: 'playing',
        st: [0],
        et: [9.9],
        final: false,
      },
      {
        id: expect.any(String),
        kind: 'watchtime',
        docid: 'VFsunrise01',
        ei,
        cpn: CPN,
        seq: 2,
        receivedAtMs: NOW,
        cmt: 7,
        rt: 16,
        state: 'paused',
        st: [9.9, 3],
        et: [12, 7],
        final: true,
      },
    ]);
    expect((await pings(`kind=watchtime&cpn=${CPN}`)).map((p: { seq: number }) => p.seq)).toEqual([1, 2]);
    expect(await pings('docid=VFcitylight')).toEqual([]);
    // The end, after the pause ping took the last segment: a ping without segments.
    expect((await get(`${urls.watchtime}&cpn=${CPN}&seq=3&cmt=12.008&rt=16.5&state=ended&st=&et=`)).statusCode).toBe(204);
    expect((await pings('docid=VFsunrise01&limit=10')).at(-1)).toMatchObject({ seq: 3, state: 'ended', st: [], et: [] });
    const firstPage = (await admin('/collector/api/pings?limit=2')).json();
    expect(firstPage.items).toHaveLength(2);
    expect((await admin(`/collector/api/pings?limit=2&cursor=${firstPage.nextCursor}`)).json().items.map((p: { seq: number }) => p.seq)).toEqual([2, 3]);
  });

  it('keeps the pings behind the admin guard, and validates its query', async () => {
    expect((await admin('/collector/api/pings', 'wrong-token')).statusCode).toBe(401);
    expect((await app.inject('/collector/api/pings')).statusCode).toBe(401);
    const badKind = await admin('/collector/api/pings?kind=other');
    expect(badKind.statusCode).toBe(400);
    expect(badKind.json().error.message).toMatch(/kind/);
    expect((await admin('/collector/api/pings?limit=0')).statusCode).toBe(400);
  });

  const good = {
    docid: 'VFsunrise01',
    ei: 'ei_response-1',
    cpn: CPN,
    seq: '1',
    cmt: '4.5',
    rt: '6',
    len: '12.008',
    state: 'playing',
    st: '0,3',
    et: '2.5,4.5',
    final: '0',
  };
  const query = (fields: Record<string, string | undefined>, extra = '') =>
    Object.entries(fields)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${encodeURIComponent(v!)}`)
      .join('&') + extra;

  it('takes a well-formed watchtime ping (the baseline of the refusals below)', async () => {
    expect((await get(`/api/stats/watchtime?${query(good)}`)).statusCode).toBe(204);
  });

  it.each([
    ['docid', { docid: undefined }, /"docid": missing/],
    ['docid', { docid: 'short' }, /"docid": not a video id/],
    ['ei', { ei: undefined }, /"ei": missing/],
    ['ei', { ei: 'has space' }, /"ei": not a response id/],
    ['cpn', { cpn: 'tooShort' }, /"cpn": not a client playback nonce/],
    ['cpn', { cpn: undefined }, /"cpn": missing/],
    ['seq', { seq: '-1' }, /"seq": not a ping number/],
    ['seq', { seq: '0' }, /"seq": watchtime pings are numbered from 1/],
    ['cmt', { cmt: 'NaN' }, /"cmt": not a number of seconds/],
    ['cmt', { cmt: '1e3' }, /"cmt": not a number of seconds/],
    ['rt', { rt: '-2' }, /"rt": not a number of seconds/],
    ['len', { len: 'long' }, /"len": not a number of seconds/],
    ['state', { state: 'dancing' }, /"state": one of unstarted, ended, playing, paused, buffering, cued/],
    ['state', { state: undefined }, /"state": missing/],
    ['st', { st: '0,x' }, /"st": not a number of seconds/],
    ['st', { st: undefined }, /"st": missing/],
    ['st', { st: '' }, /"et": 2 ends for 0 starts/],
    ['et', { et: '2.5' }, /"et": 1 ends for 2 starts/],
    ['et', { et: '2.5,1' }, /"et": segment 2 ends \(1\) before it starts \(3\)/],
    [
      'st',
      {
        st: Array(PING_MAX_SEGMENTS + 1)
          .fill('1')
          .join(','),
        et: Array(PING_MAX_SEGMENTS + 1)
          .fill('1')
          .join(','),
      },
      /"st": at most 20 segments/,
    ],
    ['final', { final: 'yes' }, /"final": 0 or 1/],
  ])('refuses a watchtime ping with a bad %s: 400 naming it, nothing stored', async (_name, change, message) => {
    const res = await get(`/api/stats/watchtime?${query({ ...good, ...change })}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(message);
    expect(await pings('limit=10')).toEqual([]);
  });

  it('refuses unknown and repeated parameters, and watchtime parameters on the playback ping', async () => {
    const unknown = await get(`/api/stats/watchtime?${query(good)}&utm=1`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toMatch(/"utm": not a parameter of the watchtime ping/);
    const twice = await get(`/api/stats/watchtime?${query(good)}&cmt=5`);
    expect(twice.json().error.message).toMatch(/"cmt": given more than once/);
    const playback = { docid: good.docid, ei: good.ei, cpn: CPN, seq: '0', cmt: '0', rt: '1' };
    expect((await get(`/api/stats/playback?${query(playback)}&st=0`)).json().error.message).toMatch(/"st": not a parameter of the playback ping/);
    expect((await get(`/api/stats/playback?${query({ ...playback, seq: '3' })}`)).json().error.message).toMatch(/"seq": the playback ping is ping 0/);
    expect((await get(`/api/stats/playback?${query(playback)}`)).statusCode).toBe(204);
    expect(await pings('limit=10')).toHaveLength(1);
  });

  it('rate-limits pings per client address with 429, each route on its own', async () => {
    await app.close();
    app = await build({ rateLimit: { max: 2, windowMs: 60_000 } });
    const url = (seq: number) => `/api/stats/watchtime?${query({ ...good, seq: String(seq) })}`;
    const answers = [];
    for (let i = 1; i <= 3; i++) answers.push((await get(url(i), '10.0.0.1')).statusCode);
    expect(answers).toEqual([204, 204, 429]);
    const limited = await get(url(4), '10.0.0.1');
    expect(limited.json().error.message).toMatch(/^Too many pings \(2 per window\)/);
    expect((await get(url(5), '10.0.0.2')).statusCode).toBe(204);
    const playback = { docid: good.docid, ei: good.ei, cpn: CPN, seq: '0', cmt: '0', rt: '1' };
    expect((await get(`/api/stats/playback?${query(playback)}`, '10.0.0.1')).statusCode).toBe(204);
    expect((await pings('limit=10')).map((p: { seq: number }) => p.seq)).toEqual([1, 2, 5, 0]);
  });
});
