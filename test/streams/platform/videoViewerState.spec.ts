import { applyViewerStateChange, videoViewerState, type ViewerVideoView } from '../../../streams/platform/videoViewerState';
import type { VideoViewerState } from '../../../streams/platform/payloads';
import { createTestScheduler } from '../../helpers/testScheduler';

const stateOf = (videoId: string, extra: Partial<VideoViewerState> = {}): VideoViewerState => ({
  videoId,
  channel: { channelId: 'UCsamples000000000000000', title: 'VidFrame Samples' },
  feedback: { notInterested: `ni-${videoId}`, report: [] },
  ...extra,
});

describe('videoViewerState', () => {
  it('is none without a video, loading while it asks, then ready with the answer', () => {
    createTestScheduler().run(({ cold, hot, expectObservable }) => {
      const videoId$ = hot('n-a', { n: undefined, a: 'VFsunrise01' });
      const account$ = hot('u', { u: undefined });
      const fetchState = () => cold('--r|', { r: stateOf('VFsunrise01') });
      const values: Record<string, ViewerVideoView> = {
        n: { status: 'none' },
        l: { status: 'loading', videoId: 'VFsunrise01' },
        r: { status: 'ready', videoId: 'VFsunrise01', state: stateOf('VFsunrise01') },
      };
      expectObservable(videoViewerState({ videoId$, account$, fetchState, changes$: hot('-') })).toBe('n-l-r', values);
    });
  });

  it('asks again when the account changes and drops the answer for the account before', () => {
    createTestScheduler().run(({ cold, hot, expectObservable }) => {
      const videoId$ = hot('a', { a: 'VFsunrise01' });
      const account$ = hot('u-s', { u: undefined, s: 'acc_ada' });
      const anonymous = stateOf('VFsunrise01');
      const signedIn = stateOf('VFsunrise01', { inWatchLater: true, channel: { ...anonymous.channel, subscribed: true, notificationLevel: 'all' } });
      let calls = 0;
      // The first (anonymous) answer would come at frame 3, after the sign-in at frame 2: it must never show.
      const fetchState = () => (calls++ === 0 ? cold('---x|', { x: anonymous }) : cold('-y|', { y: signedIn }));
      const values: Record<string, ViewerVideoView> = {
        l: { status: 'loading', videoId: 'VFsunrise01' },
        y: { status: 'ready', videoId: 'VFsunrise01', state: signedIn },
      };
      expectObservable(videoViewerState({ videoId$, account$, fetchState, changes$: hot('-') })).toBe('l-ly', values);
    });
  });

  it('applies the answers of the viewer’s writes to the current video and channel only', () => {
    createTestScheduler().run(({ cold, hot, expectObservable }) => {
      const videoId$ = hot('a', { a: 'VFsunrise01' });
      const base = stateOf('VFsunrise01', {
        inWatchLater: false,
        channel: { channelId: 'UCsamples000000000000000', title: 'VidFrame Samples', subscribed: false },
      });
      const fetchState = () => cold('r|', { r: base });
      const changes$ = hot('----s-o-w-b-u', {
        s: { kind: 'subscription', channelId: 'UCsamples000000000000000', subscribed: true, notificationLevel: 'personalized' },
        o: { kind: 'subscription', channelId: 'UCotherchannel0000000000', subscribed: true },
        w: { kind: 'watchLater', videoId: 'VFsunrise01', inWatchLater: true },
        b: { kind: 'notifications', channelId: 'UCsamples000000000000000', notificationLevel: 'all' },
        u: { kind: 'subscription', channelId: 'UCsamples000000000000000', subscribed: false },
      } as const);
      const subscribed = { ...base, channel: { ...base.channel, subscribed: true, notificationLevel: 'personalized' as const } };
      const watching = { ...subscribed, inWatchLater: true };
      const bell = { ...watching, channel: { ...watching.channel, notificationLevel: 'all' as const } };
      const unsubscribed = { ...bell, channel: { channelId: base.channel.channelId, title: base.channel.title, subscribed: false } };
      const ready = (state: VideoViewerState): ViewerVideoView => ({ status: 'ready', videoId: 'VFsunrise01', state });
      // The other channel's answer (frame 6) changes nothing, so nothing is emitted for it.
      expectObservable(videoViewerState({ videoId$, account$: hot('u', { u: undefined }), fetchState, changes$ })).toBe('(lr)s---w-b-u', {
        l: { status: 'loading', videoId: 'VFsunrise01' },
        r: ready(base),
        s: ready(subscribed),
        w: ready(watching),
        b: ready(bell),
        u: ready(unsubscribed),
      });
    });
  });

  it('says failed with the message when asking fails, and never errors', () => {
    createTestScheduler().run(({ cold, hot, expectObservable }) => {
      const videoId$ = hot('a-b', { a: 'VFsunrise01', b: 'VFcitylight' });
      let calls = 0;
      const fetchState = () =>
        calls++ === 0 ? cold('-f|', { f: { message: 'Error: API fetch failed' } }) : cold<{ message: string }>('-#', undefined, new Error('Request timed out'));
      expectObservable(videoViewerState({ videoId$, account$: hot('u', { u: undefined }), fetchState, changes$: hot('-') })).toBe('lfmg', {
        l: { status: 'loading', videoId: 'VFsunrise01' },
        f: { status: 'failed', videoId: 'VFsunrise01', message: 'Error: API fetch failed' },
        m: { status: 'loading', videoId: 'VFcitylight' },
        g: { status: 'failed', videoId: 'VFcitylight', message: 'Request timed out' },
      });
    });
  });
});

describe('applyViewerStateChange', () => {
  it('leaves a view that is not ready as it is', () => {
    const loading: ViewerVideoView = { status: 'loading', videoId: 'VFsunrise01' };
    expect(applyViewerStateChange(loading, { kind: 'watchLater', videoId: 'VFsunrise01', inWatchLater: true })).toBe(loading);
  });
  it('ignores a watch-later answer for another video', () => {
    const view: ViewerVideoView = { status: 'ready', videoId: 'VFsunrise01', state: stateOf('VFsunrise01', { inWatchLater: false }) };
    expect(applyViewerStateChange(view, { kind: 'watchLater', videoId: 'VFcitylight', inWatchLater: true })).toBe(view);
  });
});
