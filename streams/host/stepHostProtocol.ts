import { hostErrorCode } from '../player/errorCodes';
import type { PlayerInfo } from '../player/types';
import { isHostMethodExposed, isTrustedOrigin } from './hostApiInterface';
import { hostDeliveries } from './hostDeliveries';
import { FORWARDABLE_HOST_EVENTS } from './hostEvents';
import { HOST_MESSAGE_MAX_CHARS, hostGate, type HostLock } from './hostGate';
import { hostInboundOf } from './hostInboundOf';
import type { HostProtocolOptions, HostProtocolState } from './hostProtocolState';
import {
  deliverEvents,
  emitAutoplayBlocked,
  emitError,
  emitEvent,
  handshake,
  isKnown,
  isLoad,
  isUnplayable,
  post,
  releaseSnapshot,
  run,
  syncApi,
  tellFailure,
  videoIdOf,
  type Step,
} from './hostProtocolStep';
import type { HostAction, HostInbound, HostProtocolInput } from './hostTypes';
import { isLoadFunction } from './normalizeLoadCommand';
import { snapshotForHost } from './snapshotForHost';
import { toPlayerCommand } from './toPlayerCommand';

type Input<K extends HostProtocolInput['kind']> = Extract<HostProtocolInput, { kind: K }>;

/** A host message: only what the gate accepts (spec §5), then the handshake, a subscription or a command. */
function onMessage(t: Step, input: Input<'message'>): void {
  const gate = hostGate(input.message, t.s.lock, { originParam: t.options.originParam, maxChars: t.options.maxMessageChars ?? HOST_MESSAGE_MAX_CHARS });
  if (!gate.accepted) return;
  const msg = hostInboundOf(gate.value);
  if (!msg) return;
  if (msg.event === 'listening') return onListening(t, msg, gate.lock!);
  const { func, args } = msg;
  if (!isHostMethodExposed(func, isTrustedOrigin(input.message.origin, t.options.trustedOrigins ?? []))) return;
  if (func === 'addEventListener' || func === 'removeEventListener') return onSubscription(t, func, args[0]);
  const n = toPlayerCommand(func, args);
  if (!n) return;
  // A refusal needs no player: reported at once (queued, whatever the subscriptions, before the handshake).
  // A refused load/cue still owes its full snapshot: the host wiped its cache when it sent the command.
  if (!n.ok && isLoadFunction(func) && t.s.initialized && t.s.info) post(t, 'infoDelivery', snapshotForHost(t.s.info));
  if (t.s.ready || !n.ok) run(t, n);
  else t.s.held = [...t.s.held, n];
}

/** The first `listening` locks the channel (`lock`, as the gate took it) and may complete the handshake. */
function onListening(t: Step, msg: Extract<HostInbound, { event: 'listening' }>, lock: HostLock): void {
  const first = !t.s.lock;
  t.s.lock = lock;
  if (msg.id !== undefined) t.s.listenerId = msg.id;
  if (first) handshake(t);
  else if (t.s.initialized) post(t, 'alreadyInitialized', null);
}

/** `addEventListener` / `removeEventListener`: one forwarder per name; what the host missed since `onReady`, once. */
function onSubscription(t: Step, func: 'addEventListener' | 'removeEventListener', name: unknown): void {
  if (typeof name !== 'string' || !(FORWARDABLE_HOST_EVENTS as readonly string[]).includes(name)) return;
  const others = t.s.subscriptions.filter((e) => e !== name);
  t.s.subscriptions = func === 'addEventListener' ? [...others, name] : others;
  if (func !== 'addEventListener' || !t.s.initialized) return;
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
}

function onReadiness(t: Step, input: Input<'readiness'>): void {
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

function onInfo(t: Step, input: Input<'info'>): void {
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
 * the boot waited) is told now, as the handshake would have: once, to a subscribed host or at its subscription.
 */
function firstSnapshotAfterHandoff(t: Step, next: PlayerInfo): void {
  t.s.firstSnapshotOwed = false;
  const videoId = videoIdOf(next);
  if (isUnplayable(next) && t.s.erroredVideoId !== videoId) {
    t.s.erroredVideoId = videoId;
    tellFailure(t, hostErrorCode(next.videoData.errorCode ?? 'fmt.unplayable'), videoId);
  }
}

function onEvent(t: Step, input: Input<'event'>): void {
  const e = input.event;
  if (e.type === 'error') emitError(t, typeof e.code === 'number' ? e.code : hostErrorCode(e.internal), videoIdOf(t.s.info));
  else if (e.type === 'autoplayBlocked') emitAutoplayBlocked(t);
  else if (e.type === 'apiChange') {
    // Announced by the snapshot's own change as a rule (before the handshake, by initialDelivery and the
    // handshake's apiInfoDelivery): sent here only if the host has not heard of it yet.
    if (t.s.initialized && t.s.info && !t.s.fullSnapshotPending && !t.s.baseline) syncApi(t, t.s.info);
  }
}

function onApplied(t: Step, input: Input<'applied'>): void {
  // A load whose answer was already known (or a clearVideo, which leaves nothing to wait for) is owed its
  // snapshot now, even if the player published nothing.
  const releases = isLoad(input.command) || input.command.type === 'clear';
  if (releases && t.s.fullSnapshotPending && t.s.initialized && t.s.info && (isKnown(t.s.info) || input.command.type === 'clear')) {
    releaseSnapshot(t, t.s.info);
  }
}

/**
 * What each kind of input does: a table of small functions, not one switch. A playing page runs `info` on every tick,
 * and the engine compiles only the functions that run, not one big step whole.
 */
const STEPS: { [K in HostProtocolInput['kind']]: (t: Step, input: Input<K>) => void } = {
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
