import { controlsVisibility } from '../../../streams/player/controlsVisibility';
import { createTestScheduler } from '../../helpers/testScheduler';

const v = { T: true, F: false };

describe('controlsVisibility', () => {
  it('hides 3 s after playback starts and comes back on activity (default)', () => {
    createTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const playing = hot('  f-t 4999ms |', { f: false, t: true });
      const activity = hot(' ---- 3999ms a-|');
      // Starts at frame 2 → hidden at 2 + 3000 = 3002; activity at 4 + 3999 = 4003 → shown, hidden again at
      // 4003 + 3000 = 7003, when the last timer ends and everything completes (activity completed at 4005).
      const expected = '     T 3001ms F 1000ms T 2999ms (F|)';
      expectObservable(controlsVisibility(activity, playing)).toBe(expected, v);
      expectSubscriptions(activity.subscriptions).toBe('--^ 4002ms !');
    });
  });

  it('each activity restarts the clock; pausing shows them at once', () => {
    createTestScheduler().run(({ hot, time, expectObservable }) => {
      const hideMs = time('   ---|');
      const playing = hot('  -t---------f-|', { f: false, t: true });
      const activity = hot(' ---a-a--------');
      // Shown when playback starts at 1; activity at 3 and 5 → hidden at 5 + 3 = 8; pause at 11 → shown.
      const expected = '     -T------F--T-|';
      expectObservable(controlsVisibility(activity, playing, { hideMs })).toBe(expected, v);
    });
  });

  it('a hide request hides them at once while playing; the next activity shows them; paused, it does nothing', () => {
    createTestScheduler().run(({ hot, time, expectObservable }) => {
      const hideMs = time('   -----|');
      const playing = hot('  -t-------f-|', { f: false, t: true });
      const activity = hot(' -----a------');
      const hide = hot('     ---h------h-');
      // Shown at 1, hidden on request at 3, shown by activity at 5; paused at 9 they stay; the request at 10 is ignored.
      expectObservable(controlsVisibility(activity, playing, { hideMs, hide$: hide })).toBe('-T-F-T-----|', v);
    });
  });
});
