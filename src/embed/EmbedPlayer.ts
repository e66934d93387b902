import {
  BehaviorSubject,
  defer,
  distinctUntilChanged,
  EMPTY,
  filter,
  map,
  merge,
  Observable,
  of,
  scan,
  shareReplay,
  startWith,
  Subject,
  switchMap,
  take,
} from 'rxjs';
import { parseBooleanVar, shouldAutoplay, type PlayerConfig, type StreamFormat } from '../../streams/config/playerConfig';
import { mediaEvents$ } from '../../streams/sources/mediaEvents';
import { hostErrorCode, internalErrorForMediaError } from '../../streams/player/errorCodes';
import { nextPlayerState, PlayerState, type PlayerStateInput, type PlayerStateValue } from '../../streams/player/playerState';
import { playerReadiness$, type PlayerReadiness } from '../../streams/player/playerReadiness';

/** A failure the player reports: the internal name of spec §8, the host code, and a sentence for the viewer. */
export interface PlayerError {
  internal: string;
  code: number;
  message: string;
}

/** What the views and the page show about the current video. */
export interface VideoData {
  videoId: string;
  title: string;
  author: string;
  durationSeconds: number;
  posterUrl?: string;
}

/** The default quality when nothing is suggested: the middle of what the video has. */
const DEFAULT_QUALITY = 'medium';

export interface EmbedPlayer {
  readonly config: PlayerConfig;
  /** The `<video>` element the view mounted (the view calls {@link attach}). */
  readonly element$: Observable<HTMLVideoElement | null>;
  readonly state$: Observable<PlayerStateValue>;
  readonly readiness$: Observable<PlayerReadiness>;
  readonly videoData$: Observable<VideoData | null>;
  readonly error$: Observable<PlayerError | null>;
  /** True when the browser refused to start playback without a user gesture. */
  readonly autoplayBlocked$: Observable<boolean>;
  readonly format: StreamFormat | undefined;
  attach(element: HTMLVideoElement | null): void;
  play(): void;
  pause(): void;
}

/**
 * The embed's player for one configuration: it loads the configured video into the mounted `<video>` element,
 * cues or plays it as autoplay says (spec §4), and exposes the player state, readiness, video data and errors as
 * observables for the views. The pure rules live in `streams/`; this is the glue to the element.
 */
export function createEmbedPlayer(config: PlayerConfig): EmbedPlayer {
  const response = config.args.player_response;
  const vars = config.args.playerVars;
  const element$ = new BehaviorSubject<HTMLVideoElement | null>(null);
  const inputs$ = new Subject<PlayerStateInput>();
  const error$ = new BehaviorSubject<PlayerError | null>(null);
  const autoplayBlocked$ = new BehaviorSubject<boolean>(false);

  const details = response.videoDetails;
  const videoData: VideoData | null = details
    ? { videoId: details.videoId, title: details.title, author: details.author, durationSeconds: details.lengthSeconds, posterUrl: details.thumbnailUrl }
    : null;

  const formats = response.streamingData?.formats ?? [];
  const format = formats.find((f) => f.quality === DEFAULT_QUALITY) ?? formats[0];

  const fail = (internal: string, message: string) => {
    // One failure reports one error: the first one wins until another video is loaded.
    if (!error$.value) error$.next({ internal, code: hostErrorCode(internal), message });
  };
  if (response.playabilityStatus.status !== 'OK') {
    fail(response.playabilityStatus.errorCode ?? 'fmt.unplayable', response.playabilityStatus.reason ?? 'This video is unavailable.');
  } else if (!format) {
    fail('fmt.noneavailable', 'This video has no playable format.');
  }

  const autoplay = shouldAutoplay(config.args.autoplay);
  const hasMedia = !error$.value && !!format;

  const play = (element: HTMLVideoElement) => {
    autoplayBlocked$.next(false);
    element.play().catch((e: unknown) => {
      const name = (e as { name?: string } | null)?.name;
      if (name === 'NotAllowedError') {
        autoplayBlocked$.next(true);
        inputs$.next({ type: 'playRefused' });
      } else if (name !== 'AbortError') {
        // AbortError: a pause or a new source interrupted play(); the element's own events tell the state.
        inputs$.next({ type: 'playRefused' });
      }
    });
  };

  // Wire each mounted element: its events move the state; the configured video is loaded into it, and played
  // when autoplay says so (spec §4), once the source is set.
  const mounted$ = element$.pipe(
    filter((e): e is HTMLVideoElement => e !== null),
    distinctUntilChanged(),
  );
  const elementEvents$ = mounted$.pipe(
    switchMap((element) => {
      if (!hasMedia || !format) return EMPTY;
      element.preload = autoplay ? 'auto' : 'metadata';
      if (parseBooleanVar(vars.mute)) element.muted = true;
      if (parseBooleanVar(vars.loop)) element.loop = true;
      if (element.getAttribute('src') !== format.url) element.src = format.url;
      const events$ = mediaEvents$(element, ['play', 'playing', 'pause', 'waiting', 'seeking', 'seeked', 'ended', 'emptied', 'error', 'loadedmetadata']);
      const start = Number(vars.start);
      return merge(
        of<PlayerStateInput>({ type: autoplay ? 'load' : 'cue' }),
        events$.pipe(
          filter((e) => {
            if (e.type === 'error') fail(internalErrorForMediaError(element.error?.code), 'This video cannot be played.');
            if (e.type === 'loadedmetadata' && Number.isFinite(start) && start > 0 && element.currentTime < start) element.currentTime = start;
            return e.type !== 'loadedmetadata';
          }),
          map((e): PlayerStateInput => ({ type: e.type as Exclude<PlayerStateInput['type'], 'cue' | 'load' | 'playRefused'>, paused: element.paused })),
        ),
        // Listening first, then playing: the element's play/playing events are not missed.
        defer(() => {
          if (autoplay) play(element);
          return EMPTY;
        }),
      );
    }),
  );

  const state$ = merge(elementEvents$, inputs$).pipe(
    scan(nextPlayerState, PlayerState.UNSTARTED as PlayerStateValue),
    startWith(PlayerState.UNSTARTED as PlayerStateValue),
    distinctUntilChanged(),
    shareReplay({ bufferSize: 1, refCount: false }),
  );

  const readiness$ = mounted$.pipe(
    take(1),
    switchMap((element) =>
      playerReadiness$(() => !hasMedia || element.readyState >= 1 || element.error !== null || error$.value !== null),
    ),
    startWith<PlayerReadiness>('loading'),
    distinctUntilChanged(),
    shareReplay({ bufferSize: 1, refCount: false }),
  );

  // The page's player state lives as long as the page: subscribed now, so no input is missed before a view reads it.
  state$.subscribe();
  readiness$.subscribe();

  return {
    config,
    element$,
    state$,
    readiness$,
    videoData$: of(videoData),
    error$,
    autoplayBlocked$,
    format,
    attach: (element) => {
      if (element$.value !== element) element$.next(element);
    },
    play: () => {
      const element = element$.value;
      if (element && hasMedia) play(element);
    },
    pause: () => element$.value?.pause(),
  };
}
