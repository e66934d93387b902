import {
  asyncScheduler,
  BehaviorSubject,
  defer,
  distinctUntilChanged,
  filter,
  fromEvent,
  map,
  type Observable,
  of,
  ReplaySubject,
  type SchedulerLike,
  shareReplay,
  Subject,
  Subscription,
} from 'rxjs';
import type { PlayerStateValue } from '../../../streams/player/playerState';
import { buildEmbedUrl, normalizeHost } from './buildEmbedUrl';
import { defaultHost } from './defaultHost';
import { extrapolateCurrentTime } from './extrapolateCurrentTime';
import { isTrustedMessage } from './isTrustedMessage';
import { isValidVideoId } from './isValidVideoId';
import { listeningTicks } from './listeningTicks';
import { mergeDelivery } from './mergeDelivery';
import { parseEmbedMessage } from './parseEmbedMessage';
import type {
  ApiInfo,
  PlayerEvent,
  AnyPlayerListener,
  PlayerEventDataMap,
  PlayerEventName,
  PlayerInfo,
  PlayerInfoCache,
  PlayerListener,
  PlayerOptions,
  PlaylistOptions,
  SphericalProperties,
  VideoByIdOptions,
  VideoByUrlOptions,
  VideoDataOf,
  VideoQuality,
} from './types';
import { toVideoQuality } from './types';

/** Widget ids are unique per page: every player routes the embed's replies by its own. */
let lastWidgetId = 0;

/** The public API's default size. */
const DEFAULT_WIDTH = 640;
const DEFAULT_HEIGHT = 390;

/** Commands that load or cue: the host wipes its cache when it sends one (host-protocol §5). */
const LOADING_COMMANDS = new Set(['loadVideoById', 'cueVideoById', 'loadVideoByUrl', 'cueVideoByUrl', 'loadPlaylist', 'cuePlaylist']);
/** Subscription commands are part of the protocol itself, not of `apiInterface`. */
const PROTOCOL_COMMANDS = new Set(['addEventListener', 'removeEventListener']);

interface QueuedCommand {
  func: string;
  args: unknown[];
}

interface DispatchedEvent {
  name: string;
  data: unknown;
}

/**
 * A player on the host page, driving one embed iframe through the host protocol (`shared/design/host-protocol.md`).
 *
 * Drop-in for the public `YT.Player`: `new Player('player', { videoId, width, height, playerVars, events })` replaces
 * the element (or attaches to it when it is already an embed iframe), says `listening` every
 * `HOST_LISTENING_INTERVAL_MS` (250 ms) until the embed answers, queues every command until then, and answers getters
 * from the cache the embed's deliveries keep filled. Unlike the public API every method exists from the start (calls
 * made before the embed is ready are queued, getters answer as an unstarted player until the embed delivered), and
 * the state, the info and the events are also observables: {@link Player.state$}, {@link Player.info$}, {@link Player.events$}.
 *
 * Only messages from the iframe's own window and the embed origin, carrying this player's id, are read.
 * {@link Player.destroy} removes the iframe, every listener and every timer.
 */
export class Player {
  /** The widget id: sent with every message and echoed by the embed. */
  readonly id: number;
  /** The merged player info, as the embed delivered it (a new object on every change). Completes on destroy. */
  readonly info$: Observable<PlayerInfoCache>;
  /** The player state (-1, 0, 1, 2, 3, 5), hot: a new subscriber gets the latest at once. Completes on destroy. */
  readonly state$: Observable<PlayerStateValue>;
  /** The modules and their options (`apiInfoDelivery`: captions `tracklist`, `track`), hot with the latest. Completes on destroy. */
  readonly apiInfo$: Observable<ApiInfo>;
  /** Emits the player once the embed is ready (`onReady`), also to subscribers that come later. Completes on destroy. */
  readonly ready$: Observable<Player>;

