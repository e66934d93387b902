import { createTestScheduler } from '../../helpers/testScheduler';
import { NO_STREAM_STATS, reduceStreamStats, type StreamStats, streamStats, type StreamStatsEvent } from '../../../streams/player/streamStats';

const MP4 = 'video/mp4; codecs="avc1.4d401e"';

describe('streamStats', () => {
  it('keeps the latest estimate, the latest decision and the type of each quality decided', () => {
    const events: StreamStatsEvent[] = [
      { type: 'estimate', bps: 800_000 },
      { type: 'decision', quality: 'small', mimeType: MP4 },
      { type: 'decision', quality: 'large', mimeType: MP4 },
      { type: 'failed' },
    ];
    expect(events.reduce(reduceStreamStats, NO_STREAM_STATS)).toEqual({
      estimateBps: 800_000,
      optimalQuality: 'large',
      mimeTypes: { small: MP4, large: MP4 },
    });
  });

  it('folds the events and starts afresh at each reset (a new video)', () => {
    createTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const events = hot<StreamStatsEvent>('--e--d----e-', {
        e: { type: 'estimate', bps: 1_000 },
        d: { type: 'decision', quality: 'tiny', mimeType: MP4 },
      });
      const resets = cold('-------r----');
      const none = NO_STREAM_STATS;
      const est: StreamStats = { ...none, estimateBps: 1_000 };
      const both: StreamStats = { estimateBps: 1_000, optimalQuality: 'tiny', mimeTypes: { tiny: MP4 } };
      expectObservable(streamStats(events, resets), '^ 20ms !').toBe('a-b--c-n--e-', { a: none, b: est, c: both, n: none, e: est });
      expectSubscriptions(events.subscriptions).toBe('^ 20ms !');
    });
  });
});
