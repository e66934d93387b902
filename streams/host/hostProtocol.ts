import { EMPTY, map, merge, Observable } from 'rxjs';
import { hostErrorCode } from '../player/errorCodes';
import type { PlayerReadiness } from '../player/playerReadiness';
import type { PlayerCommand, PlayerEventOut, PlayerInfo } from '../player/types';
import { hostApiInterface, isHostMethodExposed, isTrustedOrigin } from './hostApiInterface';
import { hostDeliveries } from './hostDeliveries';
import { sameValue } from '../shared/sameValue';
import type { HostAction, HostMessageEvent, HostProtocolInput } from './hostTypes';
import { isLoadFunction, type NormalizedCommand } from './normalizeLoadCommand';
import { parseHostMessage } from './parseHostMessage';
import { captionsApiInfo, snapshotForHost } from './snapshotForHost';
import { toPlayerCommand } from './toPlayerCommand';
import { FORWARDABLE_HOST_EVENTS } from './hostEvents';
import type { EarlyHostHandoff } from './earlyHandshake';

export { FORWARDABLE_HOST_EVENTS } from './hostEvents';

export interface HostProtocolOptions {
  /** The `origin` URL parameter: before the lock, only this exact origin (scheme, host, port) may talk. */
  originParam?: string;
  /** The `widgetid` URL parameter: the reply `id` before any `listening`, and the id of `readyToListen`. */
  widgetId?: number | string;
  /** Whether the page is framed (`window.parent !== window`): `readyToListen` is only posted then. */
  framed: boolean;
  /** Origins that get the privileged methods (`config.args.trustedOrigins`). */
  trustedOrigins?: readonly string[];
  /** Most events kept for a host that has not finished the handshake (errors are dropped last). */
  maxQueue?: number;
  /** Longest message text parsed. */
  maxMessageChars?: number;
  /**
   * Where the protocol starts (default: nothing happened yet): the state the page's inline responder handed over
   * ({@link hostStateFromHandoff}), when it already answered the host's handshake.
   */
  initialState?: HostProtocolState;
}

export interface HostProtocolSources {
  /** `message` events of the embed's window (see `hostMessages$`). */
  messages$: Observable<HostMessageEvent>;
  readiness$: Observable<PlayerReadiness>;
  /** Full player snapshots (hot; the latest one replayed on subscription is welcome). */
  info$: Observable<PlayerInfo>;
  events$: Observable<PlayerEventOut>;
  /** Commands the sink has just run: a load/cue then gets its full snapshot even if the player published nothing. */
  applied$?: Observable<PlayerCommand>;
}

interface QueuedEvent {
  event: string;
  info: unknown;
  /** For `onError`: the video the error is about, so the handshake never sends one failure twice. */
  errorVideoId?: string | null;
}

/** The protocol's whole memory; replaced, never mutated, at each step. */
export interface HostProtocolState {
  lock: { origin: string | null; source: unknown } | null;
  listenerId: number | string | undefined;
  ready: boolean;
  initialized: boolean;
  readyToListenSent: boolean;
  /** Commands (or their refusals) that arrived before the player was ready, in order. */
  held: NormalizedCommand[];
  /** Events owed to the host before the handshake, in order. */
  queue: QueuedEvent[];
  subscriptions: string[];
  info: PlayerInfo | null;
  /**
   * A load/cue ran: the host wiped its cache and is owed a full snapshot, sent once the new video is known
   * (`videoKnown`), never the placeholder before it (no title, `isPlayable` false, quality `unknown`).
   */
  fullSnapshotPending: boolean;
  /**
   * While deliveries wait for a video to be known (a pending full snapshot, a playlist move): the snapshot the host
   * last heard about, so what it is sent then says what really changed.
   */
  baseline: PlayerInfo | null;
  /** The video whose failure the host already heard about (reset by every load/cue). */
  erroredVideoId: string | null;
  /**
   * A failure that came after the handshake, before the host subscribed to `onError` (real clients subscribe only
   * after `onReady`): sent when the subscription arrives, if no load/cue came first; never twice.
   */
  heldError: { code: number; videoId: string | null } | null;
  /** The same for a refused autoplay (`onAutoplayBlocked`); dropped by a load/cue and once the video plays. */
  heldAutoplayBlocked: boolean;
  /**
   * A state change after the handshake, before the host subscribed to `onStateChange` (an autoplay that starts while
   * the host's `addEventListener` is on its way): the current state is sent when the subscription arrives, once, so a
   * host never misses that the video is playing.
   */
  heldStateChange: boolean;
  /** The captions module as the host last heard it (`apiInfoDelivery`); `onApiChange` only when its namespaces change. */
  apiSent: Record<string, unknown> | null;
  /**
   * The page's inline responder answered the handshake from the server's snapshot: the player's first real snapshot
   * still owes what the handshake would have sent with it, an unplayable video's `onError` (subscribed or not, once).
   */
  firstSnapshotOwed: boolean;
}