  private readonly iframe: HTMLIFrameElement;
  /** The element the iframe replaced, put back on destroy. */
  private readonly placeholder: HTMLElement | undefined;
  private readonly embedOrigin: string;
  private readonly scheduler: SchedulerLike;
  private readonly options: PlayerOptions<Player>;
  private readonly cache: BehaviorSubject<PlayerInfoCache>;
  private readonly dispatched = new Subject<DispatchedEvent>();
  private readonly readiness = new ReplaySubject<Player>(1);
  private readonly starts = new Subject<void>();
  private readonly answers = new Subject<void>();
  private readonly subscription = new Subscription();
  private readonly listeners = new Map<string, Set<AnyPlayerListener<Player>>>();
  /** Event names the embed is asked to forward (`addEventListener` commands). */
  private readonly remoteEvents = new Set<string>();
  private queue: QueuedCommand[] = [];
  private apiInterface: string[] | undefined;
  private readonly apiInfoState = new BehaviorSubject<ApiInfo>({});
  private connected = false;
  private destroyed = false;

  constructor(elementOrId: string | HTMLElement, options: PlayerOptions<Player> = {}) {
    this.options = options;
    this.scheduler = options.scheduler ?? asyncScheduler;
    this.id = ++lastWidgetId;
    this.cache = new BehaviorSubject<PlayerInfoCache>({});
    this.info$ = this.cache.asObservable();
    this.state$ = this.cache.pipe(
      map((info) => info.playerState),
      filter((state): state is PlayerStateValue => typeof state === 'number'),
      distinctUntilChanged(),
      shareReplay({ bufferSize: 1, refCount: false }),
    );

    this.ready$ = this.readiness.asObservable();
    this.apiInfo$ = this.apiInfoState.asObservable();

    const element = typeof elementOrId === 'string' ? document.getElementById(elementOrId) : elementOrId;
    if (!element) throw new Error(`VidFrame Player: there is no element with id "${String(elementOrId)}" to replace.`);
    const doc = element.ownerDocument;
    const win = doc.defaultView;
    if (!win) throw new Error('VidFrame Player: the element is not in a document with a window.');

    const pageOrigin = win.location.origin;
    const configured = options.host === undefined ? undefined : normalizeHost(options.host);
    if (options.host !== undefined && !configured) {
      console.warn(`VidFrame Player: host "${String(options.host)}" is not an http(s) origin; using the default.`);
    }
    const host = configured ?? normalizeHost(defaultHost(win)) ?? pageOrigin;

    if (element instanceof win.HTMLIFrameElement) {
      // Attach to an embed the page already framed: its URL says where it comes from.
      this.iframe = element;
      this.placeholder = undefined;
      const src = new URL(element.src || 'about:blank', doc.baseURI);
      if (src.protocol === 'http:' || src.protocol === 'https:') {
        if (src.searchParams.get('enablejsapi') !== '1') {
          // Without enablejsapi=1 the embed never answers: turn it on (this reloads the frame once).
          src.searchParams.set('enablejsapi', '1');
          if (!src.searchParams.has('origin')) src.searchParams.set('origin', pageOrigin);
          src.searchParams.set('widgetid', String(this.id));
          element.src = src.toString();
        }
        this.embedOrigin = src.origin;
      } else {
        this.embedOrigin = host;
      }
    } else {
      if (options.videoId !== undefined && !isValidVideoId(options.videoId)) {
        console.warn(`VidFrame Player: "${String(options.videoId)}" is not a video id (11 characters of A-Z a-z 0-9 _ -).`);
      }
      this.iframe = doc.createElement('iframe');
      if (element.id) this.iframe.id = element.id;
      this.iframe.width = String(options.width ?? DEFAULT_WIDTH);
      this.iframe.height = String(options.height ?? DEFAULT_HEIGHT);
      this.iframe.title = options.title ?? 'VidFrame video player';
      this.iframe.setAttribute('frameborder', '0');
      // A host that enables geolocation (`playerVars.geolocation`, issue 13) also lets the frame ask the viewer for it.
      const geolocation = ['1', 'true', 1, true].includes(options.playerVars?.geolocation as never);
      this.iframe.setAttribute('allow', `autoplay; clipboard-write; encrypted-media; fullscreen; picture-in-picture${geolocation ? '; geolocation' : ''}`);
      this.iframe.setAttribute('referrerpolicy', 'strict-origin-when-cross-origin');
      this.iframe.src = buildEmbedUrl({ host, videoId: options.videoId, playerVars: options.playerVars, pageOrigin, widgetId: this.id });
      this.placeholder = element;
      this.embedOrigin = host;
      element.replaceWith(this.iframe);
    }

    for (const [name, listener] of Object.entries(options.events ?? {})) {
      if (listener) this.addEventListener(name, listener);
    }

    this.subscription.add(fromEvent<MessageEvent>(win, 'message').subscribe((event) => this.receive(event)));
    this.subscription.add(listeningTicks(this.starts, this.answers, { scheduler: this.scheduler }).subscribe(() => this.post({ event: 'listening' })));
    this.subscription.add(fromEvent(this.iframe, 'load').subscribe(() => this.starts.next()));
    this.starts.next();
  }

