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

/** One step in the making: the state it changes, the actions it collects, the options it reads. */
interface Step {
  s: HostProtocolState;
  actions: HostAction[];
  options: HostProtocolOptions;
}

/** A message to the locked host (nothing before the lock). */
function post(t: Step, event: string, info: unknown, coalesce = false) {
  if (!t.s.lock) return;
  t.actions.push({
    type: 'post',
    to: 'host',
    window: t.s.lock.source,
    // Never "*" after the lock, except for a sandboxed or file: host ("null"), which nothing else can reach.
    targetOrigin: t.s.lock.origin ?? '*',
    message: { event, info, channel: 'widget', ...(t.s.listenerId !== undefined && { id: t.s.listenerId }) },
    coalesce,
  });
}

/** Queued for the handshake; past `maxQueue` the oldest event a host is not owed goes first. */
function enqueue(t: Step, item: QueuedEvent) {
  t.s.queue = [...t.s.queue, item];
  while (t.s.queue.length > (t.options.maxQueue ?? 100)) {
    const drop = t.s.queue.findIndex((q) => !OWED_EVENTS.has(q.event));
    t.s.queue = t.s.queue.filter((_, i) => i !== (drop < 0 ? 0 : drop));
  }
}

/** An event for the host: posted when subscribed, queued before the handshake; errors are queued regardless. */
function emitEvent(t: Step, event: string, info: unknown, coalesce = false) {
  const subscribed = t.s.subscriptions.includes(event);
  if (t.s.initialized) {
    if (subscribed) post(t, event, info, coalesce);
    else if (event === 'onStateChange') t.s.heldStateChange = true;
  } else if (subscribed) enqueue(t, { event, info });
}

function emitError(t: Step, code: number, videoId: string | null) {
  if (videoId !== null) {
    if (t.s.erroredVideoId === videoId) return; // one failure, one onError
    t.s.erroredVideoId = videoId;
  }
  if (t.s.initialized) {
    if (t.s.subscriptions.includes('onError')) post(t, 'onError', code);
    else if (videoId !== null) t.s.heldError = { code, videoId };
  } else enqueue(t, { event: 'onError', info: code, errorVideoId: videoId });
}

/** A refused autoplay: queued before the handshake whatever the subscriptions, held after it until subscribed. */
function emitAutoplayBlocked(t: Step) {
  if (!t.s.initialized) {
    if (!t.s.queue.some((q) => q.event === 'onAutoplayBlocked')) enqueue(t, { event: 'onAutoplayBlocked', info: null });
  } else if (t.s.subscriptions.includes('onAutoplayBlocked')) post(t, 'onAutoplayBlocked', null);
  else t.s.heldAutoplayBlocked = true;
}

/** `apiInfoDelivery` when the captions module changed since the host last heard of it, `onApiChange` when it came or left. */
function syncApi(t: Step, info: PlayerInfo) {
  const api = captionsApiInfo(info);
  if (api === t.s.apiSent) return;
  if (sameValue(api, t.s.apiSent)) {
    // The same module in a new object (a new model, a video loaded again): kept, so the next tick's check is one
    // `===` and not two `JSON.stringify`s on every tick until the module changes (issue 15).
    t.s.apiSent = api;
    return;
  }
  const before = t.s.apiSent;
  t.s.apiSent = api;
  post(t, 'apiInfoDelivery', api);
  if (!sameValue(before?.namespaces, api.namespaces)) emitEvent(t, 'onApiChange', null);
}

/** The snapshot went from `prev` to `next`: the events it owes, in order (not the `infoDelivery`, not the module). */
function deliverEvents(t: Step, prev: PlayerInfo, next: PlayerInfo, deliveries = hostDeliveries(prev, next)) {
  for (const d of deliveries) {
    if (d.event.startsWith('on') && d.event !== 'onApiChange') emitEvent(t, d.event, d.info, d.coalesce);
  }
  if (next.playerState === 1) t.s.heldAutoplayBlocked = false;
}

/** The new video is known: its full snapshot, then what changed since the host last heard, then the module. */
function releaseSnapshot(t: Step, next: PlayerInfo) {
  const base = t.s.baseline ?? next;
  t.s.fullSnapshotPending = false;
  t.s.baseline = null;
  post(t, 'infoDelivery', snapshotForHost(next));
  deliverEvents(t, base, next);
  syncApi(t, next);
}

function run(t: Step, n: NormalizedCommand) {
  if (!n.ok) return emitError(t, hostErrorCode(n.internal), null);
  if (isLoad(n.command)) {
    t.s.erroredVideoId = null;
    t.s.heldError = null;
    t.s.heldAutoplayBlocked = false;
    if (t.s.initialized) {
      if (!t.s.fullSnapshotPending) t.s.baseline = t.s.info;
      t.s.fullSnapshotPending = true;
    }
  }
  t.actions.push({ type: 'command', command: n.command });
}

