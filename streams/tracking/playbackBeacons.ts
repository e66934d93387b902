import {
  asyncScheduler,
  defer,
  distinctUntilChanged,
  EMPTY,
  interval,
  map,
  merge,
  mergeMap,
  type Observable,
  scan,
  type SchedulerLike,
  share,
  switchMap,
} from 'rxjs';
import type { PlaybackTracking } from '../config/playerConfig';
import type { LoggedPlayerState } from '../logging/playerEvents';
import { PING_MAX_SEGMENTS, WATCHTIME_PING_INTERVAL_MS } from '../timing';
import { pingStateOf, type PingState } from './pingState';
import { numberText } from '../shared/numberText';

/** One video load as the beacons see it: its tracking URLs (absent: no pings), its length, and its playback nonce. */
export interface TrackedVideo {
  videoId: string;
  tracking?: PlaybackTracking;
  /** The video's length in seconds, when known. */
  lengthSec?: number;
  /** The client playback nonce (`cpn`) of this load: new for each load, so two loads of one video are two playbacks. */
  cpn: string;
}

/** The player's state and media time: one at each state change and at each time update. */
export interface PlaybackSample {
  state: LoggedPlayerState;
  mediaTimeSec: number;
}

export interface PlaybackBeaconSources {
  /** One emission per video load (the player response that started it). */
  video$: Observable<TrackedVideo>;
  playback$: Observable<PlaybackSample>;
  /** Seeks (from the last time played to the target): a seek while playing ends one played segment and starts another. */
  seek$?: Observable<{ fromSec: number; toSec: number }>;
  /** The page is being hidden or left: the last ping of the playback leaves now. */
  pageHide$?: Observable<unknown>;
}

export interface PlaybackBeaconOptions {
  /** How often a watchtime ping leaves while playing. */
  intervalMs?: number;
  /** A ping leaves early when this many played segments wait. */
  maxSegments?: number;
  scheduler?: SchedulerLike;
}

/** The parameters of one ping, as they go on the wire (appended to the tracking URL, which names docid and ei). */
export interface PingParams {
  cpn: string;
  /** 0 for the playback ping, then 1, 2, … for the watchtime pings of the same load. */
  seq: number;
  /** Current media time (s). */
  cmt: number;
  /** Seconds since the video was loaded. */
  rt: number;
  len?: number;
  /** Watchtime pings only: the state when it left, and the segments played since the previous ping. */
  state?: PingState;
  st?: number[];
  et?: number[];
  /** The last ping of the playback (page hidden, another video loaded). */
  final?: boolean;
}

export interface Beacon {
  kind: 'playback' | 'watchtime';
  /** Root-relative URL to GET. */
  url: string;
  params: PingParams;
}

/** Seconds on the wire: three decimals at most. */
const sec = (n: number): number => Math.round((Number.isFinite(n) && n > 0 ? n : 0) * 1000) / 1000;

/** A tracking URL is used only when it is root-relative (never another origin: `//host`, `https:`, `/\host`). */
const rootRelative = (url: unknown): url is string => typeof url === 'string' && /^\/(?![/\\])/.test(url) && url.length <= 2_000;

/** `base` with the ping's parameters appended (lists comma-joined, `final=1` only on the last ping). */
export function pingUrl(base: string, params: PingParams): string {
  const query = new URLSearchParams();
  query.set('cpn', params.cpn);
  query.set('seq', numberText(params.seq));
  query.set('cmt', numberText(params.cmt));
  query.set('rt', numberText(params.rt));
  if (params.len !== undefined) query.set('len', numberText(params.len));
  if (params.state !== undefined) query.set('state', params.state);
  if (params.st !== undefined) query.set('st', params.st.map(numberText).join(','));
  if (params.et !== undefined) query.set('et', params.et.map(numberText).join(','));
  if (params.final) query.set('final', '1');
  // Commas stay readable: URLSearchParams would write them %2C, which the server reads the same.
  return `${base}${base.includes('?') ? '&' : '?'}${query.toString().replace(/%2C/g, ',')}`;
}

type Input =
  | { type: 'video'; video: TrackedVideo }
  | { type: 'sample'; sample: PlaybackSample }
  | { type: 'seek'; fromSec: number; toSec: number }
  | { type: 'tick' }
  | { type: 'hide' };

