import { hostErrorCode } from '../player/errorCodes';
import type { PlayerCommand, PlayerInfo } from '../player/types';
import { sameValue } from '../shared/sameValue';
import { hostApiInterface, isTrustedOrigin } from './hostApiInterface';
import { hostDeliveries } from './hostDeliveries';
import type { HostProtocolOptions, HostProtocolState, QueuedEvent } from './hostProtocolState';
import type { HostAction } from './hostTypes';
import type { NormalizedCommand } from './normalizeLoadCommand';
import { captionsApiInfo, snapshotForHost } from './snapshotForHost';

/**
 * The building blocks of one protocol step (`stepHostProtocol`): what it sends to the host, queues for the handshake,
 * holds for a subscription, and the handshake itself. Each one changes the step's state copy and collects actions.
 */

/** One step in the making: the state it changes, the actions it collects, the options it reads. */
export interface Step {
  s: HostProtocolState;
  actions: HostAction[];
  options: HostProtocolOptions;
}

export const isLoad = (c: PlayerCommand) => c.type === 'loadVideo' || c.type === 'loadPlaylist';
export const videoIdOf = (info: PlayerInfo | null) => info?.videoData?.video_id ?? null;
export const isUnplayable = (info: PlayerInfo) => info.videoData?.isPlayable === false || !!info.videoData?.errorCode;
/** Whether the answer for the current video is in (a snapshot without the flag is taken as known). */
export const isKnown = (info: PlayerInfo) => info.videoKnown !== false;
/** Events queued before the handshake whatever the subscriptions (the handshake decides who hears them); dropped last. */
const OWED_EVENTS = new Set(['onError', 'onAutoplayBlocked']);

/** A message to the locked host (nothing before the lock). */
export function post(t: Step, event: string, info: unknown, coalesce = false) {
  if (!t.s.lock) return;
  t.actions.push({
    type: 'post',
    to: 'host',
    window: t.s.lock.source,
    // Never "*" after the lock, except for an opaque origin (a sandboxed or file: host), which nothing else can reach.
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
export function emitEvent(t: Step, event: string, info: unknown, coalesce = false) {
  const subscribed = t.s.subscriptions.includes(event);
  if (t.s.initialized) {
    if (subscribed) post(t, event, info, coalesce);
    else if (event === 'onStateChange') t.s.heldStateChange = true;
  } else if (subscribed) enqueue(t, { event, info });
}

export function emitError(t: Step, code: number, videoId: string | null) {
  if (videoId !== null) {
    if (t.s.erroredVideoId === videoId) return; // one failure, one onError
    t.s.erroredVideoId = videoId;
  }
  if (t.s.initialized) tellFailure(t, code, videoId);
  else enqueue(t, { event: 'onError', info: code, errorVideoId: videoId });
}

/**
 * A failure, once the handshake is done: to a host subscribed to `onError` now, else (a video's) held for the
 * subscription. Never sent unsubscribed: the widget script subscribes its constructor's listeners only once the embed
 * has answered, and a listener added later subscribes later still. Sent before the subscription, a failure reaches
 * no listener added later; sent again at the subscription, the constructor's listeners would hear it twice.
 */
export function tellFailure(t: Step, code: number, videoId: string | null) {
  if (t.s.subscriptions.includes('onError')) post(t, 'onError', code);
  else if (videoId !== null) t.s.heldError = { code, videoId };
}

/** A refused autoplay: queued before the handshake, then sent to a subscribed host or held until it subscribes. */
export function emitAutoplayBlocked(t: Step) {
  if (!t.s.initialized) {
    if (!t.s.queue.some((q) => q.event === 'onAutoplayBlocked')) enqueue(t, { event: 'onAutoplayBlocked', info: null });
  } else tellAutoplayBlocked(t);
}

/** A refused autoplay, once the handshake is done: to a host subscribed to it now, else held for the subscription. */
function tellAutoplayBlocked(t: Step) {
  if (t.s.subscriptions.includes('onAutoplayBlocked')) post(t, 'onAutoplayBlocked', null);
  else t.s.heldAutoplayBlocked = true;
}

/** `apiInfoDelivery` when the captions module changed since the host last heard of it, `onApiChange` when it came or left. */
export function syncApi(t: Step, info: PlayerInfo) {
  const api = captionsApiInfo(info);
  if (api === t.s.apiSent) return;
  if (sameValue(api, t.s.apiSent)) {
    // The same module in a new object (a new model, a video loaded again): kept, so the next tick's check is one
    // `===` and not two `JSON.stringify`s on every tick until the module changes.
    t.s.apiSent = api;
    return;
  }
  const before = t.s.apiSent;
  t.s.apiSent = api;
  post(t, 'apiInfoDelivery', api);
  if (!sameValue(before?.namespaces, api.namespaces)) emitEvent(t, 'onApiChange', null);
}

/** The snapshot went from `prev` to `next`: the events it owes, in order (not the `infoDelivery`, not the module). */
export function deliverEvents(t: Step, prev: PlayerInfo, next: PlayerInfo, deliveries = hostDeliveries(prev, next)) {
  for (const d of deliveries) {
    if (d.event.startsWith('on') && d.event !== 'onApiChange') emitEvent(t, d.event, d.info, d.coalesce);
  }
  if (next.playerState === 1) t.s.heldAutoplayBlocked = false;
}

/** The new video is known: its full snapshot, then what changed since the host last heard, then the module. */
export function releaseSnapshot(t: Step, next: PlayerInfo) {
  const base = t.s.baseline ?? next;
  t.s.fullSnapshotPending = false;
  t.s.baseline = null;
  post(t, 'infoDelivery', snapshotForHost(next));
  deliverEvents(t, base, next);
  syncApi(t, next);
}

/** A command for the player (a load/cue owes the host a full snapshot), or a refusal's `onError`. */
export function run(t: Step, n: NormalizedCommand) {
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

/** `initialDelivery` and `onReady` once the player is ready, a host is locked and a snapshot is known (§3.4). */
export function handshake(t: Step) {
  if (t.s.initialized || !t.s.ready || !t.s.lock || !t.s.info) return;
  t.s.initialized = true;
  const info = t.s.info;
  const trusted = isTrustedOrigin(t.s.lock.origin, t.options.trustedOrigins ?? []);
  post(t, 'initialDelivery', { apiInterface: hostApiInterface(trusted), ...snapshotForHost(info) });
  post(t, 'onReady', null);
  // An unplayable video (or one whose failure came before the handshake): onError once, right after onReady to a
  // host already subscribed, else when it subscribes; a refused autoplay alike.
  let queue = t.s.queue;
  const videoId = videoIdOf(info);
  const queued = videoId === null ? undefined : queue.find((q) => q.event === 'onError' && q.errorVideoId === videoId);
  queue = queue.filter((q) => q !== queued);
  if (queued || (isUnplayable(info) && t.s.erroredVideoId !== videoId)) {
    t.s.erroredVideoId = videoId;
    tellFailure(t, queued ? (queued.info as number) : hostErrorCode(info.videoData.errorCode ?? 'fmt.unplayable'), videoId);
  }
  const api = captionsApiInfo(info);
  t.s.apiSent = api;
  if ((api.namespaces as string[]).length > 0) post(t, 'apiInfoDelivery', api);
  for (const q of queue) {
    if (q.event === 'onAutoplayBlocked') tellAutoplayBlocked(t);
    else post(t, q.event, q.info);
  }
  t.s.queue = [];
}
