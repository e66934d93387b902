import { hostDeliveries, isTimeJump } from '../../../streams/host/hostDeliveries';
import { HOST_SEEK_JUMP_SECONDS } from '../../../streams/timing';
import { makeInfo } from './fixtures';

const T0 = 1_700_000_000;
const playing = (currentTime: number, at: number, playbackRate = 1) => makeInfo({ playerState: 1, currentTime, currentTimeLastUpdated_: at, playbackRate });
const paused = (currentTime: number, at: number) => makeInfo({ playerState: 2, currentTime, currentTimeLastUpdated_: at });
const summary = (ds: ReturnType<typeof hostDeliveries>) => ds.map((d) => `${d.event}${d.coalesce ? '~' : '!'}`);

describe('hostDeliveries and the time of a seek', () => {
  it('a snapshot re-read that changed only currentTimeLastUpdated_ owes the host nothing (no empty delivery to open a window)', () => {
    expect(hostDeliveries(paused(3, T0), paused(3, T0 + 0.004))).toEqual([]);
  });

  it('a playback tick is coalescable: infoDelivery with the whole time group, then onVideoProgress', () => {
    const ds = hostDeliveries(playing(3, T0), playing(3.25, T0 + 0.25));
    expect(summary(ds)).toEqual(['infoDelivery~', 'onVideoProgress~']);
    expect(ds[0].info).toMatchObject({ currentTime: 3.25, currentTimeLastUpdated_: T0 + 0.25 });
  });

  it('a playback tick lists the time group in the host order, and a tick with any other change gets that change too (ticks take a short path)', () => {
    const ds = hostDeliveries(playing(3, T0), playing(3.25, T0 + 0.25));
    expect(Object.keys(ds[0].info as object)).toEqual([
      'currentTime',
      'videoBytesLoaded',
      'videoLoadedFraction',
      'playbackRate',
      'mediaReferenceTime',
      'progressState',
      'currentTimeLastUpdated_',
    ]);
    // A tick that also changed the volume, the rate, the state or the caption tracks is not a tick alone.
    const volume = hostDeliveries(playing(3, T0), { ...playing(3.25, T0 + 0.25), volume: 40 });
    expect(summary(volume)).toEqual(['infoDelivery~', 'onVolumeChange~', 'onVideoProgress~']);
    expect(volume[0].info).toMatchObject({ currentTime: 3.25, volume: 40, muted: false });
    expect(summary(hostDeliveries(playing(3, T0), playing(3.25, T0 + 0.25, 2)))).toEqual(['infoDelivery~', 'onPlaybackRateChange~', 'onVideoProgress~']);
    expect(summary(hostDeliveries(playing(3, T0), { ...playing(3.25, T0 + 0.25), playerState: 3 }))).toEqual([
      'infoDelivery!',
      'onStateChange!',
      'onVideoProgress!',
    ]);
    const tracks = [{ languageCode: 'en', languageName: 'English', displayName: 'English', kind: '', vss_id: '.en', url: '/t' }];
    const captions = hostDeliveries(playing(3, T0), { ...playing(3.25, T0 + 0.25), captionTracks: tracks } as unknown as ReturnType<typeof playing>);
    expect(summary(captions)).toEqual(['infoDelivery!', 'onVideoProgress~', 'apiInfoDelivery!', 'onApiChange!']);
    expect(Object.keys(captions[0].info as object)).toContain('captionTracks');
  });

  it('a seek while paused goes out at once: neither its infoDelivery nor its onVideoProgress may be held', () => {
    const ds = hostDeliveries(paused(3, T0), paused(7, T0 + 0.01));
    expect(summary(ds)).toEqual(['infoDelivery!', 'onVideoProgress!']);
    expect(ds[0].info).toMatchObject({ currentTime: 7 });
  });

  it('while playing, a jump the wall clock × rate does not explain is a seek; one it explains is a tick', () => {
    expect(isTimeJump(playing(3, T0), playing(3.25, T0 + 0.25))).toBe(false);
    expect(isTimeJump(playing(3, T0), playing(3.5, T0 + 0.25, 2))).toBe(false); // 2× rate
    expect(isTimeJump(playing(3, T0), playing(3 + HOST_SEEK_JUMP_SECONDS + 0.3, T0 + 0.25))).toBe(true); // forward seek
    expect(isTimeJump(playing(8, T0), playing(2, T0 + 0.25))).toBe(true); // backward seek
    expect(isTimeJump(playing(11.9, T0), playing(0.1, T0 + 0.25))).toBe(true); // a loop back to the start
    expect(isTimeJump(playing(3, T0), playing(3, T0 + 0.25))).toBe(false); // no change at all
    expect(summary(hostDeliveries(playing(8, T0), playing(2, T0 + 0.25)))).toEqual(['infoDelivery!', 'onVideoProgress!']);
  });

  it('a state change with its time still lists the state change first-class (never coalesced)', () => {
    const ds = hostDeliveries(playing(3, T0), paused(3.1, T0 + 0.1));
    expect(summary(ds)).toEqual(['infoDelivery!', 'onStateChange!', 'onVideoProgress!']);
  });

  it('NaN compared to NaN is no change; objects are compared by value', () => {
    const a = makeInfo({ duration: Number.NaN });
    const b = makeInfo({ duration: Number.NaN, videoContentRect: { left: 0, top: 0, width: 640, height: 360 } });
    expect(hostDeliveries(a, b)).toEqual([]);
  });

  it('entering 1 at the same time carries a fresh currentTimeLastUpdated_ (the host extrapolates from it while playing)', () => {
    const ds = hostDeliveries(paused(3, T0), playing(3, T0 + 120));
    expect(ds[0]).toMatchObject({ event: 'infoDelivery', coalesce: false });
    expect(ds[0].info).toMatchObject({ playerState: 1, currentTime: 3, currentTimeLastUpdated_: T0 + 120 });
    // Leaving 1 at the same time needs no timestamp: the host stops extrapolating.
    expect(hostDeliveries(playing(3, T0), paused(3, T0 + 1))[0].info).toEqual({ playerState: 2 });
  });
});