interface Model {
  /** The loaded video, when it has usable tracking URLs. */
  video?: TrackedVideo & { tracking: PlaybackTracking; loadedAtMs: number };
  started: boolean;
  /** The seq of the next watchtime ping. */
  nextSeq: number;
  state: LoggedPlayerState;
  mediaTimeSec: number;
  /** Start of the segment being played (while playing). */
  open?: number;
  /** Played segments not reported yet. */
  segments: [number, number][];
}

const PLAYING: LoggedPlayerState = 1;
const EMPTY_MODEL: Model = { started: false, nextSeq: 1, state: -1, mediaTimeSec: 0, segments: [] };

/** Closes the open segment at `endSec` (a segment of no length is not kept) and opens the next one at `reopenAt`. */
function cut(m: Model, endSec: number, reopenAt?: number): Model {
  if (m.open === undefined) return reopenAt === undefined ? m : { ...m, open: reopenAt };
  const end = Math.max(m.open, endSec);
  const segments = end > m.open ? [...m.segments, [m.open, end] as [number, number]] : m.segments;
  return { ...m, segments, open: reopenAt };
}

/** The watchtime ping of what waits, if anything was played since the last one (or `always`, once playback started). */
function watchtime(m: Model, nowMs: number, final: boolean, always = false): { model: Model; out: Beacon[] } {
  const { video } = m;
  if (!video || (m.segments.length === 0 && !(always && m.started))) return { model: m, out: [] };
  const params: PingParams = {
    cpn: video.cpn,
    seq: m.nextSeq,
    cmt: sec(m.mediaTimeSec),
    rt: sec((nowMs - video.loadedAtMs) / 1000),
    ...(video.lengthSec !== undefined ? { len: sec(video.lengthSec) } : {}),
    state: pingStateOf(m.state),
    st: m.segments.map(([s]) => sec(s)),
    et: m.segments.map(([, e]) => sec(e)),
    ...(final ? { final: true } : {}),
  };
  return {
    model: { ...m, segments: [], nextSeq: m.nextSeq + 1 },
    out: [{ kind: 'watchtime', url: pingUrl(video.tracking.videostatsWatchtimeUrl.baseUrl, params), params }],
  };
}

type Step = { model: Model; out: Beacon[] };
type Rule<T extends Input['type']> = (m: Model, input: Extract<Input, { type: T }>, nowMs: number, maxSegments: number) => Step;

/** A player state other than the last one: a segment opens or closes, the first play pings, a pause or end pings. */
function stateChanged(m: Model, state: LoggedPlayerState, t: number, nowMs: number, maxSegments: number): Step {
  let model: Model = { ...m, state, mediaTimeSec: t };
  const out: Beacon[] = [];
  if (state === PLAYING) {
    model = { ...model, open: model.open ?? t };
    if (model.video && !model.started) {
      const { video } = model;
      const params: PingParams = {
        cpn: video.cpn,
        seq: 0,
        cmt: sec(t),
        rt: sec((nowMs - video.loadedAtMs) / 1000),
        ...(video.lengthSec !== undefined ? { len: sec(video.lengthSec) } : {}),
      };
      out.push({ kind: 'playback', url: pingUrl(video.tracking.videostatsPlaybackUrl.baseUrl, params), params });
      model = { ...model, started: true };
    }
    return { model, out };
  }
  // Leaving playing: the segment ends where the player stopped (or where it last was, if the time went back).
  model = cut(model, t >= (m.open ?? 0) ? t : m.mediaTimeSec);
  if (state === 2 || state === 0 || model.segments.length >= maxSegments) {
    // The end always gets its ping, with the last segment when it comes straight from playing (the pause the
    // element fires at its end is not a player state), or only saying that it ended after a pause ping.
    const ping = watchtime(model, nowMs, false, state === 0);
    return { model: ping.model, out: [...out, ...ping.out] };
  }
  return { model, out };
}

/**
 * What each input does: one small function each, not one switch (a sample comes with every time update and the engine
 * compiles what runs often, whole).
 */
