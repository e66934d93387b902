import {
  BehaviorSubject,
  distinctUntilChanged,
  EMPTY,
  filter,
  first,
  map,
  merge,
  mergeMap,
  type Observable,
  of,
  share,
  shareReplay,
  skip,
  Subscription,
  switchMap,
} from 'rxjs';
import type { PlayerConfig } from '../../../streams/config/playerConfig';
import type { HostCommandReceipt } from '../../../streams/host/hostCommandReceipts';
import { latencyReports, type LatencyTick } from '../../../streams/latency/latencyReports';
import type { VideoLoad } from '../../../streams/logging/navigationEvents';
import type { PageLogSources } from '../../../streams/logging/pageLogEvents';
import type { PlaybackDebugSources } from '../../../streams/logging/playbackDebugEvents';
import type { QoeStreamEvent } from '../../../streams/logging/qoeEvents';
import type { LoggedPlayerState } from '../../../streams/logging/playerEvents';
import type { PlayerStateSnapshot, SessionSources } from '../../../streams/logging/sessionEvents';
import type { StoredLogOutcome } from '../../../streams/logging/storageLogEvents';
import { navigationState, type NavigationState } from '../../../streams/navigation/navigationState';
import { PlayerState } from '../../../streams/player/playerState';
import { visualElementAttachCache, type BoundedCache } from '../../../streams/sampling/visualElementAttachCache';
import type { VisibilityState } from '../../../streams/visibility/visibilityState';
import type { FeedMediaEvent, MediaFacts, PlayerFeed } from '../player/playerFeed';

/** What the page's log sources are read from besides the player's feed. */
export interface PageSituation {
  online$: Observable<boolean>;
  visibility$: Observable<VisibilityState>;
  hostCommands$?: Observable<HostCommandReceipt>;
  storageReport$: Observable<{ type: string; message: string }>;
  retryOutcome$: Observable<StoredLogOutcome>;
  random: () => number;
}

/** The page's log sources, with the state they keep. */
export interface PageSources {
  readonly sources: PageLogSources;
  /** Application navigation (spec §4), replaying the current state. */
  readonly navigation$: Observable<NavigationState>;
  /** The visual-element attach cache (spec §9, 1000 entries). */
  readonly attachCache: BoundedCache<string, true>;
  stop(): void;
}

/** Where the embedding page lives: the `origin` player variable, else the loader URL's origin. */
function hostOriginOf(config: PlayerConfig): string | undefined {
  if (config.args.playerVars.origin) return config.args.playerVars.origin;
  try {
    return config.args.loaderUrl ? new URL(config.args.loaderUrl).origin : undefined;
  } catch {
    return undefined;
  }
}

const snapshotOf = ({ state, media }: { state: number; media: MediaFacts | undefined }): PlayerStateSnapshot => ({
  state: state as LoggedPlayerState,
  mediaTimeSec: media?.currentTime ?? 0,
  playbackRate: media?.playbackRate ?? 1,
  muted: media?.muted ?? false,
  volume: Math.round((media?.volume ?? 1) * 100),
});

const isReady = (r: string) => r === 'ready';

/** Latency (spec §9): ticks of the embed's start-up, reported as spans through logging. */
function latencyOf(feed: PlayerFeed, win: Window): SessionSources['latency$'] {
  const ticks$ = merge(
    of<LatencyTick>({ action: 'embed', name: 'navigationStart', time: win.performance.timeOrigin }),
    feed.readiness$.pipe(
      filter(isReady),
      first(),
      map((): LatencyTick => ({ action: 'embed', name: 'playerReady', time: feed.now() })),
    ),
    feed.state$.pipe(
      filter(({ state }) => state === PlayerState.PLAYING),
      first(),
      map((): LatencyTick => ({ action: 'embed', name: 'firstPlaying', time: feed.now() })),
    ),
  );
  return latencyReports(ticks$, {
    spans: [
      { action: 'embed', from: 'navigationStart', to: 'playerReady' },
      { action: 'embed', from: 'navigationStart', to: 'firstPlaying' },
    ],
    scheduler: feed.scheduler,
  });
}

/** The viewing session's sources (spec §4) from the feed: a seek goes from where the feed says it started. */
function sessionOf(feed: PlayerFeed, media$: Observable<FeedMediaEvent>, win: Window, situation: PageSituation): SessionSources {
  const { config } = feed;
  return {
    videoId: config.args.video_id,
    autoplay: config.args.autoplay !== '0',
    hostOrigin: hostOriginOf(config),
    playerStyle: config.args.ps,
    state$: feed.state$.pipe(map(snapshotOf)),
    readyLatencyMs$: feed.readiness$.pipe(
      filter(isReady),
      map(() => feed.now() - win.performance.timeOrigin) /* ms since navigation start */,
    ),
    error$: feed.error$.pipe(
      filter((e): e is NonNullable<typeof e> => e !== null),
      distinctUntilChanged(),
    ),
    seek$: media$.pipe(
      filter((e) => e.type === 'seeking'),
      map((e) => ({ fromSec: e.fromSec ?? 0, toSec: e.target.currentTime })),
    ),
    volume$: media$.pipe(
      filter((e) => e.type === 'attached' || e.type === 'volumechange'),
      map((e) => ({ volume: Math.round(e.target.volume * 100), muted: e.target.muted })),
    ),
    playbackRate$: media$.pipe(
      filter((e) => e.type === 'attached' || e.type === 'ratechange'),
      map((e) => e.target.playbackRate),
    ),
    quality$: feed.format ? of(feed.format.quality) : EMPTY,
    visibility$: situation.visibility$,
    online$: situation.online$,
    latency$: latencyOf(feed, win),
    hostCommand$: situation.hostCommands$,
  };
}

