import {
  BehaviorSubject,
  distinctUntilChanged,
  filter,
  fromEvent,
  map,
  merge,
  type Observable,
  share,
  skip,
  Subject,
  type Subscription,
  switchMap,
} from 'rxjs';
import type { QualityDecision, QualityPreference } from '../../../../streams/abr/abrDecision';
import { adaptiveDecisions, type TransferProgress } from '../../../../streams/abr/adaptiveDecisions';
import { arrivesWithin, initialEstimate, nextEstimate } from '../../../../streams/abr/bandwidthEstimate';
import { type BandwidthSample, type SegmentTransfer, sampleOf } from '../../../../streams/abr/bandwidthSample';
import type { AdaptiveFormat, PlayerResponse } from '../../../../streams/config/playerConfig';
import { capIndexFor, type CodecFamily } from '../../../../streams/mse/adaptiveLadder';
import { oneAtATime } from '../../../../streams/mse/oneAtATime';
import { segmentIndexAt } from '../../../../streams/mse/segments';
import { type TrackEvent, trackLoader } from '../../../../streams/mse/trackLoader';
import { generate204Probe } from '../../../../streams/network/generate204Probe';
import { networkStatus } from '../../../../streams/network/networkStatus';
import { networkEvents$ } from '../../../../streams/sources/networkEvents';
import { ABR_REPLACE_KEEP_S, STREAM_APPEND_LINK_SHARE, STREAM_BACK_BUFFER_SECONDS } from '../../../../streams/timing';
import { type AppendQueue, appendQueue } from './appendQueue';
import { fetchSegment } from './fetchSegment';
import { pageLoadSamples } from './pageLoad';
import type { AdaptiveEvent, AdaptiveOptions } from './startAdaptive';

/** Where the buffered range holding `t` ends (`t` itself when none holds it). */
function bufferedEnd(ranges: TimeRanges, t: number): number {
  for (let i = 0; i < ranges.length; i++) if (ranges.start(i) <= t + 0.1 && t < ranges.end(i)) return ranges.end(i);
  return t;
}

const preferenceFor = (video: readonly AdaptiveFormat[], quality: string): QualityPreference => {
  const index = capIndexFor(video, quality);
  return index === null ? 'auto' : { fixed: index };
};

/** The bytes a track's rest takes in `format`, from segment `from` (0-based) on. */
const bytesFrom = (format: AdaptiveFormat | undefined, from: number): number => (format?.segmentBytes.slice(from) ?? []).reduce((a, b) => a + b, 0);

/**
 * Counts the stream's bytes at each segment in: what was fetched, and in all what was fetched plus the rest of each
 * track after its latest segment, the video's in the rendition decided now.
 */
function byteCounter(video: readonly AdaptiveFormat[], audio: AdaptiveFormat, decided: () => number, report: (e: AdaptiveEvent) => void) {
  let loaded = 0;
  const next = { video: 0, audio: 0 };
  return (kind: 'video' | 'audio') => (e: TrackEvent) => {
    if (e.type !== 'segment') return;
    loaded += e.transfer.bytes;
    next[kind] = e.index + 1;
    report({ type: 'bytes', loaded, total: loaded + bytesFrom(video[decided()] ?? video[0], next.video) + bytesFrom(audio, next.audio) });
  };
}

/**
 * The rung of each video segment appended, and the lowest of those a replacement would fetch again: from the segment
 * holding `keepS` past the playhead on.
 */
function bufferedRungs(keepS: number) {
  const rungs = new Map<number, number>();
  return {
    appended: (index: number, rung: number) => void rungs.set(index, rung),
    lowestAhead: (format: AdaptiveFormat, seconds: number): number | undefined => {
      const from = segmentIndexAt(format, seconds + keepS);
      let lowest: number | undefined;
      rungs.forEach((rung, index) => {
        if (index >= from && (lowest === undefined || rung < lowest)) lowest = rung;
      });
      return lowest;
    },
  };
}

/**
 * Whether a video segment the playhead waits for may go in as it arrives: with the audio of the same seconds it
 * arrives well within its play time at what the link measured (the page's load, then every transfer).
 */
function outpacedByLink(startSamples: readonly BandwidthSample[], transfers$: Observable<SegmentTransfer>, audio: AdaptiveFormat, subscriptions: Subscription) {
  let link = startSamples.reduce((state, sample) => nextEstimate(state, sample), initialEstimate);
  subscriptions.add(
    transfers$.subscribe((transfer) => {
      const sample = sampleOf(transfer);
      if (sample) link = nextEstimate(link, sample);
    }),
  );
  return (format: AdaptiveFormat, index: number) =>
    arrivesWithin(link, (format.segmentBytes[index] ?? Infinity) + (audio.segmentBytes[index] ?? 0), STREAM_APPEND_LINK_SHARE * format.segmentSeconds * 1000);
}

