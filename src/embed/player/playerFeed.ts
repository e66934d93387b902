import { asyncScheduler, filter, first, map, merge, startWith, switchMap, type Observable, type SchedulerLike } from 'rxjs';
import type { PlayerConfig, StreamFormat } from '../../../streams/config/playerConfig';
import type { PlayerModel } from '../../../streams/player/playerModel';
import type { PlayerReadiness } from '../../../streams/player/playerReadiness';
import type { PlayerStateValue } from '../../../streams/player/playerState';
import type { Recorder } from '../../../streams/shared/recorder';
import { elementSeeks$, mediaEvents$, type MediaEventName } from '../../../streams/sources/mediaEvents';
import type { EmbedPlayer, PlayerError, VideoData } from './EmbedPlayer';
import type { AdaptiveEvent } from './mse/startAdaptive';

/** What the element said when something happened: read then, so that a consumer arriving later gets the facts of then. */
export interface MediaFacts {
  currentTime: number;
  volume: number;
  muted: boolean;
  playbackRate: number;
  error: { code: number; message: string } | null;
  /** Whether the element had a source (an element without one fires `error` too). */
  hasSource: boolean;
}

/** An element event with the element's facts at that moment; `attached` when the player adopted the element. */
export interface FeedMediaEvent {
  type: MediaEventName | 'attached';
  target: MediaFacts;
  /** For `seeking`: the time played (or sought) before it, where the seek started; its target is `target.currentTime`. */
  fromSec?: number;
}

/**
 * The player as the page's logging sees it: its streams, and the element's events with the facts read when
 * they happened. Built from the start of the page and recorded (`streams/shared/recorder.ts`), it lets the logging start
 * after the player is ready and still see everything from the first state on, each at its own time ({@link now}).
 */
export interface PlayerFeed {
  readonly config: PlayerConfig;
  readonly format: StreamFormat | undefined;
  readonly state$: Observable<{ state: PlayerStateValue; media: MediaFacts | undefined }>;
  readonly readiness$: Observable<PlayerReadiness>;
  readonly model$: Observable<PlayerModel>;
  readonly videoData$: Observable<VideoData | null>;
  readonly quality$: Observable<string>;
  readonly error$: Observable<PlayerError | null>;
  readonly media$: Observable<FeedMediaEvent>;
  /** What the adaptive stream decides and measures (quality decisions with their reason and bitrate, estimates). */
  readonly streamEvents$: Observable<AdaptiveEvent>;
  /** When what is being delivered happened (ms since the epoch): its recorded time during a replay. */
  now(): number;
  /** A scheduler telling {@link now} as its time, for the operators that time what they see. */
  readonly scheduler: SchedulerLike;
}

/**
 * The element events the feed passes on (with `seeking`, from {@link elementSeeks$}). No `timeupdate`: logging wants
 * the seeks, and a seek's start is noted by a plain listener, so that the feed and the logging behind it do no work
 * on a playback tick (the facts would be read, recorded and fanned out several times a second for one seek now and then).
 */
const FEED_MEDIA_EVENTS: MediaEventName[] = ['volumechange', 'ratechange', 'error'];

export const mediaFactsOf = (el: HTMLVideoElement): MediaFacts => ({
  currentTime: el.currentTime,
  volume: el.volume,
  muted: el.muted,
  playbackRate: el.playbackRate,
  error: el.error ? { code: el.error.code, message: el.error.message ?? '' } : null,
  hasSource: !!el.getAttribute('src'),
});

/** The feed of `player`, recorded by `recorder` from now on (live, unrecorded, without one). */
export function playerFeed(player: EmbedPlayer, recorder?: Recorder): PlayerFeed {
  const keep = <T>(source$: Observable<T>): Observable<T> => (recorder ? recorder.record(source$) : source$);
  const keepState = <T>(source$: Observable<T>): Observable<T> => (recorder ? recorder.recordState(source$) : source$);
  let element: HTMLVideoElement | null = null;
  player.element$.subscribe((el) => (element = el));
  const element$ = player.element$.pipe(
    filter((el): el is HTMLVideoElement => el !== null),
    first(),
  );
  return {
    config: player.config,
    format: player.format,
    state$: keepState(player.state$.pipe(map((state) => ({ state, media: element ? mediaFactsOf(element) : undefined })))),
    readiness$: keepState(player.readiness$),
    model$: keepState(player.model$),
    videoData$: keepState(player.videoData$),
    quality$: keepState(player.quality$),
    error$: keepState(player.error$),
    streamEvents$: keep(player.streamEvents$),
    media$: keep(
      element$.pipe(
        switchMap((el) => {
          // An element that failed before it was adopted (the server wrote its source) fired its error unheard: it
          // counts as failing when adopted.
          const attached = mediaFactsOf(el);
          const before: FeedMediaEvent[] = [{ type: 'attached', target: attached }];
          if (attached.error && attached.hasSource) before.push({ type: 'error', target: attached });
          return merge(
            mediaEvents$(el, FEED_MEDIA_EVENTS).pipe(map((e): FeedMediaEvent => ({ type: e.type, target: mediaFactsOf(el) }))),
            elementSeeks$(el).pipe(map((s): FeedMediaEvent => ({ type: 'seeking', target: mediaFactsOf(el), fromSec: s.fromSec }))),
          ).pipe(startWith(...before));
        }),
      ),
    ),
    now: recorder ? recorder.now : () => Date.now(),
    scheduler: recorder ? recorder.scheduler : asyncScheduler,
  };
}
