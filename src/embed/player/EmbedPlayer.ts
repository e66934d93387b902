import {
  BehaviorSubject,
  combineLatest,
  distinctUntilChanged,
  filter,
  map,
  merge,
  type Observable,
  scan,
  share,
  shareReplay,
  skip,
  startWith,
  Subject,
  switchMap,
  take,
} from 'rxjs';
import type { HeartbeatRequest } from '../../../streams/config/heartbeatTypes';
import { shouldAutoplay, type PlayerConfig, type StreamFormat } from '../../../streams/config/playerConfig';
import { buildPlayerInfo, type MediaSnapshot } from '../../../streams/player/playerInfo';
import { initialPlayerModel, pickFormat, type PlayerModel } from '../../../streams/player/playerModel';
import type { PlayerReadiness } from '../../../streams/player/playerReadiness';
import { playerEngine, type PlaylistResponse } from '../../../streams/player/playerEngine';
import { playerHeartbeat } from '../../../streams/player/playerHeartbeat';
import { PlayerState, type PlayerStateInput, type PlayerStateValue } from '../../../streams/player/playerState';
import { playerStates } from '../../../streams/player/playerStates';
import { type StreamStats, streamStats } from '../../../streams/player/streamStats';
import type { EngineContext, EngineInput, PlayerStep } from '../../../streams/player/reducePlayer';
import type { PlayerCommand, PlayerEventOut, PlayerInfo } from '../../../streams/player/types';
import type { ListType } from '../../../streams/player/playerStep';
import { mediaEvents$, type MediaEvent } from '../../../streams/sources/mediaEvents';
import { adoptElement } from './adoptElement';
import { createCaptionTracks } from './captionTracks';
import { forwardElementEvent } from './forwardElementEvent';
import { embedReadiness$ } from './embedReadiness';
import { layoutChanges$, mediaSnapshots$ } from './mediaSnapshots';
import { performAction, type EffectTargets } from './playerEffects';
import type { AdaptiveEvent } from './mse/startAdaptive';
import { canStream, createStreamHost } from './streamHost';
import { nextVideoData, type VideoData } from './nextVideoData';

export { readBox, readMediaSnapshot } from './mediaSnapshots';
export { sameCues } from './captionTracks';
export { nextVideoData, type VideoData } from './nextVideoData';

/** A failure the player reports: the internal name of spec §8, the host code, and a sentence for the viewer. */
export interface PlayerError {
  internal: string;
  code: number;
  message: string;
}

export interface EmbedPlayer {
  readonly config: PlayerConfig;
  /** The `<video>` element the view mounted (the view calls {@link attach}). */
  readonly element$: Observable<HTMLVideoElement | null>;
  readonly state$: Observable<PlayerStateValue>;
  readonly readiness$: Observable<PlayerReadiness>;
  readonly videoData$: Observable<VideoData | null>;
  readonly error$: BehaviorSubject<PlayerError | null>;
  /** True when the browser refused to start playback without a user gesture. */
  readonly autoplayBlocked$: Observable<boolean>;
  /** The rendition first chosen for the configured video (see {@link quality$} for the current one). */
  readonly format: StreamFormat | undefined;
  /** The quality of the rendition playing ('' when none). */
  readonly quality$: Observable<string>;
  /** The engine's model (playlist titles, captions choice, …), hot. */
  readonly model$: Observable<PlayerModel>;
  /** What the element says (time, buffered ranges, volume…), hot, replaying the latest. */
  readonly media$: Observable<MediaSnapshot>;
  /**
   * The caption cues showing now (`[]` when none), hot. The view renders each with `VTTCue.getCueAsHTML()`, so cue
   * markup (`<i>`, `<b>`, `<c.class>`) shows as markup and never as text or as HTML parsed from the cue.
   */
  readonly captionCues$: Observable<readonly TextTrackCue[]>;
  /** The full player snapshot (spec §3), hot, replaying the latest. */
  readonly info$: Observable<PlayerInfo>;
  /** Errors (once per failure), autoplay refusals, API changes. */
  readonly events$: Observable<PlayerEventOut>;
  /** What the adaptive stream decides and measures (quality decisions with their reason, bandwidth estimates), hot. */
  readonly streamEvents$: Observable<AdaptiveEvent>;
  /** The current video's stream as the stats panel shows it (latest estimate, decision, codecs), hot, replaying the latest. */
  readonly streamStats$: Observable<StreamStats>;
  /** The one entry point of commands: the views and the host bridge. */
  command(cmd: PlayerCommand): void;
  attach(element: HTMLVideoElement | null): void;
  play(): void;
  pause(): void;
}