export const initialHostProtocolState = (widgetId?: number | string): HostProtocolState => ({
  lock: null,
  listenerId: widgetId,
  ready: false,
  initialized: false,
  readyToListenSent: false,
  held: [],
  queue: [],
  subscriptions: [],
  info: null,
  fullSnapshotPending: false,
  baseline: null,
  erroredVideoId: null,
  heldError: null,
  heldAutoplayBlocked: false,
  heldStateChange: false,
  apiSent: null,
  firstSnapshotOwed: false,
});

/**
 * The protocol's state when the page script takes over from the inline responder: where the handshake stands
 * (lock, listener id, `readyToListen` sent) and, once `initialDelivery` went out, the snapshot the host heard — every
 * later snapshot is compared with it — and the captions module as the host heard it. The player is not ready yet:
 * commands are held until it is.
 */
export function hostStateFromHandoff(handoff: EarlyHostHandoff, widgetId: number | string | undefined): HostProtocolState {
  const state = initialHostProtocolState(widgetId);
  const baseline = handoff.initialized ? handoff.baseline : null;
  return {
    ...state,
    lock: handoff.lock,
    listenerId: handoff.listenerId ?? widgetId,
    initialized: handoff.initialized && baseline !== null,
    readyToListenSent: handoff.readyToListenSent,
    info: baseline,
    apiSent: baseline ? captionsApiInfo(baseline) : null,
    firstSnapshotOwed: baseline !== null,
  };
}

const isLoad = (c: PlayerCommand) => c.type === 'loadVideo' || c.type === 'loadPlaylist';
const videoIdOf = (info: PlayerInfo | null) => info?.videoData?.video_id ?? null;
const isUnplayable = (info: PlayerInfo) => info.videoData?.isPlayable === false || !!info.videoData?.errorCode;
/** Whether the answer for the current video is in (a snapshot without the flag is taken as known). */
const isKnown = (info: PlayerInfo) => info.videoKnown !== false;
/** Events a host is owed whatever its subscriptions when they happen before the handshake; the last ones dropped. */
const OWED_EVENTS = new Set(['onError', 'onAutoplayBlocked']);

/**
 * One step of the host protocol (host-protocol §3–§5, spec §5): the next state and the actions to perform, in order.
 * Pure and total: whatever the input, it returns (a throw inside leaves the state unchanged and does nothing).
 */
