import {
  BehaviorSubject,
  distinctUntilChanged,
  filter,
  map,
  merge,
  Observable,
  share,
  shareReplay,
  startWith,
  Subject,
  switchMap,
  scan,
  take,
  combineLatest,
  EMPTY,
  fromEvent,
} from 'rxjs';
import {
  parseBooleanVar,
  shouldAutoplay,
  type PlayerConfig,
  type PlayerResponse,
  type StreamFormat,
  type CaptionTrackInfo,
} from '../../../streams/config/playerConfig';
import { mediaEvents$, type MediaEvent } from '../../../streams/sources/mediaEvents';
import { eventsOf } from '../../../streams/sources/eventsOf';
import { hostErrorCode } from '../../../streams/player/errorCodes';
import { type PlayerStateInput, type PlayerStateValue, PlayerState } from '../../../streams/player/playerState';
import { playerStates } from '../../../streams/player/playerStates';
import { playerReadiness$, type PlayerReadiness } from '../../../streams/player/playerReadiness';
import { initialPlayerModel, pickFormat, type PlayerModel } from '../../../streams/player/playerModel';
import { playerEngine, type PlaylistResponse } from '../../../streams/player/playerEngine';
import type { EngineInput, PlayerAction } from '../../../streams/player/reducePlayer';
import { buildPlayerInfo, EMPTY_MEDIA_SNAPSHOT, type MediaSnapshot } from '../../../streams/player/playerInfo';
import type { PlayerCommand, PlayerEventOut, PlayerInfo } from '../../../streams/player/types';
import { numberText } from '../../../streams/shared/numberText';

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
  /** The one entry point of commands: the views and the host bridge. */
  command(cmd: PlayerCommand): void;
  attach(element: HTMLVideoElement | null): void;
  play(): void;
  pause(): void;
}

export interface EmbedPlayerDeps {
  /** `POST /youtubei/v1/player {videoId}` through the page's API client (`api.ts`: identity, anti-forgery field). */
  fetchVideo: (videoId: string) => Observable<PlayerResponse>;
  /** `POST /youtubei/v1/next {playlistId}` through the page's API client. */
  fetchPlaylist: (listId: string) => Observable<PlaylistResponse>;
  /** Wall clock in ms (`currentTimeLastUpdated_`). */
  now?: () => number;
  random?: () => number;
  /** The page origin written into `videoUrl`/`videoEmbedCode`. */
  origin?: string;
}

const STATE_EVENTS = new Set(['play', 'playing', 'pause', 'waiting', 'seeking', 'seeked', 'ended', 'emptied']);

/** The element's box on the page (`videoContentRect`). */
export const readBox = (el: HTMLVideoElement): MediaSnapshot['box'] => {
  const r = el.getBoundingClientRect();
  return { left: r.left, top: r.top, width: r.width, height: r.height };
};

/**
 * The buffered ranges as `[start, end]` pairs; the previous array itself when they are the same, so that a playback
 * tick compares them with one `===` (issue 15: the seek bar and the snapshot diff compared them as JSON every tick).
 */
function readBuffered(ranges: TimeRanges, previous: MediaSnapshot['buffered'] | undefined): MediaSnapshot['buffered'] {
  let same = previous !== undefined && previous.length === ranges.length;
  for (let i = 0; same && i < ranges.length; i++) same = previous![i][0] === ranges.start(i) && previous![i][1] === ranges.end(i);
  if (same) return previous!;
  const buffered: [number, number][] = [];
  for (let i = 0; i < ranges.length; i++) buffered.push([ranges.start(i), ranges.end(i)]);
  return buffered;
}

/**
 * Reads the element into plain data for {@link buildPlayerInfo}. The box is read when the layout changes (`box`), not
 * on every media event: `getBoundingClientRect` forces a layout, several times a second while playing (issue 15).
 */
export function readMediaSnapshot(el: HTMLVideoElement, box: MediaSnapshot['box'] = readBox(el), previous?: MediaSnapshot): MediaSnapshot {
  return {
    currentTime: el.currentTime,
    duration: el.duration,
    volume: el.volume,
    muted: el.muted,
    playbackRate: el.playbackRate,
    buffered: readBuffered(el.buffered, previous?.buffered),
    videoWidth: el.videoWidth,
    videoHeight: el.videoHeight,
    box,
  };
}

/**
 * The embed's player for one configuration: the engine of `streams/player` (state machine, command rules, fetches)
 * wired to the mounted `<video>` element. Commands from the views and the host go through {@link EmbedPlayer.command};
 * the engine's actions are performed here on the element; its events feed the state machine and the snapshot.
 */
