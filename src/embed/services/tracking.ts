import {
  asyncScheduler,
  defer,
  distinctUntilChanged,
  filter,
  first,
  from,
  map,
  merge,
  type Observable,
  type SchedulerAction,
  type SchedulerLike,
  share,
  shareReplay,
  Subject,
  Subscription,
  switchMap,
  tap,
} from 'rxjs';
import type { PlayerResponse } from '../../../streams/config/playerConfig';
import type { LoggedPlayerState } from '../../../streams/logging/playerEvents';
import { elementSeeks$ } from '../../../streams/sources/mediaEvents';
import { pageHiding$ } from '../../../streams/sources/pageHiding';
import { newPlaybackNonce } from '../player/playbackNonce';
import { playbackBeacons, type PlaybackSample, type TrackedVideo } from '../../../streams/tracking/playbackBeacons';
import { sendBeacons, type BeaconOutcome } from '../../../streams/tracking/sendBeacons';
import type { EmbedPlayer } from '../player/EmbedPlayer';
import { numberText } from '../../../streams/shared/numberText';

/** What the page's ping beacons expose, for diagnostics. */
export interface Tracking {
  /** What became of each ping (sent, refused, dropped after its resends). */
  readonly outcome$: Observable<BeaconOutcome>;
  readonly counts: { sent: number; refused: number; dropped: number };
  stop(): void;
}

/**
 * One ping as a GET through `fetch` with `keepalive` (it outlives the page, like `sendBeacon`), rather than
 * `navigator.sendBeacon`: a beacon is always a POST, and the tracking URLs are GETs (spec §7); fetch also answers the
 * status, which decides whether to resend. `credentials: 'omit'`: a ping needs no cookie (the `ei` and `cpn` say what it
 * belongs to), so none of the viewer's identity rides on it; `no-store`: each GET is a report, never a cached answer.
 */
const fetchPing = (win: Window) => (url: string) =>
  defer(() => from(win.fetch(url, { method: 'GET', keepalive: true, credentials: 'omit', cache: 'no-store' }).then((r) => r.status)));

/**
 * `scheduler`, with `before()` run ahead of the work of each action it runs: the beacons' watchtime interval has the
 * element's time read just before it pings. Its clock is the scheduler's.
 */
export function readingBefore(before: () => void, scheduler: SchedulerLike): SchedulerLike {
  return {
    now: () => scheduler.now(),
    schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay?: number, state?: T): Subscription {
      return scheduler.schedule(
        function (this: SchedulerAction<T>, s?: T) {
          before();
          work.call(this, s);
        },
        delay,
        state,
      );
    },
  };
}

/**
 * Starts the ping beacons of spec §7 for the page's player (the rules are in `streams/tracking/playbackBeacons.ts`):
 * each video load gets a new playback nonce and pings the tracking URLs of its player response; the page's hiding
 * (`pagehide`, or the document turning hidden, after which a page may be discarded without notice) sends the last ping.
 * A ping that fails is resent at most twice, then dropped (`streams/tracking/sendBeacons.ts`).
 */
export function startTracking(player: EmbedPlayer, win: Window = window): Tracking {
  const subscriptions = new Subscription();
  const counts = { sent: 0, refused: 0, dropped: 0 };

  const video$ = player.model$.pipe(
    map((m) => m.response),
    distinctUntilChanged(),
    filter((r): r is PlayerResponse => r !== null),
    map((r): TrackedVideo => ({
      videoId: r.videoDetails?.videoId ?? player.config.args.video_id,
      tracking: r.playbackTracking,
      lengthSec: r.videoDetails?.lengthSeconds,
      cpn: newPlaybackNonce(win),
    })),
  );

  const element$ = player.element$.pipe(
    filter((e): e is HTMLVideoElement => e !== null),
    first(),
    shareReplay(1),
  );
  let elementNow: HTMLVideoElement | undefined;
  subscriptions.add(element$.subscribe((el) => (elementNow = el)));
  let stateNow: LoggedPlayerState = -1;
  // The beacons are told the player's state and time at each state change, and the time alone just before each moment
  // that reads it — a watchtime ping of the interval, a new video (the last ping of the one before), the page hiding —
  // read from the element then, rather than at every `timeupdate` (a sample through the beacons' fold four
  // times a second, for a ping every 10 s). A seek brings its own times.
  const readTime$ = new Subject<void>();
  const readTime = () => readTime$.next();
  const playback$: Observable<PlaybackSample> = merge(player.state$.pipe(map((state) => (stateNow = state as LoggedPlayerState))), readTime$).pipe(
    map(() => ({ state: stateNow, mediaTimeSec: elementNow?.currentTime ?? 0 })),
  );

  // A seek goes from the last time played to where the element is seeking.
  const seek$ = element$.pipe(switchMap((el) => elementSeeks$(el)));

  const pageHide$ = pageHiding$(win, win.document).pipe(tap(readTime));

  const outcome$ = sendBeacons(
    playbackBeacons({ video$: video$.pipe(tap(readTime)), playback$, seek$, pageHide$ }, { scheduler: readingBefore(readTime, asyncScheduler) }),
    { send: fetchPing(win) },
  ).pipe(share());
  subscriptions.add(
    outcome$.subscribe((o) => {
      counts[o.type] += 1;
      if (o.type !== 'sent') console.warn(`[vidframe] ${o.beacon.kind} ping ${o.type} (${numberText(o.status)})`);
    }),
  );
  return { outcome$, counts, stop: () => subscriptions.unsubscribe() };
}
