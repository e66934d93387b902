import { playbackBeacons, pingUrl, type PlaybackSample, type TrackedVideo } from '../../../streams/tracking/playbackBeacons';
import { WATCHTIME_PING_INTERVAL_MS } from '../../../streams/timing';
import { createTestScheduler } from '../../helpers/testScheduler';

const tracking = (videoId: string, ei: string) => ({
  videostatsPlaybackUrl: { baseUrl: `/api/stats/playback?docid=${videoId}&ei=${ei}` },
  videostatsWatchtimeUrl: { baseUrl: `/api/stats/watchtime?docid=${videoId}&ei=${ei}` },
});
const sunrise: TrackedVideo = { videoId: 'VFsunrise01', tracking: tracking('VFsunrise01', 'E1'), lengthSec: 12.008, cpn: 'cpnSunrise000001' };
const city: TrackedVideo = { videoId: 'VFcitylight', tracking: tracking('VFcitylight', 'E2'), lengthSec: 10.008, cpn: 'cpnCity000000002' };
const s = (state: PlaybackSample['state'], mediaTimeSec: number): PlaybackSample => ({ state, mediaTimeSec });

/** A watchtime beacon of `video`, matched on its parameters (its URL is checked by the first spec). */
const watch = (video: TrackedVideo, params: Record<string, unknown>) => ({
  kind: 'watchtime',
  url: expect.stringContaining(`docid=${video.videoId}`),
  params: { cpn: video.cpn, ...params },
});
const playback = (video: TrackedVideo, params: Record<string, unknown>) => ({
  kind: 'playback',
  url: expect.stringContaining(`docid=${video.videoId}`),
  params: { cpn: video.cpn, seq: 0, ...params },
});