export function createEmbedPlayer(config: PlayerConfig, deps: EmbedPlayerDeps): EmbedPlayer {
  const { fetchVideo, fetchPlaylist, now = () => Date.now(), random = Math.random, origin = typeof location !== 'undefined' ? location.origin : '' } = deps;
  const vars = config.args.playerVars;
  const autoplay = shouldAutoplay(config.args.autoplay);
  const element$ = new BehaviorSubject<HTMLVideoElement | null>(null);
  const inputs$ = new Subject<EngineInput>();
  const stateInputs$ = new Subject<PlayerStateInput>();
  const error$ = new BehaviorSubject<PlayerError | null>(null);
  const autoplayBlocked$ = new BehaviorSubject<boolean>(false);
  const events$ = new Subject<PlayerEventOut>();
  const captionCues$ = new BehaviorSubject<readonly TextTrackCue[]>([]);
  /** How often the captions were reloaded: a reload asks for the files under a new URL, past every cache. */
  let captionReloads = 0;
  const initialModel = initialPlayerModel(config);
  const model$ = new BehaviorSubject<PlayerModel>(initialModel);
  const format = pickFormat(config.args.player_response.streamingData?.formats ?? [], 'auto');

  let stateNow: PlayerStateValue = PlayerState.UNSTARTED;
  /** Where to seek once the new source has metadata, and whether to play it. */
  let pendingSeek: number | null = null;
  /**
   * A seek asked for before the element had metadata (the player is ready before that, issue 15): where the video is
   * going, which the snapshot gives as its time until the element is there, so a host hears of its seek at once.
   */
  let seekTarget: number | null = null;
  /** A change of {@link seekTarget}, which no element event announces: the snapshot is read again. */
  const seekTargetChanged$ = new Subject<void>();
  let captionLanguage: string | null = null;
  /** While the first source is given to an element the browser had already started (the server's `autoplay`). */
  let adoptingStarted = false;

  const state$ = playerStates(stateInputs$).pipe(shareReplay({ bufferSize: 1, refCount: false }));
  state$.subscribe((s) => (stateNow = s));

  const doPlay = (el: HTMLVideoElement) => {
    autoplayBlocked$.next(false);
    let result: Promise<void> | undefined;
    try {
      result = el.play();
    } catch {
      result = undefined;
    }
    result?.catch((e: unknown) => {
      const name = (e as { name?: string } | null)?.name;
      if (name === 'AbortError') return; // a pause or a new source interrupted play(): the element's events tell the state
      if (name === 'NotAllowedError') {
        autoplayBlocked$.next(true);
        events$.next({ type: 'autoplayBlocked' });
      }
      stateInputs$.next({ type: 'playRefused' });
    });
  };

  /**
   * The cues showing now, passed on only when they are not the ones shown: an empty list again (each load of a video
   * without captions on, each loop) would render the player for nothing (issue 15).
   */
  const showCues = (cues: readonly TextTrackCue[]) => {
    if (!sameCues(captionCues$.value, cues)) captionCues$.next(cues);
  };

  const showCaptions = (el: HTMLVideoElement, languageCode: string | null) => {
    captionLanguage = languageCode;
    let cues: readonly TextTrackCue[] = [];
    for (const track of Array.from(el.textTracks)) {
      const on = languageCode !== null && track.language === languageCode;
      track.mode = on ? 'hidden' : 'disabled';
      if (on) cues = activeCuesOf(track);
    }
    showCues(cues);
  };

  /** The caption tracks the element has (as given, without a reload), so that the same ones are not built again. */
  let tracksShown: CaptionTrackInfo[] | null = null;
  const setTracks = (el: HTMLVideoElement, tracks: CaptionTrackInfo[], reload = 0) => {
    // The same tracks again (the video loaded again, a loop): the element keeps its track elements, their loaded cues
    // and listeners (issue 15: a loop rebuilt them, and a shown track fetched its file again).
    if (reload === 0 && tracksShown !== null && sameTracks(tracksShown, tracks)) return;
    tracksShown = reload === 0 ? tracks : null;
    el.querySelectorAll('track').forEach((t) => t.remove());
    for (const t of tracks) {
      const track = el.ownerDocument.createElement('track');
      track.kind = 'subtitles';
      track.src = reload > 0 ? `${t.url}${t.url.includes('?') ? '&' : '?'}reload=${numberText(reload)}` : t.url;
      track.srclang = t.languageCode;
      track.label = t.languageName;
      track.track.mode = 'disabled';
      track.track.addEventListener('cuechange', () => {
        if (track.track.language === captionLanguage) showCues(activeCuesOf(track.track));
      });
      el.appendChild(track);
    }
  };

  /** Set by an action that changed what the snapshot shows without an element event: read it again after the action. */
  let rereadSnapshot = false;
  const perform = (action: PlayerAction) => {
    try {
      performAction(action);
    } finally {
      if (rereadSnapshot) {
        rereadSnapshot = false;
        seekTargetChanged$.next();
      }
    }
  };
  /** A `source` action: the rendition into the element (or the element emptied), its start, its captions. */
  const applySource = (el: HTMLVideoElement, action: Extract<PlayerAction, { type: 'source' }>) => {
    // A new source ends what a pending seek said (its start position is not shown as its time), and the snapshot
    // says so at once, not at the element's next event.
    if (seekTarget !== null) {
      seekTarget = null;
      rereadSnapshot = true;
    }
    autoplayBlocked$.next(false);
    showCues([]);
    if (action.url === null) {
      pendingSeek = null;
      setTracks(el, []);
      if (el.hasAttribute('src')) {
        el.removeAttribute('src');
        el.load();
      }
      return;
    }
    setTracks(el, action.captions);
    // Cueing the video that is playing keeps its source: stop it, or it plays on under a "cued" state.
    if (!action.play && !el.paused) el.pause();
    pendingSeek = action.startSeconds > 0 ? action.startSeconds : null;
    el.preload = action.play ? 'auto' : 'metadata';
    // The element may have this source already: the server wrote it into the page (issue 15), or the same video is
    // loaded again. It keeps its media; only the start position is set, and not when it is there already (a seek
    // to where the element is would still fire seeking/seeked).
    if (el.getAttribute('src') !== action.url) el.src = action.url;
    else if (el.readyState >= 1) {
      // An element adopted after the browser started it from the beginning is where it should be: no jump back.
      if (el.currentTime !== action.startSeconds && !(adoptingStarted && action.startSeconds === 0)) el.currentTime = action.startSeconds;
      pendingSeek = null;
    }
    if (action.play) doPlay(el);
  };
  const performAction = (action: PlayerAction) => {
    const el = element$.value;
    switch (action.type) {
      case 'state':
        stateInputs$.next(action.input);
        return;
      case 'error': {
        const error = { internal: action.internal, code: hostErrorCode(action.internal), message: action.message };
        error$.next(error);
        events$.next({ type: 'error', ...error });
        return;
      }
      case 'apiChange':
        events$.next({ type: 'apiChange' });
        return;
      case 'fetchVideo':
      case 'fetchPlaylist':
        return;
    }
    if (!el) return;
    switch (action.type) {
      case 'source':
        // One function of its own: it runs once a load, and the engine compiles only what runs often (issue 15).
        applySource(el, action);
        return;
      case 'play':
        doPlay(el);
        return;
      case 'pause':
        el.pause();
        return;
      case 'seek': {
        if (el.readyState >= 1) {
          // The metadata may be there before its event: an older pending seek must not undo this one then.
          pendingSeek = seekTarget = null;
          el.currentTime = action.seconds;
          return;
        }
        // Within the video's length when the response says it (the element clamps its own seeks, later).
        const length = Number(model$.value.response?.videoDetails?.lengthSeconds);
        pendingSeek = seekTarget = length > 0 ? Math.min(action.seconds, length) : action.seconds;
        rereadSnapshot = true;
        return;
      }
      case 'muted':
        el.muted = action.muted;
        return;
      case 'volume':
        el.volume = action.volume / 100;
        return;
      case 'rate':
        el.playbackRate = action.rate;
        return;
      case 'captions':
        showCaptions(el, action.languageCode);
        return;
      case 'reloadCaptions':
        setTracks(el, action.captions, ++captionReloads);
        showCaptions(el, action.languageCode);
        return;
    }
  };

  const steps$ = playerEngine(inputs$, {
    initialModel,
    context: () => ({ currentTime: element$.value?.currentTime ?? 0, state: stateNow, random }),
    fetchVideo,
    fetchPlaylist,
  });
  steps$.subscribe((step) => {
    if (step.model !== model$.value) {
      if (!step.model.error && error$.value) error$.next(null);
      model$.next(step.model);
    }
    for (const action of step.actions) perform(action);
  });

  const mounted$ = element$.pipe(
    filter((e): e is HTMLVideoElement => e !== null),
    distinctUntilChanged(),
  );

  // Each mounted element: its events feed the state machine, the engine and the snapshot.
  const elementEvents$: Observable<MediaEvent<HTMLVideoElement>> = mounted$.pipe(
    switchMap((el) => mediaEvents$(el)),
    // Hot and never reset, like `shareReplay({ bufferSize: 0, refCount: false })` without a replay buffer to trim on
    // every event (issue 15).
    share({ resetOnError: true, resetOnComplete: false, resetOnRefCountZero: false }),
  );
  elementEvents$.subscribe((e) => {
    const el = e.target;
    if (STATE_EVENTS.has(e.type)) stateInputs$.next({ type: e.type as 'play', paused: el.paused, ended: el.ended });
    switch (e.type) {
      case 'loadedmetadata':
        if (pendingSeek !== null) {
          el.currentTime = pendingSeek;
          pendingSeek = null;
        }
        seekTarget = null;
        return;
      case 'emptied':
        seekTarget = null;
        return;
      case 'timeupdate':
        // The engine decides on a tick only to end a clip (`endSeconds`): without one, a tick is none of its business
        // (issue 15: a step of the engine on every tick for nothing).
        if (model$.value.endSeconds !== null && !model$.value.clipEnded) inputs$.next({ type: 'timeUpdate', currentTime: el.currentTime });
        return;
      case 'ended':
        inputs$.next({ type: 'mediaEnded' });
        return;
      case 'error':
        // A source that failed never gets to the pending seek: its target is not the time any more.
        seekTarget = null;
        if (el.getAttribute('src')) inputs$.next({ type: 'mediaError', code: el.error?.code });
        return;
    }
  });

  // The configured video goes into the first mounted element: loaded and played, or cued (spec §4).
  mounted$.pipe(take(1)).subscribe((el) => {
    if (parseBooleanVar(vars.mute)) el.muted = true;
    if (vars.list) {
      const index = Number(vars.index);
      inputs$.next({
        type: 'loadPlaylist',
        options: {
          list: vars.list,
          listType: vars.listType,
          index: Number.isInteger(index) && index >= 0 ? index : 0,
          startSeconds: initialModel.startSeconds,
        },
        autoplay,
      });
      return;
    }
    stateInputs$.next({ type: autoplay ? 'load' : 'cue' });
    adoptingStarted = !el.paused || el.currentTime > 0;
    inputs$.next({ type: 'videoResponse', seq: 0, response: config.args.player_response, autoplay });
    adoptingStarted = false;
    // From here on the player alone says when to play: a later source (a cue, a quality switch) must not start by
    // itself, which the element's `autoplay` would make it do.
    el.removeAttribute('autoplay');
    // The element the server wrote may be playing already (its `autoplay`, issue 15: the browser started it before
    // this script ran). Its play and playing events are gone: the state machine hears them now.
    if (!el.paused) {
      stateInputs$.next({ type: 'play', paused: false, ended: el.ended });
      if (el.readyState >= 3 /* HAVE_FUTURE_DATA */) stateInputs$.next({ type: 'playing', paused: false, ended: el.ended });
    }
    // Likewise a source that already failed (its error event is gone): the player fails as it would have then.
    if (el.error && el.getAttribute('src')) inputs$.next({ type: 'mediaError', code: el.error.code });
  });

  const readiness$ = mounted$.pipe(
    take(1),
    switchMap((el) =>
      // Ready once the player has its video — the element has the chosen rendition as its source — or knows it cannot
      // play it (issue 15). It then takes every command (a seek before the metadata waits for it) and answers every
      // getter (the duration from the response until the element knows it), as the reference embed is ready before
      // its media has loaded. Waiting for the metadata would put the media pipeline's start-up before `onReady`.
      playerReadiness$(() => (model$.value.quality !== '' && el.hasAttribute('src')) || el.error !== null || model$.value.error !== null, {
        // An event that may have made it ready checks at once; the 50 ms poll stays as the net.
        changes$: merge(
          eventsOf(el, ['loadstart', 'error'], () => undefined),
          model$.pipe(
            map((m) => `${m.quality}|${m.error?.internal ?? ''}`),
            distinctUntilChanged(),
          ),
        ),
      }),
    ),
    startWith<PlayerReadiness>('loading'),
    distinctUntilChanged(),
    shareReplay({ bufferSize: 1, refCount: false }),
  );
  readiness$.subscribe();

  const layout$ = mounted$.pipe(
    switchMap((el) => {
      const win = el.ownerDocument.defaultView;
      if (!win) return EMPTY;
      if (typeof win.ResizeObserver === 'function') {
        return new Observable<void>((sub) => {
          const ro = new win.ResizeObserver(() => sub.next());
          ro.observe(el);
          return () => ro.disconnect();
        });
      }
      return fromEvent(win, 'resize').pipe(map(() => undefined));
    }),
  );
  // The box is re-read on a layout change or a new element only; media events reuse it.
  let box: MediaSnapshot['box'] | undefined;
  let lastMedia: MediaSnapshot | undefined;
  const media$ = merge(
    elementEvents$.pipe(map(() => false)),
    seekTargetChanged$.pipe(map(() => false)),
    layout$.pipe(map(() => true)),
    element$.pipe(map(() => true)),
  ).pipe(
    map((layoutChanged) => {
      const el = element$.value;
      if (!el) return EMPTY_MEDIA_SNAPSHOT;
      if (layoutChanged || box === undefined) box = readBox(el);
      lastMedia = readMediaSnapshot(el, box, lastMedia);
      if (seekTarget !== null && el.readyState < 1) lastMedia = { ...lastMedia, currentTime: seekTarget };
      return lastMedia;
    }),
    shareReplay({ bufferSize: 1, refCount: false }),
  );
  media$.subscribe();

  const info$ = combineLatest([model$, state$, media$]).pipe(
    map(([model, state, media]) => buildPlayerInfo(model, media, state, { origin, nowMs: now() })),
    shareReplay({ bufferSize: 1, refCount: false }),
  );
  info$.subscribe();

  const videoData$ = model$.pipe(scan(nextVideoData, null), distinctUntilChanged(), shareReplay({ bufferSize: 1, refCount: false }));
  const quality$ = model$.pipe(
    map((m) => m.quality),
    distinctUntilChanged(),
    shareReplay({ bufferSize: 1, refCount: false }),
  );

  const command = (cmd: PlayerCommand) => {
    if (cmd && typeof cmd === 'object' && typeof cmd.type === 'string') inputs$.next(cmd);
  };

  return {
    config,
    element$,
    state$,
    readiness$,
    videoData$,
    error$,
    autoplayBlocked$,
    format,
    quality$,
    model$,
    media$,
    captionCues$,
    info$,
    events$: events$.asObservable(),
    command,
    attach: (element) => {
      if (element$.value !== element) element$.next(element);
    },
    play: () => command({ type: 'play' }),
    pause: () => command({ type: 'pause' }),
  };
}