  // ── Events ────────────────────────────────────────────────────────────────────────────────────────────────────

  /**
   * Calls `listener({ target: player, data })` on every `name` event. A string names a global function, looked up
   * each time the event fires. The embed is asked to forward the event the first time anyone listens to it.
   */
  addEventListener<K extends PlayerEventName>(name: K, listener: PlayerListener<PlayerEventDataMap[K], Player>): void;
  addEventListener(name: string, listener: AnyPlayerListener<Player>): void;
  addEventListener(name: string, listener: AnyPlayerListener<Player>): void {
    if (this.destroyed || typeof name !== 'string' || (typeof listener !== 'function' && typeof listener !== 'string')) return;
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(listener);
    this.subscribeRemote(name);
  }

  /** Stops calling `listener` for `name` (the embed keeps forwarding: other listeners or observers may need it). */
  removeEventListener(name: string, listener: AnyPlayerListener<Player>): void {
    this.listeners.get(name)?.delete(listener);
  }

  /**
   * The data of every `name` event, as an observable: hot (it sees what happens after it subscribes), and it
   * completes when the player is destroyed. Subscribing asks the embed to forward the event.
   */
  events$<K extends PlayerEventName>(name: K): Observable<PlayerEventDataMap[K]>;
  events$(name: string): Observable<unknown>;
  events$(name: string): Observable<unknown> {
    return defer(() => {
      if (this.destroyed) return of<never>();
      this.subscribeRemote(name);
      return this.dispatched.pipe(
        filter((event) => event.name === name),
        map((event) => event.data),
      );
    });
  }

  // ── Commands (host-protocol §4) ─────────────────────────────────────────────────────────────────────────────

  playVideo(): void {
    this.command('playVideo');
  }
  pauseVideo(): void {
    this.command('pauseVideo');
  }
  stopVideo(): void {
    this.command('stopVideo');
  }
  clearVideo(): void {
    this.command('clearVideo');
  }
  seekTo(seconds: number, allowSeekAhead = true): void {
    this.command('seekTo', [seconds, allowSeekAhead]);
  }
  mute(): void {
    this.command('mute');
  }
  unMute(): void {
    this.command('unMute');
  }
  /** 0 to 100. */
  setVolume(volume: number): void {
    this.command('setVolume', [volume]);
  }
  setPlaybackRate(rate: number): void {
    this.command('setPlaybackRate', [rate]);
  }
  /** A {@link VideoQuality}, or the embed's own `auto`. */
  setPlaybackQuality(quality: VideoQuality | 'auto' | (string & {})): void {
    this.command('setPlaybackQuality', [quality]);
  }
  /** The view of a 360° video (`fov`, `yaw`, `pitch`, `roll`, `enableOrientationSensor`); a flat video ignores it. */
  setSphericalProperties(properties: SphericalProperties): void {
    this.command('setSphericalProperties', [properties]);
  }
  nextVideo(): void {
    this.command('nextVideo');
  }
  previousVideo(): void {
    this.command('previousVideo');
  }
  /** Zero-based. */
  playVideoAt(index: number): void {
    this.command('playVideoAt', [index]);
  }
  setLoop(loop: boolean): void {
    this.command('setLoop', [loop]);
  }
  setShuffle(shuffle: boolean): void {
    this.command('setShuffle', [shuffle]);
  }
  /** e.g. `setOption('captions', 'track', { languageCode: 'en' })`; `{}` turns captions off. */
  setOption(module: string, option: string, value: unknown): void {
    this.command('setOption', [module, option, value]);
  }
  loadModule(module: string): void {
    this.command('loadModule', [module]);
  }
  unloadModule(module: string): void {
    this.command('unloadModule', [module]);
  }