export interface EmbedPlayerDeps {
  /**
   * `POST /youtubei/v1/player {videoId}` through the page's API client (`api.ts`: identity, anti-forgery field): the
   * answer's body as parsed, which the engine reads as a player response or reports as a failed load.
   */
  fetchVideo: (videoId: string) => Observable<unknown>;
  /** `POST /youtubei/v1/next` through the page's API client: the list `list` names by its `listType`. */
  fetchPlaylist: (list: string, listType: ListType) => Observable<PlaylistResponse>;
  /** `POST /youtubei/v1/player/heartbeat` through the page's API client; without it no heartbeat runs. */
  sendHeartbeat?: (request: HeartbeatRequest) => Observable<unknown>;
  /** Wall clock in ms (`currentTimeLastUpdated_`). */
  now?: () => number;
  random?: () => number;
  /** The page origin written into `videoUrl`/`videoEmbedCode`. */
  origin?: string;
}

/** What the engine reads from the page when an input arrives: the element's time, metadata and source, the state. */
function engineContext(el: HTMLVideoElement | null, state: PlayerStateValue, random: () => number): EngineContext {
  return {
    currentTime: el?.currentTime ?? 0,
    state,
    random,
    hasMetadata: el !== null && el.readyState >= 1,
    // A stream's `src` is its object URL: the element names the stream it plays.
    source: el ? (el.dataset.stream ?? el.getAttribute('src')) : null,
    playWanted: el !== null && !el.paused,
    canStream: canStream(),
  };
}

/** Where the stream's reports go: a failure fails the video (an engine input), the rest to `streamEvents$`. */
const streamReports = (engineInput: (input: EngineInput) => void, streamEvents$: Subject<AdaptiveEvent>) => (event: AdaptiveEvent) => {
  if (event.type === 'failed') engineInput({ type: 'streamFailed', internal: event.internal, message: event.message });
  else if (event.type === 'bytes') engineInput({ type: 'streamBytes', loaded: event.loaded, total: event.total });
  else streamEvents$.next(event);
};

/**
 * The stream stats of the video playing, kept from the player's start (hot, replaying the latest), so a stats panel
 * opened later shows the latest estimate; afresh for each video's answer.
 */
function currentStreamStats(events$: Observable<AdaptiveEvent>, model$: Observable<PlayerModel>): Observable<StreamStats> {
  const responses$ = model$.pipe(
    map((m) => m.response),
    distinctUntilChanged(),
    skip(1),
  );
  const stats$ = streamStats(events$, responses$).pipe(shareReplay({ bufferSize: 1, refCount: false }));
  stats$.subscribe();
  return stats$;
}

/**
 * The embed's player for one configuration: the engine of `streams/player` (state machine, command rules, fetches)
 * wired to the mounted `<video>` element. Commands from the views and the host go through {@link EmbedPlayer.command};
 * the engine's actions are performed on the element by the effects (`playerEffects.ts`); the element's events feed
 * the state machine, the engine and the snapshot. Every state is the model's, a stream's or the element's own.
 */
