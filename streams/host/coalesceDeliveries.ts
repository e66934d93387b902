import { HOST_DELIVERY_COALESCE_MS } from '../timing';
import { asyncScheduler, Observable, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import type { HostAction } from './hostTypes';

type PostAction = Extract<HostAction, { type: 'post' }>;

export interface CoalesceDeliveriesOptions {
  /**
   * The quiet window after a delivery during which further coalescable deliveries are merged (a product choice, no
   * spec number): short enough that time updates at the media's `timeupdate` rate are not merged, long enough that a
   * dragged slider is.
   */
  coalesceMs?: number;
  scheduler?: SchedulerLike;
}

/**
 * Throttles the embed's deliveries so a host is never flooded, without reordering or delaying what
 * matters:
 * - a coalescable post (time, volume, rate, progress — `coalesce: true`) goes out at once when no window is open and
 *   opens a window of `coalesceMs` (what arrives in that same instant — the rest of one snapshot's deliveries, such as
 *   `onVolumeChange` after its `infoDelivery` — goes out with it); the later ones inside the window are merged — `infoDelivery`s key by key (latest wins),
 *   events to their latest value per name — and go out together when the window ends (which opens the next window);
 * - anything else (a state change and its `onStateChange`, a seek's time, snapshots, handshake, errors, commands) first
 *   flushes what is pending, in order, then passes at once: a state change is never delayed, and never overtakes an
 *   older delivery;
 * - a host command closes the open window, and for `coalesceMs` after it nothing is merged: what the host asked for
 *   (its volume, its rate) goes out the moment the player reports it, even when a playback tick comes in between, not
 *   at the end of a window. A host that sends commands faster (a slider drag) is answered as fast as it asks.
 *
 * ```
 * source: v1 v2 v3 ------ s ---   (v = volume changes, 1 frame apart; s = a state change; coalesceMs = 5)
 * result: v1 ----- v3 --- s ---   (v1 at once, v2+v3 merged at the window end)
 * ```
 */
export function coalesceDeliveries({ coalesceMs = HOST_DELIVERY_COALESCE_MS, scheduler = asyncScheduler }: CoalesceDeliveriesOptions = {}): OperatorFunction<
  HostAction,
  HostAction
> {
  return (source) =>
    // Hand-written: one window state serves the merging, the flush before any other action and the answer period after a command.
    new Observable<HostAction>((subscriber) => {
      let info: PostAction | null = null;
      let events = new Map<string, PostAction>();
      /**
       * The open window, as times: no timer runs for it until something waits in it, so a playback tick that finds
       * nothing waiting arms and clears no timer.
       */
      let openedAt = -Infinity;
      let windowEnd = -Infinity;
      /** The end of the window, armed once something waits in it. */
      let timer: Subscription | null = null;

      const flush = () => {
        const out = [...(info ? [info] : []), ...events.values()];
        info = null;
        events = new Map();
        out.forEach((a) => subscriber.next(a));
        return out.length > 0;
      };
      const openWindow = () => {
        openedAt = scheduler.now();
        windowEnd = openedAt + coalesceMs;
      };
      const isOpen = () => timer !== null || scheduler.now() < windowEnd;
      const closeWindow = () => {
        timer?.unsubscribe();
        timer = null;
        windowEnd = -Infinity;
      };
      const add = (a: PostAction) => {
        if (a.message.event === 'infoDelivery') {
          const merged = { ...(info?.message.info as object | undefined), ...(a.message.info as object) };
          info = { ...a, message: { ...a.message, info: merged } };
        } else {
          events.delete(a.message.event);
          events.set(a.message.event, a);
        }
        // What waits goes out when the window ends, which opens the next window.
        timer ??= scheduler.schedule(
          () => {
            timer = null;
            if (flush()) openWindow();
            else windowEnd = -Infinity;
          },
          Math.max(0, windowEnd - scheduler.now()),
        );
      };

      /** Until when the answers to a host command pass at once (see above). */
      let answersUntil = -Infinity;

      const subscription = source.subscribe({
        next: (a) => {
          if (a.type === 'post' && a.coalesce && scheduler.now() < answersUntil) {
            flush();
            subscriber.next(a);
            return;
          }
          if (a.type === 'post' && a.coalesce) {
            if (isOpen() && scheduler.now() !== openedAt) add(a);
            else if (isOpen()) subscriber.next(a);
            else {
              openWindow();
              subscriber.next(a);
            }
            return;
          }
          flush();
          if (a.type === 'command') {
            closeWindow();
            answersUntil = scheduler.now() + coalesceMs;
          }
          subscriber.next(a);
        },
        error: (e) => {
          flush();
          subscriber.error(e);
        },
        complete: () => {
          flush();
          subscriber.complete();
        },
      });
      return () => {
        subscription.unsubscribe();
        timer?.unsubscribe();
      };
    });
}