/**
 * A quality the viewer or the host picks shows within a segment or two: at each pick after the first preference, the
 * video buffered beyond the next segment boundary is dropped (the audio stays), then the loader fetches it again.
 */
const pickedRemovals = (preference$: Observable<string>, queue: AppendQueue, currentTime: () => number, segmentSeconds: number) =>
  preference$.pipe(
    skip(1),
    switchMap(() => queue.removeFrom((Math.floor(currentTime() / segmentSeconds) + 2) * segmentSeconds)),
    share(),
  );

/** Ends the stream (`endOfStream`) once both tracks said `end`, while the source is open and no buffer updates. */
function endOnceBoth(source: MediaSource, buffers: readonly SourceBuffer[]) {
  const ended = new Set<string>();
  return (kind: string) => (e: TrackEvent) => {
    if (e.type !== 'end') return;
    ended.add(kind);
    if (ended.size === 2 && source.readyState === 'open' && buffers.every((b) => !b.updating)) source.endOfStream();
  };
}

/** Whether the network is up (the network-status stream), replaying its latest value to each loader. */
const onlineNow$ = () =>
  networkStatus(networkEvents$(window), {
    readOnLine: () => navigator.onLine,
    probe: generate204Probe((url, init) => window.fetch(url, init)),
  }).pipe(
    map((s) => s === 'online'),
    distinctUntilChanged(),
    share({ connector: () => new BehaviorSubject<boolean>(navigator.onLine), resetOnRefCountZero: false }),
  );

/** What a stream runs with: its element and open `MediaSource`, the family it plays, and where it reports. */
export interface StreamContext {
  el: HTMLVideoElement;
  source: MediaSource;
  family: CodecFamily;
  response: PlayerResponse;
  options: AdaptiveOptions;
  preference$: BehaviorSubject<string>;
  events$: Subject<AdaptiveEvent>;
  /** Everything the stream starts is added here, and stops with it. */
  subscriptions: Subscription;
  fail: (internal: 'fmt.decode', message: string) => void;
}

/**
 * Streams one codec family into an open `MediaSource`: a `SourceBuffer` for video and one for audio, each filled by
 * its {@link trackLoader}, the video's rendition per segment from {@link adaptiveDecisions}.
 */