  loadVideoById(videoId: string, startSeconds?: number, suggestedQuality?: string): void;
  loadVideoById(options: VideoByIdOptions): void;
  loadVideoById(...args: unknown[]): void {
    this.command('loadVideoById', args);
  }
  cueVideoById(videoId: string, startSeconds?: number, suggestedQuality?: string): void;
  cueVideoById(options: VideoByIdOptions): void;
  cueVideoById(...args: unknown[]): void {
    this.command('cueVideoById', args);
  }
  loadVideoByUrl(mediaContentUrl: string, startSeconds?: number, suggestedQuality?: string): void;
  loadVideoByUrl(options: VideoByUrlOptions): void;
  loadVideoByUrl(...args: unknown[]): void {
    this.command('loadVideoByUrl', args);
  }
  cueVideoByUrl(mediaContentUrl: string, startSeconds?: number, suggestedQuality?: string): void;
  cueVideoByUrl(options: VideoByUrlOptions): void;
  cueVideoByUrl(...args: unknown[]): void {
    this.command('cueVideoByUrl', args);
  }
  loadPlaylist(playlist: string | string[], index?: number, startSeconds?: number, suggestedQuality?: string): void;
  loadPlaylist(options: PlaylistOptions): void;
  loadPlaylist(...args: unknown[]): void {
    this.command('loadPlaylist', args);
  }
  cuePlaylist(playlist: string | string[], index?: number, startSeconds?: number, suggestedQuality?: string): void;
  cuePlaylist(options: PlaylistOptions): void;
  cuePlaylist(...args: unknown[]): void {
    this.command('cuePlaylist', args);
  }

  /** Resizes the iframe on the page and tells the embed its new size. */
  setSize(width: number, height: number): void {
    if (this.destroyed) return;
    this.iframe.width = String(width);
    this.iframe.height = String(height);
    this.command('setSize', [width, height]);
  }

  // ── Getters: read from the cache (host-protocol §5) ──────────────────────────────────────────────────────────
  // Typed as the IFrame API documents them (and as `@types/youtube` declares them). Before the embed delivered a
  // value (or right after a load or cue command wiped the cache) they answer what a fresh, unstarted player answers:
  // state -1, times and byte counts 0, volume 100, not muted, rate 1, quality `default`, no playlist. `info$` (the
  // raw cache, every key optional) tells "not delivered yet" apart.