export function stepHostProtocol(state: HostProtocolState, input: HostProtocolInput, options: HostProtocolOptions): [HostProtocolState, HostAction[]] {
  const s: HostProtocolState = { ...state };
  const actions: HostAction[] = [];
  const { maxQueue = 100 } = options;

  const post = (event: string, info: unknown, coalesce = false) => {
    if (!s.lock) return;
    actions.push({
      type: 'post',
      to: 'host',
      window: s.lock.source,
      // Never "*" after the lock, except for a sandboxed or file: host ("null"), which nothing else can reach.
      targetOrigin: s.lock.origin ?? '*',
      message: { event, info, channel: 'widget', ...(s.listenerId !== undefined && { id: s.listenerId }) },
      coalesce,
    });
  };
  const enqueue = (item: QueuedEvent) => {
    s.queue = [...s.queue, item];
    while (s.queue.length > maxQueue) {
      const drop = s.queue.findIndex((q) => !OWED_EVENTS.has(q.event));
      s.queue = s.queue.filter((_, i) => i !== (drop < 0 ? 0 : drop));
    }
  };
  /** An event for the host: posted when subscribed, queued before the handshake; errors are queued regardless. */
  const emitEvent = (event: string, info: unknown, coalesce = false) => {
    const subscribed = s.subscriptions.includes(event);
    if (s.initialized) {
      if (subscribed) post(event, info, coalesce);
      else if (event === 'onStateChange') s.heldStateChange = true;
    } else if (subscribed) enqueue({ event, info });
  };
  const emitError = (code: number, videoId: string | null) => {
    if (videoId !== null) {
      if (s.erroredVideoId === videoId) return; // one failure, one onError
      s.erroredVideoId = videoId;
    }
    if (s.initialized) {
      if (s.subscriptions.includes('onError')) post('onError', code);
      else if (videoId !== null) s.heldError = { code, videoId };
    } else enqueue({ event: 'onError', info: code, errorVideoId: videoId });
  };
  /** A refused autoplay: queued before the handshake whatever the subscriptions, held after it until subscribed. */
  const emitAutoplayBlocked = () => {
    if (!s.initialized) {
      if (!s.queue.some((q) => q.event === 'onAutoplayBlocked')) enqueue({ event: 'onAutoplayBlocked', info: null });
    } else if (s.subscriptions.includes('onAutoplayBlocked')) post('onAutoplayBlocked', null);
    else s.heldAutoplayBlocked = true;
  };
  /** `apiInfoDelivery` when the captions module changed since the host last heard of it, `onApiChange` when it came or left. */
  const syncApi = (info: PlayerInfo) => {
    const api = captionsApiInfo(info);
    if (sameValue(api, s.apiSent)) return;
    const before = s.apiSent;
    s.apiSent = api;
    post('apiInfoDelivery', api);
    if (!sameValue(before?.namespaces, api.namespaces)) emitEvent('onApiChange', null);
  };
  /** The snapshot went from `prev` to `next`: the events it owes, in order (not the `infoDelivery`, not the module). */
  const deliverEvents = (prev: PlayerInfo, next: PlayerInfo, deliveries = hostDeliveries(prev, next)) => {
    for (const d of deliveries) {
      if (d.event.startsWith('on') && d.event !== 'onApiChange') emitEvent(d.event, d.info, d.coalesce);
    }
    if (next.playerState === 1) s.heldAutoplayBlocked = false;
  };
  /** The new video is known: its full snapshot, then what changed since the host last heard, then the module. */
  const releaseSnapshot = (next: PlayerInfo) => {
    const base = s.baseline ?? next;
    s.fullSnapshotPending = false;
    s.baseline = null;
    post('infoDelivery', snapshotForHost(next));
    deliverEvents(base, next);
    syncApi(next);
  };
  const run = (n: NormalizedCommand) => {
    if (!n.ok) return emitError(hostErrorCode(n.internal), null);
    if (isLoad(n.command)) {
      s.erroredVideoId = null;
      s.heldError = null;
      s.heldAutoplayBlocked = false;
      if (s.initialized) {
        if (!s.fullSnapshotPending) s.baseline = s.info;
        s.fullSnapshotPending = true;
      }
    }
    actions.push({ type: 'command', command: n.command });
  };
  const handshake = () => {
    if (s.initialized || !s.ready || !s.lock || !s.info) return;
    s.initialized = true;
    const info = s.info;
    const trusted = isTrustedOrigin(s.lock.origin, options.trustedOrigins ?? []);
    post('initialDelivery', { apiInterface: hostApiInterface(trusted), ...snapshotForHost(info) });
    post('onReady', null);
    // An unplayable video: onError right after onReady, subscribed or not, and only once.
    let queue = s.queue;
    const videoId = videoIdOf(info);
    if (isUnplayable(info)) {
      const queued = queue.find((q) => q.event === 'onError' && q.errorVideoId === videoId);
      queue = queue.filter((q) => q !== queued);
      if (s.erroredVideoId !== videoId || queued) {
        s.erroredVideoId = videoId;
        post('onError', queued ? queued.info : hostErrorCode(info.videoData.errorCode ?? 'fmt.unplayable'));
      }
    }
    const api = captionsApiInfo(info);
    s.apiSent = api;
    if ((api.namespaces as string[]).length > 0) post('apiInfoDelivery', api);
    for (const q of queue) post(q.event, q.info);
    s.queue = [];
  };

  try {
    switch (input.kind) {
      case 'message': {
        const m = input.message;
        if (m.source === null || m.source === undefined || typeof m.origin !== 'string') break;
        const msg = parseHostMessage(m.data, { maxChars: options.maxMessageChars });
        if (!msg) break;
        if (s.lock) {
          if (m.source !== s.lock.source || (s.lock.origin !== null && m.origin !== s.lock.origin)) break;
        } else if (options.originParam && m.origin !== options.originParam) break;

        if (msg.event === 'listening') {
          if (!s.lock) {
            s.lock = { origin: m.origin === 'null' ? null : m.origin, source: m.source };
            if (msg.id !== undefined) s.listenerId = msg.id;
            handshake();
          } else {
            if (msg.id !== undefined) s.listenerId = msg.id;
            if (s.initialized) post('alreadyInitialized', null);
          }
          break;
        }
        const { func, args } = msg;
        if (!isHostMethodExposed(func, isTrustedOrigin(m.origin, options.trustedOrigins ?? []))) break;
        if (func === 'addEventListener' || func === 'removeEventListener') {
          const name = args[0];
          if (typeof name !== 'string' || !(FORWARDABLE_HOST_EVENTS as readonly string[]).includes(name)) break;
          const others = s.subscriptions.filter((e) => e !== name);
          s.subscriptions = func === 'addEventListener' ? [...others, name] : others;
          if (func !== 'addEventListener' || !s.initialized) break;
          // What happened between onReady and this subscription is owed now, once.
          if (name === 'onError' && s.heldError) {
            const held = s.heldError;
            s.heldError = null;
            if (held.videoId === videoIdOf(s.info)) post('onError', held.code);
          }
          if (name === 'onAutoplayBlocked' && s.heldAutoplayBlocked) {
            s.heldAutoplayBlocked = false;
            post('onAutoplayBlocked', null);
          }
          if (name === 'onStateChange' && s.heldStateChange) {
            s.heldStateChange = false;
            if (s.info && !s.fullSnapshotPending) post('onStateChange', s.info.playerState);
          }
          break;
        }
        const n = toPlayerCommand(func, args);
        if (!n) break;
        // A refusal needs no player: reported at once (queued, whatever the subscriptions, before the handshake).
        // A refused load/cue still owes its full snapshot: the host wiped its cache when it sent the command.
        if (!n.ok && isLoadFunction(func) && s.initialized && s.info) post('infoDelivery', snapshotForHost(s.info));
        if (s.ready || !n.ok) run(n);
        else s.held = [...s.held, n];
        break;
      }
      case 'readiness': {
        if (input.readiness !== 'ready' || s.ready) break;
        s.ready = true;
        handshake();
        if (!s.lock && options.framed && options.widgetId !== undefined && !s.readyToListenSent) {
          s.readyToListenSent = true;
          actions.push({
            type: 'post',
            to: 'parent',
            window: null,
            targetOrigin: '*',
            message: { event: 'readyToListen', channel: 'widget', id: options.widgetId },
            coalesce: false,
          });
        }
        const held = s.held;
        s.held = [];
        held.forEach(run);
        break;
      }
      case 'info': {
        const prev = s.info;
        const next = input.info;
        s.info = next;
        if (!prev) {
          handshake();
          break;
        }
        if (!s.initialized) {
          // Before the handshake the initialDelivery will carry the snapshot: only subscribed events are owed.
          for (const d of hostDeliveries(prev, next)) if (d.event.startsWith('on')) emitEvent(d.event, d.info);
          handshake();
          break;
        }
        // Nothing about a video being loaded (after a load/cue, or a playlist move) until it is known: then one full
        // snapshot (or, without a load command, what changed) and the real changes since what the host last heard.
        // A cleared player (same video, nothing known) is not waited for.
        const base = s.baseline ?? prev;
        if (!isKnown(next) && (s.fullSnapshotPending || videoIdOf(next) !== videoIdOf(base))) {
          s.baseline = base;
          break;
        }
        if (s.fullSnapshotPending) {
          releaseSnapshot(next);
          break;
        }
        s.baseline = null;
        // One diff per snapshot (it runs on every playback tick): its infoDelivery here, its events below.
        const deliveries = hostDeliveries(base, next);
        for (const d of deliveries) if (d.event === 'infoDelivery') post(d.event, d.info, d.coalesce);
        deliverEvents(base, next, deliveries);
        syncApi(next);
        if (s.firstSnapshotOwed) {
          // After the inline responder's handshake: a video found unplayable before the page took over (its media
          // failed while the boot waited) is told now, as the handshake would have, subscribed or not, once.
          s.firstSnapshotOwed = false;
          const videoId = videoIdOf(next);
          if (isUnplayable(next) && s.erroredVideoId !== videoId) {
            s.erroredVideoId = videoId;
            s.heldError = null;
            post('onError', hostErrorCode(next.videoData.errorCode ?? 'fmt.unplayable'));
          }
        }
        break;
      }
      case 'event': {
        const e = input.event;
        if (e.type === 'error') emitError(typeof e.code === 'number' ? e.code : hostErrorCode(e.internal), videoIdOf(s.info));
        else if (e.type === 'autoplayBlocked') emitAutoplayBlocked();
        else if (e.type === 'apiChange') {
          // Announced by the snapshot's own change as a rule (before the handshake, by initialDelivery and the
          // handshake's apiInfoDelivery): sent here only if the host has not heard of it yet.
          if (s.initialized && s.info && !s.fullSnapshotPending && !s.baseline) syncApi(s.info);
        }
        break;
      }
      case 'applied': {
        // A load whose answer was already known (or a clearVideo, which leaves nothing to wait for) is owed its
        // snapshot now, even if the player published nothing.
        const releases = isLoad(input.command) || input.command.type === 'clear';
        if (releases && s.fullSnapshotPending && s.initialized && s.info && (isKnown(s.info) || input.command.type === 'clear')) {
          releaseSnapshot(s.info);
        }
        break;
      }
    }
  } catch {
    return [state, []];
  }
  return [s, actions];
}