/** The debugging events' sources (`video_stats`, spec §7), each with the video playing then. */
function debugOf(media$: Observable<FeedMediaEvent>, feed: PlayerFeed, videoIdNow: () => string): Omit<PlaybackDebugSources, 'scheduler'> {
  return {
    state$: feed.state$.pipe(map(({ state, media }) => ({ videoId: videoIdNow(), state: state as LoggedPlayerState, mediaTimeSec: media?.currentTime ?? 0 }))),
    mediaError$: media$.pipe(
      // An element without a source fires error too (the player clears it): only a failing source is a media error.
      filter((e) => e.type === 'error' && e.target.error !== null && e.target.hasSource),
      map((e) => ({ videoId: videoIdNow(), code: e.target.error!.code, message: e.target.error!.message, mediaTimeSec: e.target.currentTime })),
    ),
    quality$: feed.quality$.pipe(map((quality) => ({ videoId: videoIdNow(), quality }))),
  };
}

/** The quality of experience's sources: each load, the states, seeks, the rendition on screen, the stream's events. */
function qoeOf(media$: Observable<FeedMediaEvent>, feed: PlayerFeed, loads$: Observable<VideoLoad>, videoIdNow: () => string): PageLogSources['qoe'] {
  return {
    load$: loads$,
    state$: feed.state$.pipe(map(({ state, media }) => ({ videoId: videoIdNow(), state: state as LoggedPlayerState, mediaTimeSec: media?.currentTime ?? 0 }))),
    seek$: media$.pipe(filter((e) => e.type === 'seeking')),
    quality$: feed.quality$.pipe(map((quality) => ({ videoId: videoIdNow(), quality }))),
    stream$: feed.streamEvents$.pipe(
      mergeMap((e): Observable<QoeStreamEvent & { videoId: string }> => {
        if (e.type === 'decision') return of({ type: 'decision', quality: e.quality, bitrate: e.bitrate, reason: e.decision.reason, videoId: videoIdNow() });
        if (e.type === 'estimate') return of({ type: 'estimate', bps: e.bps, videoId: videoIdNow() });
        return EMPTY;
      }),
    ),
  };
}

/**
 * The page's log sources from the player's feed — recorded from the page's start when the logging starts late, with
 * the element's facts as they were — and the page's situation. Every load after the player is ready (a host load or
 * cue, a playlist move) starts a navigation.
 */
export function pageSourcesOf(feed: PlayerFeed, win: Window, situation: PageSituation): PageSources {
  const subscriptions = new Subscription();
  const media$ = feed.media$.pipe(share());
  const shownVideoIds$ = feed.videoData$.pipe(
    filter((d): d is NonNullable<typeof d> => d !== null),
    map((d) => d.videoId),
  );
  const currentVideoId = new BehaviorSubject<string>(feed.config.args.video_id);
  subscriptions.add(shownVideoIds$.subscribe((id) => currentVideoId.next(id)));

  const loads$: Observable<VideoLoad> = feed.model$.pipe(
    distinctUntilChanged((a, b) => a.loadSeq === b.loadSeq),
    map((m) => ({ videoId: m.videoId, referral: m.referral ?? null })),
  );
  const navigationLoads$ = feed.readiness$.pipe(
    filter(isReady),
    first(),
    switchMap(() => loads$.pipe(skip(1))),
    share(),
  );
  const navigation$ = navigationState(navigationLoads$).pipe(shareReplay({ bufferSize: 1, refCount: false }));
  subscriptions.add(navigation$.subscribe());
  const attachCache = visualElementAttachCache<string, true>();

  const sources: PageLogSources = {
    session: sessionOf(feed, media$, win, situation),
    debug: debugOf(media$, feed, () => currentVideoId.value),
    qoe: qoeOf(media$, feed, loads$, () => currentVideoId.value),
    navigation$,
    navigationLoads$,
    shownVideoIds$,
    attachCache,
    storageReport$: situation.storageReport$,
    retryOutcome$: situation.retryOutcome$,
    random: situation.random,
  };
  return { sources, navigation$, attachCache, stop: () => subscriptions.unsubscribe() };
}
