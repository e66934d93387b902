import { asyncScheduler, EMPTY, map, merge, type Observable, type SchedulerLike } from 'rxjs';
import type { NavigationState } from '../navigation/navigationState';
import type { BoundedCache } from '../sampling/visualElementAttachCache';
import { navigationEvents, videoLoadEvents, visualElementEvents, type VideoLoad } from './navigationEvents';
import { playbackDebugEvents, type PlaybackDebugSources } from './playbackDebugEvents';
import { qoeEvents, type QoeSources } from './qoeEvents';
import { sessionEvents, type SessionSources } from './sessionEvents';
import type { ClientEvent } from './stampEvent';
import { storageLogEvents, storedLogEvents, type StoredLogOutcome } from './storageLogEvents';

/** Everything a page logs about itself, each stream optional but the session's. */
export interface PageLogSources {
  /** The viewing session (spec §4): load, states, watch time, seeks, volume, visibility, network, latency, … */
  session: SessionSources;
  /** The playback's debugging events (`video_stats`, spec §7): stalls, media errors, rendition switches. */
  debug?: Omit<PlaybackDebugSources, 'scheduler'>;
  /** The playback's quality of experience: start-up time, rebuffers, quality switches, bandwidth estimates. */
  qoe?: Omit<QoeSources, 'scheduler'>;
  /** Application navigation (spec §4), replaying its current state (which is not a change and is not logged). */
  navigation$?: Observable<NavigationState>;
  /** The video loads that start a navigation (spec §3 load options, with `rct` / `rctn`). */
  navigationLoads$?: Observable<VideoLoad>;
  /** Every video the page shows; the first showing of each is attached (spec §9 attach cache). */
  shownVideoIds$?: Observable<string>;
  /** The visual-element attach cache those showings go through. */
  attachCache?: BoundedCache<string, true>;
  /** The storage reports of the page's databases, sampled (spec §9). */
  storageReport$?: Observable<{ type: string; message: string }>;
  /** What the retry queue's drain did, sampled once a stored request's fate is known (spec §9). */
  retryOutcome$?: Observable<StoredLogOutcome>;
  /** The random source of the sampling draws, read at each draw. */
  random?: () => number;
}

/**
 * The page's logged events as one stream: a pure merge of the session's sources (no subscription of its own, no
 * state but the attach cache it is given), each event timed by `scheduler.now()` when it happened — not when an idle
 * slot later hands it to the sink. Over a recorded feed, the scheduler tells the recorded time of each event.
 *
 * ```
 * session: L-s---       (L playerLoad, s playerStateChange)
 * storage: ---r--       (r a storage report drawn in)
 * result:  L-s-r-       (each with eventTimeMs = the frame it came at)
 * ```
 */
export function pageLogEvents(sources: PageLogSources, scheduler: SchedulerLike = asyncScheduler): Observable<ClientEvent> {
  const { random } = sources;
  return merge(
    sessionEvents(sources.session),
    sources.debug ? playbackDebugEvents({ ...sources.debug, scheduler }) : EMPTY,
    sources.qoe ? qoeEvents({ ...sources.qoe, scheduler }) : EMPTY,
    sources.navigation$ ? navigationEvents(sources.navigation$) : EMPTY,
    sources.navigationLoads$ ? videoLoadEvents(sources.navigationLoads$) : EMPTY,
    sources.shownVideoIds$ ? visualElementEvents(sources.shownVideoIds$, sources.attachCache) : EMPTY,
    sources.storageReport$ ? storageLogEvents(sources.storageReport$, { random }) : EMPTY,
    sources.retryOutcome$ ? storedLogEvents(sources.retryOutcome$, { random }) : EMPTY,
  ).pipe(map((event): ClientEvent => ({ ...event, eventTimeMs: scheduler.now() })));
}