describe('playbackBeacons', () => {
  it('sends the playback ping when playback starts, then a watchtime ping every 10 s while playing and one at pause (production constant)', () => {
    expect(WATCHTIME_PING_INTERVAL_MS).toBe(10_000);
    createTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const video = hot('  v', { v: sunrise });
      // cued @0, playing from media time 0 @1000, a time update (9.9 s) @10900, paused at 15 s @16000.
      const playing = hot('c 999ms p 9899ms u 5099ms z', { c: s(5, 0), p: s(1, 0), u: s(1, 9.9), z: s(2, 15) });
      // playback @1000; the interval runs from the start of playing: a tick @11000; the pause @16000.
      const expected = '   1000ms p 9999ms w 4999ms x';
      expectObservable(playbackBeacons({ video$: video, playback$: playing })).toBe(expected, {
        p: {
          kind: 'playback',
          url: '/api/stats/playback?docid=VFsunrise01&ei=E1&cpn=cpnSunrise000001&seq=0&cmt=0&rt=1&len=12.008',
          params: { cpn: 'cpnSunrise000001', seq: 0, cmt: 0, rt: 1, len: 12.008 },
        },
        w: {
          kind: 'watchtime',
          url: '/api/stats/watchtime?docid=VFsunrise01&ei=E1&cpn=cpnSunrise000001&seq=1&cmt=9.9&rt=11&len=12.008&state=playing&st=0&et=9.9',
          params: { cpn: 'cpnSunrise000001', seq: 1, cmt: 9.9, rt: 11, len: 12.008, state: 'playing', st: [0], et: [9.9] },
        },
        x: watch(sunrise, { seq: 2, cmt: 15, rt: 16, len: 12.008, state: 'paused', st: [9.9], et: [15] }),
      });
      expectSubscriptions(playing.subscriptions).toBe('^');
    });
  });

  it('splits played segments at seeks and stalls, pings only what was played, restarts the interval on playing again, and pings at the end', () => {
    createTestScheduler().run(({ hot, time, expectObservable }) => {
      const intervalMs = time('-----|');
      const video = hot('  v', { v: sunrise });
      // playing @1 (0 s), 2 s @3, a seek 2 → 8 @4, a stall at 9 s @7, playing again @9, 11 s @12, ended at 12 s @16.
      const playing = hot('-p-u---b-q--v---e', { p: s(1, 0), u: s(1, 2), b: s(3, 9), q: s(1, 9), v: s(1, 11), e: s(0, 12) });
      const seeks = hot('  ----k', { k: { fromSec: 2, toSec: 8 } });
      // tick @6 (1 + 5): [0, 2] (the seek's [8, 8] has no length yet); the stall stops the clock, playing @9 restarts
      // it: tick @14 with [8, 9] and [9, 11]; the end @16 with [11, 12].
      const expected = '   -p----w-------x-y';
      expectObservable(playbackBeacons({ video$: video, playback$: playing, seek$: seeks }, { intervalMs })).toBe(expected, {
        p: playback(sunrise, { cmt: 0, rt: 0.001, len: 12.008 }),
        w: watch(sunrise, { seq: 1, cmt: 8, rt: 0.006, len: 12.008, state: 'playing', st: [0], et: [2] }),
        x: watch(sunrise, { seq: 2, cmt: 11, rt: 0.014, len: 12.008, state: 'playing', st: [8, 9], et: [9, 11] }),
        y: watch(sunrise, { seq: 3, cmt: 12, rt: 0.016, len: 12.008, state: 'ended', st: [11], et: [12] }),
      });
    });
  });

  it('ends a playback with a final ping at a video change and at page hide; a new load is a new playback; no pings without usable tracking URLs', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const hostile: TrackedVideo = {
        videoId: 'VFoceanwave',
        cpn: 'cpnOcean00000003',
        tracking: { videostatsPlaybackUrl: { baseUrl: '//evil.example/p' }, videostatsWatchtimeUrl: { baseUrl: '/w' } },
      };
      const none: TrackedVideo = { videoId: 'VFbrokenvid', cpn: 'cpnBroken0000004' };
      // sunrise @0, city @4, a video with a URL to another origin @12, one without tracking URLs @16.
      const video = hot('  v---c-------o---n', { v: sunrise, c: city, o: hostile, n: none });
      // sunrise plays 0 → 3 s; city buffers, plays 0 → 2 s, the page hides @9 and comes back, 3 s @10, hides @11;
      // the last two videos play (4 s @15) and the page hides again @19.
      const playing = hot('-p-u-b-pw-x--bpv-bp', { p: s(1, 0), u: s(1, 3), b: s(3, 0), w: s(1, 2), x: s(1, 3), v: s(1, 4) });
      const hides = hot('  ---------h-h-------h', { h: 'pagehide' });
      const expected = '   -p--w--P-x-y';
      // Unsubscribed @25: the last video still plays, and its interval would tick for ever.
      expectObservable(playbackBeacons({ video$: video, playback$: playing, pageHide$: hides }), '^ 24ms !').toBe(expected, {
        p: playback(sunrise, { cmt: 0, rt: 0.001, len: 12.008 }),
        w: watch(sunrise, { seq: 1, cmt: 3, rt: 0.004, len: 12.008, state: 'playing', st: [0], et: [3], final: true }),
        // A new nonce and the seq from 0 again; rt counts from this load.
        P: playback(city, { cmt: 0, rt: 0.003, len: 10.008 }),
        x: watch(city, { seq: 1, cmt: 2, rt: 0.005, len: 10.008, state: 'playing', st: [0], et: [2], final: true }),
        // Back from the hidden state, the same playback goes on: seq 2, from where the last ping ended.
        y: watch(city, { seq: 2, cmt: 3, rt: 0.007, len: 10.008, state: 'playing', st: [2], et: [3], final: true }),
      });
    });
  });

  it('at the end, after the pause the element fires just before it, sends the ping of the end without a segment', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const video = hot('  v', { v: sunrise });
      const playing = hot('-p--ze', { p: s(1, 0), z: s(2, 12.008), e: s(0, 12.008) });
      expectObservable(playbackBeacons({ video$: video, playback$: playing })).toBe('-p--ab', {
        p: playback(sunrise, { cmt: 0, rt: 0.001, len: 12.008 }),
        a: watch(sunrise, { seq: 1, cmt: 12.008, rt: 0.004, len: 12.008, state: 'paused', st: [0], et: [12.008] }),
        b: {
          kind: 'watchtime',
          url: '/api/stats/watchtime?docid=VFsunrise01&ei=E1&cpn=cpnSunrise000001&seq=2&cmt=12.008&rt=0.005&len=12.008&state=ended&st=&et=',
          params: { cpn: sunrise.cpn, seq: 2, cmt: 12.008, rt: 0.005, len: 12.008, state: 'ended', st: [], et: [] },
        },
      });
    });
  });

  it('sends a ping early when too many played segments wait', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const video = hot('  v', { v: sunrise });
      const playing = hot('-p', { p: s(1, 0) });
      const seeks = hot('  ---a-b-c', { a: { fromSec: 1, toSec: 5 }, b: { fromSec: 6, toSec: 2 }, c: { fromSec: 3, toSec: 9 } });
      expectObservable(playbackBeacons({ video$: video, playback$: playing, seek$: seeks }, { maxSegments: 2 }), '^ 9ms !').toBe('-p---w-', {
        p: playback(sunrise, { cmt: 0, rt: 0.001, len: 12.008 }),
        w: watch(sunrise, { seq: 1, cmt: 2, rt: 0.005, len: 12.008, state: 'playing', st: [0, 5], et: [1, 6] }),
      });
    });
  });
});

describe('pingUrl', () => {
  it('appends the parameters to the tracking URL, lists comma-joined and final only when set', () => {
    expect(
      pingUrl('/api/stats/watchtime?docid=VFsunrise01&ei=E1', { cpn: 'c', seq: 3, cmt: 1.5, rt: 2, state: 'ended', st: [0, 4], et: [1.5, 6], final: true }),
    ).toBe('/api/stats/watchtime?docid=VFsunrise01&ei=E1&cpn=c&seq=3&cmt=1.5&rt=2&state=ended&st=0,4&et=1.5,6&final=1');
    expect(pingUrl('/p', { cpn: 'c', seq: 0, cmt: 0, rt: 0 })).toBe('/p?cpn=c&seq=0&cmt=0&rt=0');
  });
});
