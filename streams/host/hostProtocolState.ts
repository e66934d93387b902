import type { PlayerInfo } from '../player/types';
import type { EarlyHostHandoff } from './earlyHandshake';
import type { HostLock } from './hostGate';
import type { NormalizedCommand } from './normalizeLoadCommand';
import { captionsApiInfo } from './snapshotForHost';

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
  /** Longest message text read (`HOST_MESSAGE_MAX_CHARS` by default). */
  maxMessageChars?: number;
  /**
   * Where the protocol starts (default: nothing happened yet): the state the page's inline responder handed over
   * ({@link hostStateFromHandoff}), when it already answered the host's handshake.
   */
  initialState?: HostProtocolState;
}

export interface QueuedEvent {
  event: string;
  info: unknown;
  /** For `onError`: the video the error is about, so the handshake never sends one failure twice. */
  errorVideoId?: string | null;
}

/** The protocol's whole memory; replaced, never mutated, at each step. */
export interface HostProtocolState {
  /** The host window and origin the first accepted `listening` locked the channel to (`hostGate`). */
  lock: HostLock | null;
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
   * A failure the host was not subscribed to `onError` for (real clients subscribe only once the embed answered, and
   * may add a listener later): sent when the subscription arrives, if no load/cue came first; never twice.
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
   * still owes what the handshake would have sent with it, an unplayable video's `onError` (once, to a subscriber).
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
