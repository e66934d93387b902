import { BehaviorSubject, fromEvent, type Observable, Subject, Subscription, take } from 'rxjs';
import type { QualityDecision } from '../../../../streams/abr/abrDecision';
import type { AdaptiveFormat, PlayerResponse } from '../../../../streams/config/playerConfig';
import { chooseFamily, type CodecFamily, codecFamilies, type Decoding } from '../../../../streams/mse/adaptiveLadder';
import { runStream } from './runStream';

/** What a stream tells the page: its quality decisions and bandwidth estimates, and a failure that ends it. */
export type AdaptiveEvent =
  | { type: 'decision'; decision: QualityDecision; quality: string; bitrate: number; mimeType: string }
  | { type: 'estimate'; bps: number }
  /** Bytes fetched so far, and in all: those plus what the rest of both tracks takes at the current decision. */
  | { type: 'bytes'; loaded: number; total: number }
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
        .subscribe(() => {
          // A type the buffer refuses after all (addSourceBuffer throws) fails the video, never the page.
          try {
            runStream({ el, source, family, response, options, preference$, events$, subscriptions, fail });
          } catch (e) {
            fail('fmt.noneavailable', e instanceof Error ? e.message : String(e));
          }
        }),
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
