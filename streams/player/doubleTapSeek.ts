import { TOUCH_DOUBLE_TAP_WINDOW_MS, TOUCH_SEEK_STEP_S } from '../timing';
import { asyncScheduler, concat, defer, map, type Observable, of, type SchedulerLike, switchMap, timer } from 'rxjs';

/** A touch tap on the video: where (`x` from the video's left edge) and how wide the video is. */
export interface Tap {
  x: number;
  width: number;
}

/**
 * What taps on the video mean: a single tap toggles the controls; a double tap seeks (`direction` -1 on the left half,
 * +1 on the right; `count` the steps of this run so far, `seconds` their signed sum, so the page seeks from where the
 * run began); `seekEnd` closes a run of double-tap seeks (its indicator goes).
 */
export type TapGesture = { type: 'toggleControls' } | { type: 'seek'; direction: -1 | 1; count: number; seconds: number } | { type: 'seekEnd' };

export interface DoubleTapSeekOptions {
  /** `TOUCH_DOUBLE_TAP_WINDOW_MS` of `streams/timing.ts` by default. */
  windowMs?: number;
  /** `TOUCH_SEEK_STEP_S` of `streams/timing.ts` by default. */
  stepSeconds?: number;
  scheduler?: SchedulerLike;
}

/**
 * Touch taps on the video as YouTube's touch player reads them. A lone tap becomes `toggleControls` only once
 * `windowMs` has passed without a second tap: a tap that acted at once would flash the controls up (or down) at the
 * start of every double tap, which the touch players (YouTube's, Video.js's mobile UI) avoid by waiting out the
 * window. A second tap within the window starts a seek run on its half; while the run lasts, each tap within
 * `windowMs` of the last adds one step on its half (the other half starts a new run the other way); `seekEnd` comes
 * `windowMs` after the last tap of a run. The state of a run belongs to one subscription (`defer`).
 *
 * ```
 * taps:   a-b--b---------a---------   (a left, b right; window 3 frames, step 10)
 * result: -S--T--E-------T-----tt--   (S seek +10 ×1, T seek +20 ×2, E seekEnd, t toggleControls)
 * ```
 */
export function doubleTapSeek(
  taps$: Observable<Tap>,
  { windowMs = TOUCH_DOUBLE_TAP_WINDOW_MS, stepSeconds = TOUCH_SEEK_STEP_S, scheduler = asyncScheduler }: DoubleTapSeekOptions = {},
): Observable<TapGesture> {
  return defer(() => {
    let pending = false;
    let run: { direction: -1 | 1; count: number } | null = null;
    return taps$.pipe(
      switchMap((tap) => {
        const direction: -1 | 1 = tap.x < tap.width / 2 ? -1 : 1;
        let now: TapGesture[] = [];
        if (run || pending) {
          pending = false;
          run = run && run.direction === direction ? { direction, count: run.count + 1 } : { direction, count: 1 };
          now = [{ type: 'seek', direction, count: run.count, seconds: direction * run.count * stepSeconds }];
        } else {
          pending = true;
        }
        const windowEnd = timer(windowMs, scheduler).pipe(
          map((): TapGesture => {
            const ended = run !== null;
            run = null;
            pending = false;
            return ended ? { type: 'seekEnd' } : { type: 'toggleControls' };
          }),
        );
        return concat(of(...now), windowEnd);
      }),
    );
  });
}