/**
 * The embed side of the host protocol as one stream of actions: posts to the host (or `readyToListen` to the parent)
 * and commands for the player, in the order they must happen.
 *
 * ```
 * messages$:  -L---C(setVolume)-----------------   L = listening, before the player is ready
 * readiness$: l-----------r-----------------------
 * info$:      i-----------------------i'---------
 * result:     ------------(IRc)-------d----------   I initialDelivery, R onReady, c the held command, d its delivery
 * ```
 *
 * Feed the result through `coalesceDeliveries` and into `postToHost`. Without `enablejsapi=1` do not build it at all.
 */
export function hostProtocol$(
  { messages$, readiness$, info$, events$, applied$ = EMPTY }: HostProtocolSources,
  options: HostProtocolOptions,
): Observable<HostAction> {
  // The player's outputs are listened to before any message or readiness comes in: messages handed over by the inline
  // responder arrive at subscription, and the commands among them may run (the player already ready) and publish
  // events at once, which nothing replays.
  const inputs$: Observable<HostProtocolInput> = merge(
    events$.pipe(map((event): HostProtocolInput => ({ kind: 'event', event }))),
    applied$.pipe(map((command): HostProtocolInput => ({ kind: 'applied', command }))),
    info$.pipe(map((info): HostProtocolInput => ({ kind: 'info', info }))),
    messages$.pipe(map((message): HostProtocolInput => ({ kind: 'message', message }))),
    readiness$.pipe(map((readiness): HostProtocolInput => ({ kind: 'readiness', readiness }))),
  );
  // A fold whose actions go out in order, synchronously: no inner stream per input (one per playback tick; issue 15).
  return new Observable<HostAction>((subscriber) => {
    let state = options.initialState ?? initialHostProtocolState(options.widgetId);
    return inputs$.subscribe({
      next: (input) => {
        const [next, actions] = stepHostProtocol(state, input, options);
        state = next;
        for (const action of actions) subscriber.next(action);
      },
      error: (e: unknown) => subscriber.error(e),
      complete: () => subscriber.complete(),
    });
  });
}