  getPlayerState(): PlayerStateValue {
    return this.read<PlayerStateValue>('playerState') ?? -1;
  }
  /** The current time; while playing, extrapolated from the last delivery by up to `HOST_TIME_EXTRAPOLATION_MAX_MS` (1 s). */
  getCurrentTime(): number {
    return extrapolateCurrentTime(this.cache.value, this.scheduler.now()) ?? 0;
  }
  /** 0 until the video's metadata is known (as the IFrame API documents). */
  getDuration(): number {
    return this.read<number>('duration') ?? 0;
  }
  getVideoLoadedFraction(): number {
    return this.read<number>('videoLoadedFraction') ?? 0;
  }
  getVideoBytesLoaded(): number {
    return this.read<number>('videoBytesLoaded') ?? 0;
  }
  getVideoBytesTotal(): number {
    return this.read<number>('videoBytesTotal') ?? 0;
  }
  getVideoStartBytes(): number {
    return this.read<number>('videoStartBytes') ?? 0;
  }
  /** 0 to 100. */
  getVolume(): number {
    return this.read<number>('volume') ?? 100;
  }
  isMuted(): boolean {
    return this.read<boolean>('muted') ?? false;
  }
  getPlaybackRate(): number {
    return this.read<number>('playbackRate') ?? 1;
  }
  getAvailablePlaybackRates(): number[] {
    const rates = this.read<number[]>('availablePlaybackRates');
    return Array.isArray(rates) ? [...rates] : [1];
  }
  /** The quality of what plays; `default` when the player chooses (the embed's `auto`) or none is known yet. */
  getPlaybackQuality(): VideoQuality {
    return toVideoQuality(this.read('playbackQuality')) ?? 'default';
  }
  /** The qualities the video has, highest first, then `default` (the embed's `auto`: the player chooses). */
  getAvailableQualityLevels(): VideoQuality[] {
    const levels = this.read<unknown[]>('availableQualityLevels');
    if (!Array.isArray(levels)) return [];
    return [...new Set(levels.map(toVideoQuality).filter((q): q is VideoQuality => q !== undefined))];
  }
  getVideoUrl(): string {
    return this.read<string>('videoUrl') ?? '';
  }
  /** `video_id`, `title` and `author` (empty strings until delivered), plus what the embed adds (`isPlayable`, …). */
  getVideoData(): VideoDataOf {
    const data = this.read<PlayerInfo['videoData']>('videoData');
    return { video_id: '', title: '', author: '', ...data };
  }
  /** The video ids of the playlist in play order; `[]` when no playlist plays. */
  getPlaylist(): string[] {
    const playlist = this.read<string[] | null>('playlist');
    return Array.isArray(playlist) ? [...playlist] : [];
  }
  /** Zero-based; -1 when no playlist plays. */
  getPlaylistIndex(): number {
    return this.read<number>('playlistIndex') ?? -1;
  }
  getPlaylistId(): string | null | undefined {
    return this.read('playlistId');
  }
  getMediaReferenceTime(): number | undefined {
    return this.read('mediaReferenceTime');
  }
  getProgressState(): PlayerInfo['progressState'] | undefined {
    return this.read('progressState');
  }
  getVideoContentRect(): PlayerInfo['videoContentRect'] | undefined {
    return this.read('videoContentRect');
  }
  /** `{}` for a flat video (every video of the catalogue): `fov`, `yaw`, `pitch`, `roll` only exist for 360° ones. */
  getSphericalProperties(): SphericalProperties {
    const properties = this.read<SphericalProperties>('sphericalProperties');
    return properties && typeof properties === 'object' ? { ...properties } : {};
  }
  getCaptionTracks(): PlayerInfo['captionTracks'] | undefined {
    return this.read('captionTracks');
  }
  getSize(): PlayerInfo['size'] | undefined {
    return this.read('size');
  }
  /**
   * The embed's own embed code once delivered; before that (or right after a load) one built from the iframe, so a
   * page always has something to copy.
   */
  getVideoEmbedCode(): string {
    const delivered = this.read<string>('videoEmbedCode');
    if (typeof delivered === 'string' && delivered !== '') return delivered;
    const id = this.cache.value.videoData?.video_id ?? this.options.videoId;
    const url = `${this.embedOrigin}/embed/${isValidVideoId(id) ? id : ''}`;
    const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
    return `<iframe width="${escape(this.iframe.width || String(DEFAULT_WIDTH))}" height="${escape(this.iframe.height || String(DEFAULT_HEIGHT))}" src="${escape(url)}" title="${escape(this.iframe.title)}" frameborder="0" allow="autoplay; clipboard-write; encrypted-media; fullscreen; picture-in-picture"></iframe>`;
  }
  /** `getOptions()`: the modules with options (`['captions']`); `getOptions('captions')`: that module's options. */
  getOptions(module?: string): string[] {
    const apiInfo = this.apiInfoState.value;
    if (module === undefined) return Array.isArray(apiInfo.namespaces) ? [...apiInfo.namespaces] : [];
    const ns = apiInfo[module] as { options?: unknown } | undefined;
    return ns && Array.isArray(ns.options) ? [...(ns.options as string[])] : [];
  }
  getOption(module: string, option: string): unknown {
    const ns = this.apiInfoState.value[module];
    return ns && typeof ns === 'object' ? (ns as Record<string, unknown>)[option] : undefined;
  }
  /** The iframe element (the one the player created, or the one it attached to). */
  getIframe(): HTMLIFrameElement {
    return this.iframe;
  }
  /** The function names the embed exposes to this page (`apiInterface` of `initialDelivery`), or `[]` before. */
  getApiInterface(): string[] {
    return this.apiInterface ? [...this.apiInterface] : [];
  }