function handshake(t: Step) {
  if (t.s.initialized || !t.s.ready || !t.s.lock || !t.s.info) return;
  t.s.initialized = true;
  const info = t.s.info;
  const trusted = isTrustedOrigin(t.s.lock.origin, t.options.trustedOrigins ?? []);
  post(t, 'initialDelivery', { apiInterface: hostApiInterface(trusted), ...snapshotForHost(info) });
  post(t, 'onReady', null);
  // An unplayable video: onError right after onReady, subscribed or not, and only once.
  let queue = t.s.queue;
  const videoId = videoIdOf(info);
  if (isUnplayable(info)) {
    const queued = queue.find((q) => q.event === 'onError' && q.errorVideoId === videoId);
    queue = queue.filter((q) => q !== queued);
    if (t.s.erroredVideoId !== videoId || queued) {
      t.s.erroredVideoId = videoId;
      post(t, 'onError', queued ? queued.info : hostErrorCode(info.videoData.errorCode ?? 'fmt.unplayable'));
    }
  }
  const api = captionsApiInfo(info);
  t.s.apiSent = api;
  if ((api.namespaces as string[]).length > 0) post(t, 'apiInfoDelivery', api);
  for (const q of queue) post(t, q.event, q.info);
  t.s.queue = [];
}

function onMessage(t: Step, input: Extract<HostProtocolInput, { kind: 'message' }>): void {
  const m = input.message;
  if (m.source === null || m.source === undefined || typeof m.origin !== 'string') return;
  const msg = parseHostMessage(m.data, { maxChars: t.options.maxMessageChars });
  if (!msg) return;
  if (t.s.lock) {
    if (m.source !== t.s.lock.source || (t.s.lock.origin !== null && m.origin !== t.s.lock.origin)) return;
  } else if (t.options.originParam && m.origin !== t.options.originParam) return;

  if (msg.event === 'listening') {
    if (!t.s.lock) {
      t.s.lock = { origin: m.origin === 'null' ? null : m.origin, source: m.source };
      if (msg.id !== undefined) t.s.listenerId = msg.id;
      handshake(t);
    } else {
      if (msg.id !== undefined) t.s.listenerId = msg.id;
      if (t.s.initialized) post(t, 'alreadyInitialized', null);
    }
    return;
  }
  const { func, args } = msg;
  if (!isHostMethodExposed(func, isTrustedOrigin(m.origin, t.options.trustedOrigins ?? []))) return;
  if (func === 'addEventListener' || func === 'removeEventListener') {
    const name = args[0];
    if (typeof name !== 'string' || !(FORWARDABLE_HOST_EVENTS as readonly string[]).includes(name)) return;
    const others = t.s.subscriptions.filter((e) => e !== name);
    t.s.subscriptions = func === 'addEventListener' ? [...others, name] : others;
    if (func !== 'addEventListener' || !t.s.initialized) return;
    // What happened between onReady and this subscription is owed now, once.
    if (name === 'onError' && t.s.heldError) {
      const held = t.s.heldError;
      t.s.heldError = null;
      if (held.videoId === videoIdOf(t.s.info)) post(t, 'onError', held.code);
    }
    if (name === 'onAutoplayBlocked' && t.s.heldAutoplayBlocked) {
      t.s.heldAutoplayBlocked = false;
      post(t, 'onAutoplayBlocked', null);
    }
    if (name === 'onStateChange' && t.s.heldStateChange) {
      t.s.heldStateChange = false;
      if (t.s.info && !t.s.fullSnapshotPending) post(t, 'onStateChange', t.s.info.playerState);
    }
    return;
  }
  const n = toPlayerCommand(func, args);
  if (!n) return;
  // A refusal needs no player: reported at once (queued, whatever the subscriptions, before the handshake).
  // A refused load/cue still owes its full snapshot: the host wiped its cache when it sent the command.
  if (!n.ok && isLoadFunction(func) && t.s.initialized && t.s.info) post(t, 'infoDelivery', snapshotForHost(t.s.info));
  if (t.s.ready || !n.ok) run(t, n);
  else t.s.held = [...t.s.held, n];
}

function onReadiness(t: Step, input: Extract<HostProtocolInput, { kind: 'readiness' }>): void {
  if (input.readiness !== 'ready' || t.s.ready) return;
  t.s.ready = true;
  handshake(t);
  if (!t.s.lock && t.options.framed && t.options.widgetId !== undefined && !t.s.readyToListenSent) {
    t.s.readyToListenSent = true;
    t.actions.push({
      type: 'post',
      to: 'parent',
      window: null,
      targetOrigin: '*',
      message: { event: 'readyToListen', channel: 'widget', id: t.options.widgetId },
      coalesce: false,
    });
  }
  const held = t.s.held;
  t.s.held = [];
  held.forEach((n) => run(t, n));
}

