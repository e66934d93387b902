import { pageLogEvents } from '../../../streams/logging/pageLogEvents';
import type { PlayerStateSnapshot } from '../../../streams/logging/sessionEvents';
import { navigationState } from '../../../streams/navigation/navigationState';
import { visualElementAttachCache } from '../../../streams/sampling/visualElementAttachCache';
import { NAVIGATION_RESET_MS } from '../../../streams/timing';
import { createTestScheduler } from '../../helpers/testScheduler';

const videoId = 'VFsunrise01';
const snap = (state: PlayerStateSnapshot['state'], mediaTimeSec = 0): PlayerStateSnapshot => ({
  state,
  mediaTimeSec,
  playbackRate: 1,
  muted: false,
  volume: 100,
});
const debugSnap = (state: PlayerStateSnapshot['state'], mediaTimeSec: number) => ({ videoId, state, mediaTimeSec });
/** An event as the merge emits it: named, timed at `eventTimeMs`. */
const at = (name: string, eventTimeMs: number, payload: unknown = expect.anything()) => expect.objectContaining({ name, payload, eventTimeMs });

describe('pageLogEvents', () => {
  it('merges the session, storage, retry and showing sources, each event timed at the frame it came', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ hot, expectObservable, expectSubscriptions }) => {
      const state = hot('      a-b------', { a: snap(5), b: snap(1) });
      const storage = hot('    ---r-----', { r: { type: 'QUOTA_EXCEEDED', message: 'quota' } });
      const retry = hot('      ----s----', { s: { type: 'sent', request: { sendCount: 2 } } });
      const shown = hot('      -----vv--', { v: videoId });
      const expected = '       L-srqv---';
      const events$ = pageLogEvents(
        {
          session: { videoId, autoplay: false, state$: state },
          storageReport$: storage,
          retryOutcome$: retry,
          shownVideoIds$: shown,
          attachCache: visualElementAttachCache<string, true>(),
          random: () => 0.05,
        },
        scheduler,
      );
      expectObservable(events$, '^------!').toBe(expected, {
        L: at('playerLoad', 0),
        s: at('playerStateChange', 2, { videoId, previousState: 5, state: 1, mediaTimeSec: 0 }),
        r: at('storageEvent', 3, { type: 'QUOTA_EXCEEDED', message: 'quota', sampled: false }),
        q: at('storedLogRequest', 4, { action: 'resent', sendCount: 2 }),
        // The second showing of the same video is in the attach cache already.
        v: at('visualElementAttached', 5, { ve: 'video', videoId }),
      });
      for (const source of [state, storage, retry, shown]) expectSubscriptions(source.subscriptions).toBe('^------!');
    });
  });

  it(`logs navigation at its start and its end ${NAVIGATION_RESET_MS} ms later (production value), with the video load`, () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ hot, expectObservable }) => {
      const state = hot<PlayerStateSnapshot>('-');
      const loads = hot('--l', { l: { videoId, referral: null } });
      // n at 2 + 5000 = 5002; the load's (av) group takes frames 2-5, so 4996 ms more reach 5002.
      const expected = '  L-(av) 4996ms n';
      const events$ = pageLogEvents(
        { session: { videoId, autoplay: false, state$: state }, navigation$: navigationState(loads), navigationLoads$: loads },
        scheduler,
      );
      expectObservable(events$, `^ ${NAVIGATION_RESET_MS + 10}ms !`).toBe(expected, {
        L: at('playerLoad', 0),
        a: at('navigationStateChange', 2, { state: 'application_navigating' }),
        v: at('videoLoad', 2, { videoId }),
        n: at('navigationStateChange', 2 + NAVIGATION_RESET_MS, { state: 'none' }),
      });
    });
  });

  it("times the debugging events by the scheduler: a stall's duration is the virtual time it lasted", () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ hot, expectObservable }) => {
      // b at 2, c at 3 + 1999 = 2002: the stall lasts 2000 ms.
      const playback = hot('   a-b 1999ms c', { a: snap(1, 4), b: snap(3, 4.5), c: snap(1, 4.5) });
      const debugState = hot(' a-b 1999ms c', {
        a: debugSnap(1, 4),
        b: debugSnap(3, 4.5),
        c: debugSnap(1, 4.5),
      });
      // The (sw) group at 2 spans four frames, so 1996 ms more reach 2002.
      const expected = '       L-(sw) 1996ms (sp)';
      const events$ = pageLogEvents({ session: { videoId, autoplay: true, state$: playback }, debug: { state$: debugState } }, scheduler);
      expectObservable(events$, '^ 2010ms !').toBe(expected, {
        L: at('playerLoad', 0),
        s: expect.objectContaining({ name: 'playerStateChange' }),
        w: at('watchTimeSegment', 2, expect.objectContaining({ startSec: 4, endSec: 4.5 })),
        p: expect.objectContaining({ name: 'playbackStall', debug: true, eventTimeMs: 2002, payload: expect.objectContaining({ durationMs: 2000 }) }),
      });
    });
  });
});