  /**
   * Removes the iframe (putting back the element it replaced), stops the `listening` loop, drops queued commands and
   * every listener, and completes {@link Player.info$}, {@link Player.state$} and every {@link Player.events$}.
   * Calling it again does nothing.
   */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.subscription.unsubscribe();
    this.queue = [];
    this.listeners.clear();
    this.remoteEvents.clear();
    if (this.placeholder) this.iframe.replaceWith(this.placeholder);
    else this.iframe.remove();
    this.dispatched.complete();
    this.readiness.complete();
    this.apiInfoState.complete();
    this.starts.complete();
    this.answers.complete();
    this.cache.complete();
  }

  // ── Wire ────────────────────────────────────────────────────────────────────────────────────────────────────

  private read<T>(key: string): T | undefined {
    return this.cache.value[key] as T | undefined;
  }

  private subscribeRemote(name: string): void {
    // onReady only ever comes from the handshake (host-protocol §4).
    if (name === 'onReady' || this.remoteEvents.has(name)) return;
    this.remoteEvents.add(name);
    if (this.connected) this.post({ event: 'command', func: 'addEventListener', args: [name] });
  }

  /** Sends a command now if the embed has answered, otherwise queues it (in order) until it does. */
  private command(func: string, args: unknown[] = []): void {
    if (this.destroyed) return;
    if (!this.connected) {
      this.queue.push({ func, args });
      return;
    }
    this.send({ func, args });
  }

  private send({ func, args }: QueuedCommand): void {
    // A function missing from apiInterface does not exist for this page (host-protocol §5).
    if (this.apiInterface && !PROTOCOL_COMMANDS.has(func) && !this.apiInterface.includes(func)) return;
    if (LOADING_COMMANDS.has(func)) this.cache.next({});
    this.post({ event: 'command', func, args });
  }

  private post(message: Record<string, unknown>): void {
    const target = this.iframe.contentWindow;
    if (!target) return;
    target.postMessage(JSON.stringify({ ...message, id: this.id, channel: 'widget' }), this.embedOrigin);
  }

  /** The embed answered: ask for every event listened to so far, then send the queued commands, in order. */
  private connect(): void {
    if (this.connected) return;
    this.connected = true;
    for (const name of this.remoteEvents) this.post({ event: 'command', func: 'addEventListener', args: [name] });
    const queued = this.queue;
    this.queue = [];
    for (const command of queued) this.send(command);
  }

  private receive(event: MessageEvent): void {
    if (this.destroyed) return;
    if (!isTrustedMessage(event, { origin: this.embedOrigin, source: this.iframe.contentWindow })) return;
    const message = parseEmbedMessage(event.data);
    if (!message || String(message.id) !== String(this.id)) return;
    this.answers.next();
    switch (message.event) {
      case 'readyToListen':
        // The embed is ready before our next tick: answer at once.
        this.post({ event: 'listening' });
        return;
      case 'initialDelivery': {
        const { apiInterface, ...snapshot } = (message.info && typeof message.info === 'object' ? message.info : {}) as Record<string, unknown>;
        if (Array.isArray(apiInterface)) this.apiInterface = apiInterface.filter((f): f is string => typeof f === 'string');
        // A new embed document (first handshake, or the iframe reloaded) knows none of our subscriptions yet.
        if (this.connected) for (const name of this.remoteEvents) this.post({ event: 'command', func: 'addEventListener', args: [name] });
        this.cache.next(mergeDelivery({}, snapshot));
        this.connect();
        return;
      }
      case 'infoDelivery':
        this.cache.next(mergeDelivery(this.cache.value, message.info));
        return;
      case 'apiInfoDelivery':
        if (message.info && typeof message.info === 'object' && !Array.isArray(message.info)) this.apiInfoState.next(message.info as ApiInfo);
        return;
      case 'alreadyInitialized':
        this.connect();
        return;
      case 'onReady':
        this.connect();
        this.readiness.next(this);
        this.dispatch('onReady', null);
        return;
      default:
        if (/^on[A-Z]/.test(message.event)) this.dispatch(message.event, message.info);
    }
  }

  private dispatch(name: string, data: unknown): void {
    const event: PlayerEvent<unknown, Player> = { target: this, data };
    for (const listener of [...(this.listeners.get(name) ?? [])]) {
      const fn = typeof listener === 'string' ? (globalThis as Record<string, unknown>)[listener] : listener;
      if (typeof fn !== 'function') continue;
      try {
        fn(event);
      } catch (error) {
        // One failing listener must not silence the others or the player.
        console.error(`VidFrame Player: a ${name} listener threw`, error);
      }
    }
    if (!this.destroyed) this.dispatched.next({ name, data });
  }
}
