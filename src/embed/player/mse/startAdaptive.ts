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
  Subscription,
  switchMap,
  take,
} from 'rxjs';
import type { QualityDecision, QualityPreference } from '../../../../streams/abr/abrDecision';
import { adaptiveDecisions } from '../../../../streams/abr/adaptiveDecisions';
import type { SegmentTransfer } from '../../../../streams/abr/bandwidthSample';
import type { AdaptiveFormat, PlayerResponse } from '../../../../streams/config/playerConfig';
import { capIndexFor, chooseFamily, type CodecFamily, codecFamilies, type Decoding } from '../../../../streams/mse/adaptiveLadder';
import { segmentIndexAt } from '../../../../streams/mse/segments';
import { type TrackEvent, trackLoader } from '../../../../streams/mse/trackLoader';
import { networkStatus } from '../../../../streams/network/networkStatus';
import { networkEvents$ } from '../../../../streams/sources/networkEvents';
import { STREAM_BACK_BUFFER_SECONDS } from '../../../../streams/timing';
import { generate204Probe } from '../../services/generate204Probe';
import { appendQueue } from './appendQueue';
import { fetchSegment } from './fetchSegment';

/** What a stream tells the page: its quality decisions and bandwidth estimates, and a failure that ends it. */
export type AdaptiveEvent =
  | { type: 'decision'; decision: QualityDecision; quality: string; mimeType: string }
  | { type: 'estimate'; bps: number }
  | { type: 'failed'; internal: 'fmt.noneavailable' | 'fmt.decode' | 'html5.missingapi'; message: string };

export interface AdaptiveSession {
  /** `auto`, or a quality name: that rendition (or the highest below it) is played whatever the network does. */
  setPreference(quality: string): void;
  readonly events$: Observable<AdaptiveEvent>;
  stop(): void;
}

export interface AdaptiveOptions {
  /** The quality preference to start with (see {@link AdaptiveSession.setPreference}). */
  preference: string;
  /** Where playback starts: the first segments fetched are those around it. */
  startSeconds: number;
}

type MediaSourceClass = typeof MediaSource;

/** The browser's Media Source class: `ManagedMediaSource` where it has one (Safari, iOS), else `MediaSource`. */
export function mediaSourceClass(win: typeof globalThis = globalThis): MediaSourceClass | undefined {
  const w = win as typeof globalThis & { ManagedMediaSource?: MediaSourceClass };
  return w.ManagedMediaSource ?? w.MediaSource;
}

/** `MediaCapabilities.decodingInfo` for one format; `isTypeSupported` (smooth, not power-efficient) without it. */
async function decodingOf(format: AdaptiveFormat, ms: MediaSourceClass): Promise<Decoding> {
  const capabilities = typeof navigator !== 'undefined' ? navigator.mediaCapabilities : undefined;
  if (capabilities?.decodingInfo) {
    try {
      const info =
        format.kind === 'video'
          ? { contentType: format.mimeType, width: format.width ?? 640, height: format.height ?? 360, bitrate: format.bitrate, framerate: 25 }
          : { contentType: format.mimeType, bitrate: format.bitrate, channels: '2', samplerate: 48_000 };
      const result = await capabilities.decodingInfo({
        type: 'media-source',
        ...(format.kind === 'video' ? { video: info } : { audio: info }),
      } as MediaDecodingConfiguration);
      return { supported: result.supported, smooth: result.smooth, powerEfficient: result.powerEfficient };
    } catch {
      // A type the browser cannot even parse: asked the old way below.
    }
  }
  return { supported: ms.isTypeSupported(format.mimeType), smooth: true, powerEfficient: false };
}

async function familyToPlay(formats: readonly AdaptiveFormat[], ms: MediaSourceClass): Promise<CodecFamily | undefined> {
  const families = codecFamilies(formats);
  const all = families.flatMap((f) => [...f.video, f.audio]);
  const answers = await Promise.all(all.map((f) => decodingOf(f, ms)));
  const byFormat = new Map(all.map((f, i) => [f, answers[i] ?? { supported: false, smooth: false, powerEfficient: false }]));
  return chooseFamily(families, (f) => byFormat.get(f) ?? { supported: false, smooth: false, powerEfficient: false });
}