export function createEmbedPlayer(config: PlayerConfig, deps: EmbedPlayerDeps): EmbedPlayer {
  const { fetchVideo, fetchPlaylist, sendHeartbeat, now = () => Date.now(), random = Math.random } = deps;
  const origin = deps.origin ?? (typeof location !== 'undefined' ? location.origin : '');
  const element$ = new BehaviorSubject<HTMLVideoElement | null>(null);
  const inputs$ = new Subject<EngineInput>();
  const stateInputs$ = new Subject<PlayerStateInput>();
  const error$ = new BehaviorSubject<PlayerError | null>(null);
  const autoplayBlocked$ = new BehaviorSubject<boolean>(false);
  const events$ = new Subject<PlayerEventOut>();
  const streamEvents$ = new Subject<AdaptiveEvent>();
  const captions = createCaptionTracks();
  const initialModel = initialPlayerModel(config);
  const model$ = new BehaviorSubject<PlayerModel>(initialModel);
  const state$ = new BehaviorSubject<PlayerStateValue>(PlayerState.UNSTARTED);
  playerStates(stateInputs$).subscribe(state$);

  const stateInput = (input: PlayerStateInput) => stateInputs$.next(input);
  const engineInput = (input: EngineInput) => inputs$.next(input);
  const targets: EffectTargets = {
    element: () => element$.value,
    model: () => model$.value,
    captions,
    stateInput,
    error: (error) => error$.next(error),
    event: (event) => events$.next(event),
    autoplayBlocked: (blocked) => autoplayBlocked$.next(blocked),
    stream: createStreamHost(streamReports(engineInput, streamEvents$)),
  };
  const steps$ = playerEngine(inputs$, {
    initialModel,
    context: () => engineContext(element$.value, state$.value, random),
    fetchVideo,
    fetchPlaylist,
  }).pipe(share());
  steps$.subscribe((step: PlayerStep) => {
    if (step.model !== model$.value) {
      if (!step.model.error && error$.value) error$.next(null);
      model$.next(step.model);
    }
    for (const action of step.actions) performAction(action, targets);
  });
  // A seek target that came or went, which no element event announces: the snapshot is read again once the step's
  // actions are performed (this subscriber comes after the one above).
  const seekTargetChanged$ = steps$.pipe(
    map((step) => step.model.seek.target),
    startWith(initialModel.seek.target),
    distinctUntilChanged(),
    skip(1),
  );

  // A playback the server must keep permitting: its heartbeat's failures come back as the engine's inputs.
  if (sendHeartbeat) playerHeartbeat(model$, state$.pipe(map((s) => s === PlayerState.PLAYING)), { sendHeartbeat }).subscribe(engineInput);

  const mounted$ = element$.pipe(
    filter((e): e is HTMLVideoElement => e !== null),
    distinctUntilChanged(),
  );
  // Each mounted element's events, hot and never reset (no replay buffer to trim on every event).
  const elementEvents$: Observable<MediaEvent<HTMLVideoElement>> = mounted$.pipe(
    switchMap((el) => mediaEvents$(el)),
    share({ resetOnError: true, resetOnComplete: false, resetOnRefCountZero: false }),
  );
  elementEvents$.subscribe((e) => forwardElementEvent(e, { stateInput, engineInput, model: () => model$.value }));
  mounted$
    .pipe(take(1))
    .subscribe((el) =>
      adoptElement(el, { config, autoplay: shouldAutoplay(config.args.autoplay), startSeconds: initialModel.startSeconds }, { stateInput, engineInput }),
    );

  const readiness$ = embedReadiness$(mounted$, model$);
  readiness$.subscribe();
  const media$ = mediaSnapshots$({
    element$,
    changes$: merge(elementEvents$, seekTargetChanged$),
    layout$: mounted$.pipe(switchMap(layoutChanges$)),
    seekTarget: () => model$.value.seek.target,
  });
  media$.subscribe();
  const info$ = combineLatest([model$, state$, media$]).pipe(
    map(([model, state, media]) => buildPlayerInfo(model, media, state, { origin, nowMs: now() })),
    shareReplay({ bufferSize: 1, refCount: false }),
  );
  info$.subscribe();

  const command = (cmd: PlayerCommand) => {
    if (cmd && typeof cmd === 'object' && typeof cmd.type === 'string') inputs$.next(cmd);
  };
  return {
    config,
    element$,
    state$: state$.asObservable(),
    readiness$,
    videoData$: model$.pipe(scan(nextVideoData, null), distinctUntilChanged(), shareReplay({ bufferSize: 1, refCount: false })),
    error$,
    autoplayBlocked$,
    format: pickFormat(config.args.player_response.streamingData?.formats ?? [], 'auto'),
    quality$: model$.pipe(
      map((m) => m.quality),
      distinctUntilChanged(),
      shareReplay({ bufferSize: 1, refCount: false }),
    ),
    model$,
    media$,
    captionCues$: captions.cues$,
    info$,
    events$: events$.asObservable(),
    streamEvents$: streamEvents$.asObservable(),
    streamStats$: currentStreamStats(streamEvents$, model$),
    command,
    attach: (element) => {
      if (element$.value !== element) element$.next(element);
    },
    play: () => command({ type: 'play' }),
    pause: () => command({ type: 'pause' }),
  };
}
