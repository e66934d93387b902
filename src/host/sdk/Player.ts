import {
  asyncScheduler,
  BehaviorSubject,
  defer,
  distinctUntilChanged,
  filter,
  map,
  type Observable,
  of,
  ReplaySubject,
  type SchedulerLike,
  shareReplay,
  Subject,
} from 'rxjs';
import type { PlayerStateValue } from '../../../streams/player/playerState';
import { createPlayerIframe, DEFAULT_HEIGHT, DEFAULT_WIDTH } from './createPlayerIframe';
import { extrapolateCurrentTime } from './extrapolateCurrentTime';
import { isValidVideoId } from './isValidVideoId';
import { mergeDelivery } from './mergeDelivery';
import { PlayerChannel } from './PlayerChannel';
import { PlayerCommands } from './PlayerCommands';
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
  SphericalProperties,
  VideoDataOf,
  VideoQuality,
} from './types';
import { toVideoQuality } from './types';

/** Widget ids are unique per page: every player routes the embed's replies by its own. */
let lastWidgetId = 0;

interface DispatchedEvent {
  name: string;
  data: unknown;
}

/**
 * A player on the host page, driving one embed iframe through the host protocol (`shared/design/host-protocol.md`).
 *
 * Drop-in for the public `YT.Player`: `new Player('player', { videoId, width, height, playerVars, events })` replaces
 * the element (or attaches to it when it is already an embed iframe), says `listening` every
 * `HOST_LISTENING_INTERVAL_MS` until the embed answers, queues every command until then ({@link PlayerChannel}), and
 * answers getters from the cache the embed's deliveries keep filled. Unlike the public API every method exists from
 * the start (calls made before the embed is ready are queued, getters answer as an unstarted player until the embed
 * delivered), and the state, the info and the events are also observables: {@link Player.state$}, {@link Player.info$},
 * {@link Player.events$}. The command methods are {@link PlayerCommands}'.
 *
 * Only messages from the iframe's own window and the embed origin, carrying this player's id, are read.
 * {@link Player.destroy} removes the iframe, every listener and every timer.
 */
export class Player extends PlayerCommands {
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
  private readonly channel: PlayerChannel;
  private readonly cache = new BehaviorSubject<PlayerInfoCache>({});
  private readonly apiInfoState = new BehaviorSubject<ApiInfo>({});
  private readonly dispatched = new Subject<DispatchedEvent>();
  private readonly readiness = new ReplaySubject<Player>(1);
  private readonly listeners = new Map<string, Set<AnyPlayerListener<Player>>>();
  private destroyed = false;

  constructor(elementOrId: string | HTMLElement, options: PlayerOptions<Player> = {}) {
    super();
    this.options = options;
    this.scheduler = options.scheduler ?? asyncScheduler;
    this.id = ++lastWidgetId;
    this.info$ = this.cache.asObservable();
    this.state$ = this.cache.pipe(
      map((info) => info.playerState),
      filter((state): state is PlayerStateValue => typeof state === 'number'),
      distinctUntilChanged(),
      shareReplay({ bufferSize: 1, refCount: false }),
    );
    this.ready$ = this.readiness.asObservable();
    this.apiInfo$ = this.apiInfoState.asObservable();

    const { win, iframe, placeholder, embedOrigin } = createPlayerIframe(elementOrId, options, this.id);
    this.iframe = iframe;
    this.placeholder = placeholder;
    this.embedOrigin = embedOrigin;
    this.channel = new PlayerChannel({
      win,
      iframe,
      embedOrigin,
      id: this.id,
      scheduler: this.scheduler,
      receiver: {
        loading: () => this.cache.next({}),
        initialDelivery: (snapshot) => this.cache.next(mergeDelivery({}, snapshot)),
        infoDelivery: (info) => this.cache.next(mergeDelivery(this.cache.value, info)),
        apiInfoDelivery: (info) => this.apiInfoState.next(info),
        ready: () => {
          this.readiness.next(this);
          this.dispatch('onReady', null);
        },
        event: (name, data) => this.dispatch(name, data),
      },
    });

    for (const [name, listener] of Object.entries(options.events ?? {})) {
      if (listener) this.addEventListener(name, listener);
    }
    this.channel.open();
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
    this.channel.forward(name);
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
      this.channel.forward(name);
      return this.dispatched.pipe(
        filter((event) => event.name === name),
        map((event) => event.data),
      );
    });
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
    return this.channel.apiInterface ? [...this.channel.apiInterface] : [];
  }

  /**
   * Removes the iframe (putting back the element it replaced), stops the `listening` loop, drops queued commands and
   * every listener, and completes {@link Player.info$}, {@link Player.state$} and every {@link Player.events$}.
   * Calling it again does nothing.
   */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.channel.close();
    this.listeners.clear();
    if (this.placeholder) this.iframe.replaceWith(this.placeholder);
    else this.iframe.remove();
    this.dispatched.complete();
    this.readiness.complete();
    this.apiInfoState.complete();
    this.cache.complete();
  }

  /** Sends a command now if the embed has answered, otherwise queues it (in order) until it does; none once destroyed. */
  protected command(func: string, args: unknown[] = []): void {
    if (this.destroyed) return;
    this.channel.command(func, args);
  }

  private read<T>(key: string): T | undefined {
    return this.cache.value[key] as T | undefined;
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