const RULES: { [T in Input['type']]: Rule<T> } = {
  video: (m, input, nowMs) => {
    // The previous playback ends here: its last ping, then a fresh playback (new nonce, seq from the start).
    const last = watchtime(cut(m, m.mediaTimeSec), nowMs, true);
    const { tracking } = input.video;
    const usable = !!tracking && rootRelative(tracking.videostatsPlaybackUrl?.baseUrl) && rootRelative(tracking.videostatsWatchtimeUrl?.baseUrl);
    const video = usable ? { ...input.video, tracking: tracking!, loadedAtMs: nowMs } : undefined;
    return { model: { ...EMPTY_MODEL, video, state: m.state, mediaTimeSec: 0 }, out: last.out };
  },
  sample: (m, input, nowMs, maxSegments) => {
    const { state, mediaTimeSec } = input.sample;
    const t = Number.isFinite(mediaTimeSec) ? Math.max(0, mediaTimeSec) : m.mediaTimeSec;
    // A time update: the open segment grows. A new state may close it and ping (`stateChanged`).
    return state === m.state ? { model: { ...m, mediaTimeSec: t }, out: [] } : stateChanged(m, state, t, nowMs, maxSegments);
  },
  seek: (m, input, nowMs, maxSegments) => {
    if (m.open === undefined) return { model: { ...m, mediaTimeSec: input.toSec }, out: [] };
    const model = { ...cut(m, input.fromSec, input.toSec), mediaTimeSec: input.toSec };
    return model.segments.length >= maxSegments ? watchtime(model, nowMs, false) : { model, out: [] };
  },
  // Only while playing: the open segment is cut here and goes out; playback goes on from the same point.
  tick: (m, _input, nowMs) => (m.state === PLAYING ? watchtime(cut(m, m.mediaTimeSec, m.mediaTimeSec), nowMs, false) : { model: m, out: [] }),
  // A hidden page may come back (the back-forward cache): the segment reopens, the next ping goes on counting.
  hide: (m, _input, nowMs) => watchtime(cut(m, m.mediaTimeSec, m.state === PLAYING ? m.mediaTimeSec : undefined), nowMs, true),
};

/** One step: the model after `input` at `nowMs`, and the beacons it sends. Pure. */
function step(m: Model, input: Input, nowMs: number, maxSegments: number): Step {
  return (RULES[input.type] as Rule<Input['type']>)(m, input, nowMs, maxSegments);
}

/**
 * The ping beacons of spec §7 for each video load, decided from the player's state and media time:
 *
 * - **playback** (seq 0) once per load, when it first plays: `cpn`, `cmt`, `len`, `rt` (s since the load);
 * - **watchtime** (seq 1, 2, …) with the segments played since the previous ping (`st`/`et`, comma lists of media
 *   time), the current media time `cmt`, the `state`, `len` and `rt`: every {@link WATCHTIME_PING_INTERVAL_MS} while
 *   playing, at pause and at the end, and a last one (`final=1`) when another video is loaded or the page is hidden.
 *   A seek while playing ends a segment and starts another; a watchtime ping is only sent when something was played
 *   since the previous one (but the end, whose ping may carry no segment), and early when {@link PING_MAX_SEGMENTS}
 *   segments wait.
 *
 * A video whose tracking URLs are missing or not root-relative gets no pings. Time comes from `scheduler` only.
 *
 * ```
 * video$:    v-------------------------
 * playback$: -5--1(t)...t...2---------     (1 at media time 0, paused at 25 s; intervalMs 10 s)
 * result:    ----p---w----w--w--------     (p playback; w watchtime 0–10, 10–20, 20–25 paused)
 * ```
 */
export function playbackBeacons(
  { video$, playback$, seek$ = EMPTY, pageHide$ = EMPTY }: PlaybackBeaconSources,
  { intervalMs = WATCHTIME_PING_INTERVAL_MS, maxSegments = PING_MAX_SEGMENTS, scheduler = asyncScheduler }: PlaybackBeaconOptions = {},
): Observable<Beacon> {
  return defer(() => {
    const samples$ = playback$.pipe(share());
    // The interval runs only while playing, and restarts at each return to playing.
    const ticks$ = samples$.pipe(
      map((s) => s.state === PLAYING),
      distinctUntilChanged(),
      switchMap((playing) => (playing ? interval(intervalMs, scheduler) : EMPTY)),
      map((): Input => ({ type: 'tick' })),
    );
    const inputs$: Observable<Input> = merge(
      video$.pipe(map((video): Input => ({ type: 'video', video }))),
      samples$.pipe(map((sample): Input => ({ type: 'sample', sample }))),
      seek$.pipe(map((s): Input => ({ type: 'seek', ...s }))),
      ticks$,
      pageHide$.pipe(map((): Input => ({ type: 'hide' }))),
    );
    return inputs$.pipe(
      scan((acc: { model: Model; out: Beacon[] }, input) => step(acc.model, input, scheduler.now(), maxSegments), { model: EMPTY_MODEL, out: [] }),
      mergeMap((acc) => acc.out),
    );
  });
}
