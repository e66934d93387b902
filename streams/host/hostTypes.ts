/**
 * The shapes of the host ⇄ embed protocol (host-protocol.md): what arrives from the host page, what the embed
 * posts back, and the actions the protocol asks its sinks to perform. Types only.
 */
import type { PlayerCommand, PlayerEventOut, PlayerInfo } from '../player/types';
import type { PlayerReadiness } from '../player/playerReadiness';
import type { HostMessageEvent } from '../sources/hostMessages';

/** A window-like object the embed can post to (`event.source`, `window.parent`); plain objects in tests. */
export interface HostWindow {
  postMessage(message: string, targetOrigin: string): void;
}

/** One `message` event, reduced to what the protocol reads: the shape its source (`hostMessages$`) emits. */
export type { HostMessageEvent } from '../sources/hostMessages';

/** A parsed, well-formed host message (host-protocol §1, §3, §4). */
export type HostInbound =
  { event: 'listening'; id?: number | string; channel?: string } | { event: 'command'; func: string; args: unknown[]; id?: number | string; channel?: string };

/** An embed → host message before the envelope (`channel`, `id`) is added. */
export interface HostOutMessage {
  event: string;
  /** `undefined` only for `readyToListen`, which carries no `info` key. */
  info?: unknown;
}

/** What the protocol asks its sinks to do, in order. */
export type HostAction =
  | { type: 'command'; command: PlayerCommand }
  | {
      type: 'post';
      /** `host`: the locked host window (`window`); `parent`: `window.parent` (only `readyToListen`). */
      to: 'host' | 'parent';
      window: unknown;
      targetOrigin: string;
      /** The full envelope, ready for `JSON.stringify`. */
      message: { event: string; info?: unknown; channel: 'widget'; id?: number | string };
      /**
       * True for deliveries a burst may merge (time, volume, rate, progress): see `coalesceDeliveries`.
       * State changes, snapshots, handshake messages and errors are never coalesced.
       */
      coalesce: boolean;
    };

/** Everything the protocol reacts to, as one tagged stream. */
export type HostProtocolInput =
  | { kind: 'message'; message: HostMessageEvent }
  | { kind: 'readiness'; readiness: PlayerReadiness }
  | { kind: 'info'; info: PlayerInfo }
  | { kind: 'event'; event: PlayerEventOut }
  /** The sink ran a command (the player may or may not have published a new snapshot synchronously). */
  | { kind: 'applied'; command: PlayerCommand };