/** Where the buffered range holding `t` ends (`t` itself when none holds it). */
function bufferedEnd(ranges: TimeRanges, t: number): number {
  for (let i = 0; i < ranges.length; i++) if (ranges.start(i) <= t + 0.1 && t < ranges.end(i)) return ranges.end(i);
  return t;
}

const preferenceFor = (video: readonly AdaptiveFormat[], quality: string): QualityPreference => {
  const index = capIndexFor(video, quality);
  return index === null ? 'auto' : { fixed: index };
};

/**
 * Plays a response's adaptive ladder in the element through Media Source Extensions: the codec family the browser
 * decodes best, one `SourceBuffer` for video and one for audio, each filled by its {@link trackLoader}, the video's
 * rendition chosen per segment by {@link adaptiveDecisions}. A seek into an unbuffered range restarts both loaders
 * there; a network that drops pauses the retries until it is back (the network-status stream). Ends the stream
 * (`endOfStream`) once both tracks have their last segment in. `stop` aborts every request and lets the element go.
 */
export function startAdaptive(el: HTMLVideoElement, response: PlayerResponse, options: AdaptiveOptions): AdaptiveSession {
  const events$ = new Subject<AdaptiveEvent>();
  const subscriptions = new Subscription();
  const preference$ = new BehaviorSubject<string>(options.preference);
  const MS = mediaSourceClass();
  const fail = (internal: 'fmt.noneavailable' | 'fmt.decode', message: string) => events$.next({ type: 'failed', internal, message });
  let stopped = false;

  const start = (family: CodecFamily) => {
    if (!MS || stopped) return;
    const source = new MS();
    // A ManagedMediaSource plays only in an element that does not offer remote playback.
    if (MS !== globalThis.MediaSource) el.disableRemotePlayback = true;
    const url = URL.createObjectURL(source);
    el.src = url;
    subscriptions.add(() => URL.revokeObjectURL(url));
    subscriptions.add(
      fromEvent(source, 'sourceopen')
        .pipe(take(1))
        .subscribe(() => stream(source, family)),
    );
  };

  const stream = (source: MediaSource, family: CodecFamily) => {
    const video = family.video;
    const lengthSeconds = (video[0]?.segmentBytes.length ?? 0) * (video[0]?.segmentSeconds ?? 0);
    const duration = Number(response.videoDetails?.lengthSeconds) || lengthSeconds;
    if (duration > 0) source.duration = duration;
    const videoBuffer = source.addSourceBuffer(video[0]?.mimeType ?? '');
    const audioBuffer = source.addSourceBuffer(family.audio.mimeType);
    let started = false;
    const currentTime = () => (started || el.readyState >= 1 ? ((started = true), el.currentTime) : options.startSeconds);
    const queueOptions = { currentTime, backBufferSeconds: STREAM_BACK_BUFFER_SECONDS };
    const videoQueue = appendQueue(videoBuffer, queueOptions);
    const audioQueue = appendQueue(audioBuffer, queueOptions);

    const online$ = networkStatus(networkEvents$(window), { readOnLine: () => navigator.onLine, probe: generate204Probe(window) }).pipe(
      map((s) => s === 'online'),
      distinctUntilChanged(),
      share({ connector: () => new BehaviorSubject<boolean>(navigator.onLine), resetOnRefCountZero: false }),
    );
    const elementEvents$ = merge(...['timeupdate', 'playing', 'waiting', 'seeking', 'progress'].map((type) => fromEvent(el, type))).pipe(share());
    const seeks$ = fromEvent(el, 'seeking').pipe(
      filter(() => bufferedEnd(el.buffered, el.currentTime) === el.currentTime),
      share(),
    );
    const transfers$ = new Subject<SegmentTransfer>();
    const progress$ = new Subject<{
      rungIndex: number;
      segmentIndex: number;
      requestMs: number;
      firstByteMs: number;
      bytesLoaded: number;
      bytesTotal: number;
    }>();
    const buffer$ = elementEvents$.pipe(map(() => bufferedEnd(videoBuffer.buffered, currentTime()) - currentTime()));
    const ladder = video.map((f) => ({ bitrate: f.bitrate, quality: f.quality ?? '', segmentBytes: f.segmentBytes }));
    const { decisions$, estimate$ } = adaptiveDecisions({
      ladder,
      segmentSeconds: video[0]?.segmentSeconds ?? 2,
      transfers$,
      buffer$,
      preference$: preference$.pipe(map((q) => preferenceFor(video, q))),
      progress$,
      seeks$: seeks$.pipe(map(() => segmentIndexAt(video[0] as AdaptiveFormat, el.currentTime))),
    });
    let decision: QualityDecision = { index: 0, reason: 'startup' };
    const decided$ = new Subject<void>();
    subscriptions.add(
      decisions$.subscribe((d) => {
        decision = d;
        events$.next({ type: 'decision', decision: d, quality: video[d.index]?.quality ?? '', mimeType: video[d.index]?.mimeType ?? '' });
        decided$.next();
      }),
    );
    subscriptions.add(estimate$.subscribe((bps) => events$.next({ type: 'estimate', bps })));

    const rungOf = (format: AdaptiveFormat) => video.indexOf(format);
    const onVideoEvent = (e: TrackEvent) => {
      if (e.type === 'segment' || e.type === 'abandoned') {
        transfers$.next({ ...e.transfer, segmentIndex: e.index, ...(e.type === 'abandoned' && { failed: true }) });
      }
    };
    const wake$ = merge(elementEvents$, decided$, online$.pipe(filter(Boolean)));
    const restart$ = seeks$;
    const ended = new Set<string>();
    const onEnd = (kind: string) => (e: TrackEvent) => {
      if (e.type !== 'end') return;
      ended.add(kind);
      if (ended.size === 2 && source.readyState === 'open' && !videoBuffer.updating && !audioBuffer.updating) source.endOfStream();
    };
    const onError = (e: unknown) => fail('fmt.decode', e instanceof Error ? e.message : String(e));
    const common = { wake$, restart$, online$ };
    // A quality the viewer or the host picks shows within a segment or two: the video buffered beyond the next
    // segment boundary is dropped and fetched again in the new rendition (the audio stays).
    const segmentSeconds = video[0]?.segmentSeconds ?? 2;
    const picked$ = preference$.pipe(
      skip(1),
      switchMap(() => videoQueue.removeFrom((Math.floor(currentTime() / segmentSeconds) + 2) * segmentSeconds)),
      share(),
    );
    const fetch = (url: string) => fetchSegment(url, () => Date.now());
    subscriptions.add(
      trackLoader({
        ...common,
        ports: { currentTime, bufferedEnd: (t) => bufferedEnd(videoBuffer.buffered, t), fetch, append: videoQueue.append },
        formatFor: () => video[decision.index] ?? (video[0] as AdaptiveFormat),
        restart$: merge(restart$, picked$),
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
      }).subscribe({ next: (e) => (onVideoEvent(e), onEnd('video')(e)), error: onError }),
    );
    subscriptions.add(
      trackLoader({
        ...common,
        ports: { currentTime, bufferedEnd: (t) => bufferedEnd(audioBuffer.buffered, t), fetch, append: audioQueue.append },
        formatFor: () => family.audio,
      }).subscribe({ next: onEnd('audio'), error: onError }),
    );
  };

  if (!MS) fail('fmt.noneavailable', 'This browser cannot stream (no Media Source Extensions).');
  else {
    familyToPlay(response.streamingData?.adaptiveFormats ?? [], MS).then(
      (family) => (family ? start(family) : fail('fmt.noneavailable', 'No rendition of this video can be decoded here.')),
      (e: unknown) => fail('fmt.noneavailable', String(e)),
    );
  }

  return {
    setPreference: (quality) => preference$.next(quality),
    events$: events$.asObservable(),
    stop: () => {
      stopped = true;
      subscriptions.unsubscribe();
    },
  };
}