export function runStream({ el, source, family, response, options, preference$, events$, subscriptions, fail }: StreamContext): void {
  const video = family.video;
  const duration = Number(response.videoDetails?.lengthSeconds) || (video[0]?.segmentBytes.length ?? 0) * (video[0]?.segmentSeconds ?? 0);
  if (duration > 0) source.duration = duration;
  const videoBuffer = source.addSourceBuffer(video[0]?.mimeType ?? '');
  const audioBuffer = source.addSourceBuffer(family.audio.mimeType);
  let started = false;
  const currentTime = () => (started || el.readyState >= 1 ? ((started = true), el.currentTime) : options.startSeconds);
  const queueOptions = { currentTime, backBufferSeconds: STREAM_BACK_BUFFER_SECONDS };
  const videoQueue = appendQueue(videoBuffer, queueOptions);
  const audioQueue = appendQueue(audioBuffer, queueOptions);

  const online$ = onlineNow$();
  const elementEvents$ = merge(...['timeupdate', 'playing', 'waiting', 'seeking', 'progress'].map((type) => fromEvent(el, type))).pipe(share());
  const seeks$ = fromEvent(el, 'seeking').pipe(
    filter(() => bufferedEnd(el.buffered, el.currentTime) === el.currentTime),
    share(),
  );
  const transfers$ = new Subject<SegmentTransfer>();
  const aheadRung$ = new Subject<number | undefined>();
  const buffered = bufferedRungs(ABR_REPLACE_KEEP_S);
  const progress$ = new Subject<TransferProgress>();
  // The buffer level follows each append too, before its transfer is reported: the decision that transfer triggers
  // reads the level with the segment in it (before playback no element event would tell it).
  const appended$ = new Subject<void>();
  const buffer$ = merge(elementEvents$, appended$).pipe(map(() => bufferedEnd(videoBuffer.buffered, currentTime()) - currentTime()));
  const startSamples = pageLoadSamples();
  const ladder = video.map((f) => ({ bitrate: f.bitrate, quality: f.quality ?? '', segmentBytes: f.segmentBytes }));
  const { decisions$, estimate$ } = adaptiveDecisions({
    ladder,
    segmentSeconds: video[0]?.segmentSeconds ?? 2,
    transfers$,
    buffer$,
    preference$: preference$.pipe(map((q) => preferenceFor(video, q))),
    progress$,
    seeks$: seeks$.pipe(map(() => segmentIndexAt(video[0] as AdaptiveFormat, el.currentTime))),
    startSamples,
    aheadRung$,
    otherTracksBps: family.audio.bitrate,
  });
  let decision: QualityDecision = { index: 0, reason: 'startup' };
  const decided$ = new Subject<void>();
  const replace$ = new Subject<number>();
  subscriptions.add(
    decisions$.subscribe((d) => {
      decision = d;
      if (d.replaceFromS !== undefined) replace$.next(d.replaceFromS);
      const rung = video[d.index];
      events$.next({ type: 'decision', decision: d, quality: rung?.quality ?? '', bitrate: rung?.bitrate ?? 0, mimeType: rung?.mimeType ?? '' });
      decided$.next();
    }),
  );
  subscriptions.add(estimate$.subscribe((bps) => events$.next({ type: 'estimate', bps })));
  const appendAsItComes = outpacedByLink(startSamples, transfers$, family.audio, subscriptions);

  const rungOf = (format: AdaptiveFormat) => video.indexOf(format);
  const onVideoEvent = (e: TrackEvent) => {
    if (e.type === 'segment') {
      appended$.next();
      buffered.appended(e.index, rungOf(e.format));
      aheadRung$.next(buffered.lowestAhead(e.format, currentTime()));
    }
    if (e.type === 'segment' || e.type === 'abandoned') {
      transfers$.next({ ...e.transfer, segmentIndex: e.index, ...(e.type === 'abandoned' && { failed: true }) });
    }
  };
  const wake$ = merge(elementEvents$, decided$, online$.pipe(filter(Boolean)));
  const restart$ = seeks$;
  const onEnd = endOnceBoth(source, [videoBuffer, audioBuffer]);
  const countBytes = byteCounter(
    video,
    family.audio,
    () => decision.index,
    (e) => events$.next(e),
  );
  const onError = (e: unknown) => fail('fmt.decode', e instanceof Error ? e.message : String(e));
  const common = { wake$, restart$, online$ };
  const picked$ = pickedRemovals(preference$, videoQueue, currentTime, video[0]?.segmentSeconds ?? 2);
  // Both tracks fetch through one turnstile: each transfer has the link to itself, so its sample measures the link.
  const turn = oneAtATime();
  const fetch = (url: string) => turn(fetchSegment(url, () => Date.now()));
  // The audio loader starts first: its first segment is small, and playback waits for both tracks, so the video's
  // first segment, appended as it arrives, is what the start waits for.
  subscriptions.add(
    trackLoader({
      ...common,
      ports: { currentTime, bufferedEnd: (t) => bufferedEnd(audioBuffer.buffered, t), fetch, append: audioQueue.append },
      formatFor: () => family.audio,
    }).subscribe({ next: (e) => (countBytes('audio')(e), onEnd('audio')(e)), error: onError }),
  );
  subscriptions.add(
    trackLoader({
      ...common,
      ports: {
        currentTime,
        bufferedEnd: (t) => bufferedEnd(videoBuffer.buffered, t),
        fetch,
        append: videoQueue.append,
        reset: videoQueue.reset,
        appendAsItComes,
      },
      formatFor: () => video[decision.index] ?? (video[0] as AdaptiveFormat),
      restart$: merge(restart$, picked$),
      // A decision that replaces fetches the video again from its kept seconds past the playhead, over the buffer.
      replace$: replace$.pipe(map((keepS) => currentTime() + keepS)),
      abandon: (p) => {
        progress$.next({
          rungIndex: rungOf(p.format),
          segmentIndex: p.index,
          requestMs: p.requestMs,
          firstByteMs: p.firstByteMs,
          bytesLoaded: p.loaded,
          bytesTotal: p.format.segmentBytes[p.index] ?? 0,
        });
        return decision.reason === 'abandon' && decision.index < rungOf(p.format);
      },
    }).subscribe({ next: (e) => (onVideoEvent(e), countBytes('video')(e), onEnd('video')(e)), error: onError }),
  );
}