function onInfo(t: Step, input: Extract<HostProtocolInput, { kind: 'info' }>): void {
  const prev = t.s.info;
  const next = input.info;
  t.s.info = next;
  if (!prev) {
    handshake(t);
    return;
  }
  if (!t.s.initialized) return infoBeforeHandshake(t, prev, next);
  // Nothing about a video being loaded (after a load/cue, or a playlist move) until it is known: then one full
  // snapshot (or, without a load command, what changed) and the real changes since what the host last heard.
  // A cleared player (same video, nothing known) is not waited for.
  const base = t.s.baseline ?? prev;
  if (!isKnown(next) && (t.s.fullSnapshotPending || videoIdOf(next) !== videoIdOf(base))) {
    t.s.baseline = base;
    return;
  }
  if (t.s.fullSnapshotPending) {
    releaseSnapshot(t, next);
    return;
  }
  t.s.baseline = null;
  // One diff per snapshot (it runs on every playback tick): its infoDelivery here, its events below.
  const deliveries = hostDeliveries(base, next);
  for (const d of deliveries) if (d.event === 'infoDelivery') post(t, d.event, d.info, d.coalesce);
  deliverEvents(t, base, next, deliveries);
  syncApi(t, next);
  if (t.s.firstSnapshotOwed) firstSnapshotAfterHandoff(t, next);
}

/** Before the handshake the initialDelivery will carry the snapshot: only subscribed events are owed. */
function infoBeforeHandshake(t: Step, prev: PlayerInfo, next: PlayerInfo): void {
  for (const d of hostDeliveries(prev, next)) if (d.event.startsWith('on')) emitEvent(t, d.event, d.info);
  handshake(t);
}

/**
 * After the inline responder's handshake: a video found unplayable before the page took over (its media failed while
 * the boot waited) is told now, as the handshake would have, subscribed or not, once.
 */
function firstSnapshotAfterHandoff(t: Step, next: PlayerInfo): void {
  t.s.firstSnapshotOwed = false;
  const videoId = videoIdOf(next);
  if (isUnplayable(next) && t.s.erroredVideoId !== videoId) {
    t.s.erroredVideoId = videoId;
    t.s.heldError = null;
    post(t, 'onError', hostErrorCode(next.videoData.errorCode ?? 'fmt.unplayable'));
  }
}

function onEvent(t: Step, input: Extract<HostProtocolInput, { kind: 'event' }>): void {
  const e = input.event;
  if (e.type === 'error') emitError(t, typeof e.code === 'number' ? e.code : hostErrorCode(e.internal), videoIdOf(t.s.info));
  else if (e.type === 'autoplayBlocked') emitAutoplayBlocked(t);
  else if (e.type === 'apiChange') {
    // Announced by the snapshot's own change as a rule (before the handshake, by initialDelivery and the
    // handshake's apiInfoDelivery): sent here only if the host has not heard of it yet.
    if (t.s.initialized && t.s.info && !t.s.fullSnapshotPending && !t.s.baseline) syncApi(t, t.s.info);
  }
}

function onApplied(t: Step, input: Extract<HostProtocolInput, { kind: 'applied' }>): void {
  // A load whose answer was already known (or a clearVideo, which leaves nothing to wait for) is owed its
  // snapshot now, even if the player published nothing.
  const releases = isLoad(input.command) || input.command.type === 'clear';
  if (releases && t.s.fullSnapshotPending && t.s.initialized && t.s.info && (isKnown(t.s.info) || input.command.type === 'clear')) {
    releaseSnapshot(t, t.s.info);
  }
}

/**
 * What each kind of input does: a table of small functions, not one switch (a playing page runs `info` on every tick,
 * and the engine compiles only what runs: one big step was compiled whole; issue 15).
 */
const STEPS: { [K in HostProtocolInput['kind']]: (t: Step, input: Extract<HostProtocolInput, { kind: K }>) => void } = {
  message: onMessage,
  readiness: onReadiness,
  info: onInfo,
  event: onEvent,
  applied: onApplied,
};

/**
 * One step of the host protocol (host-protocol §3–§5, spec §5): the next state and the actions to perform, in order.
 * Pure and total: whatever the input, it returns (a throw inside leaves the state unchanged and does nothing).
 */
export function stepHostProtocol(state: HostProtocolState, input: HostProtocolInput, options: HostProtocolOptions): [HostProtocolState, HostAction[]] {
  const t: Step = { s: { ...state }, actions: [], options };
  try {
    // An input of no known kind changes nothing; `hasOwn`: not a name of Object's.
    if (!Object.hasOwn(STEPS, input.kind)) return [state, []];
    (STEPS[input.kind] as (t: Step, input: HostProtocolInput) => void)(t, input);
  } catch {
    return [state, []];
  }
  return [t.s, t.actions];
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
