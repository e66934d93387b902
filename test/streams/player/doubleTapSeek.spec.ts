import { doubleTapSeek, type TapGesture } from '../../../streams/player/doubleTapSeek';
import { TOUCH_DOUBLE_TAP_WINDOW_MS, TOUCH_SEEK_STEP_S } from '../../../streams/timing';
import { createTestScheduler } from '../../helpers/testScheduler';

const left = { x: 10, width: 100 };
const right = { x: 90, width: 100 };
const g: Record<string, TapGesture> = {
  S: { type: 'seek', direction: 1, count: 1, seconds: 10 },
  T: { type: 'seek', direction: 1, count: 2, seconds: 20 },
  L: { type: 'seek', direction: -1, count: 1, seconds: -10 },
  E: { type: 'seekEnd' },
  t: { type: 'toggleControls' },
};

describe('doubleTapSeek (production values: 10 s steps, a 300 ms double-tap window)', () => {
  it('has the production constants', () => {
    expect(TOUCH_SEEK_STEP_S).toBe(10);
    expect(TOUCH_DOUBLE_TAP_WINDOW_MS).toBe(300);
  });

  it('a double tap seeks on its half, taps within the window add steps, a lone tap toggles once the window passes', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      // 0 left, 200 right (double tap: +10), 450 right (+20), 750 run ends; 1000 lone tap → toggle at 1300;
      // 2300 left, 2450 left (-10), 2600 right (a new run: +10), 2900 run ends.
      const taps = hot('a 199ms b 249ms b 549ms a 1299ms a 149ms a 149ms b', { a: left, b: right });
      const expected = '200ms S 249ms T 299ms E 549ms t 1149ms L 149ms S 299ms E';
      expectObservable(doubleTapSeek(taps)).toBe(expected, g);
    });
  });

  it('two taps further apart than the window are two single taps; nothing acts before the window passes', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const taps = hot('a 300ms b', { a: left, b: right });
      expectObservable(doubleTapSeek(taps)).toBe('300ms t 300ms t', g);
    });
  });
});