/**
 * What the views show of the video, from the model: the same object as long as it says the same (issue 15). While
 * the video that shows is loaded again (a loop, the same id loaded by the host), it stays: its response is on its way,
 * and nothing the viewer sees of it has changed. The title, the channel bar's state (asked per video) and the poster
 * then do not blink and are not asked for again.
 */
export function nextVideoData(shown: VideoData | null, model: PlayerModel): VideoData | null {
  const d = model.response?.videoDetails;
  if (!d) return model.response === null && model.error === null && shown?.videoId === model.videoId ? shown : null;
  if (
    shown &&
    shown.videoId === d.videoId &&
    shown.title === d.title &&
    shown.author === d.author &&
    shown.durationSeconds === d.lengthSeconds &&
    shown.posterUrl === d.thumbnailUrl
  ) {
    return shown;
  }
  return { videoId: d.videoId, title: d.title, author: d.author, durationSeconds: d.lengthSeconds, posterUrl: d.thumbnailUrl };
}

/** Whether two lists of cues are the same cues, in the same order. */
export function sameCues(a: readonly TextTrackCue[], b: readonly TextTrackCue[]): boolean {
  return a === b || (a.length === b.length && a.every((cue, i) => cue === b[i]));
}

/** Whether two caption track lists are the same tracks, in the same order. */
function sameTracks(a: readonly CaptionTrackInfo[], b: readonly CaptionTrackInfo[]): boolean {
  return a.length === b.length && a.every((t, i) => t.url === b[i].url && t.languageCode === b[i].languageCode && t.languageName === b[i].languageName);
}

/** The cues of a track showing now, in order ([] when it has none or is not loaded). */
function activeCuesOf(track: TextTrack): readonly TextTrackCue[] {
  const cues = track.activeCues;
  return cues ? Array.from({ length: cues.length }, (_, i) => cues[i]) : [];
}
