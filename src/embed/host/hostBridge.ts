import { concat, from, share, Subject, type Observable, type Subscription } from 'rxjs';
import { parseBooleanVar, type PlayerConfig } from '../../../streams/config/playerConfig';
import { coalesceDeliveries } from '../../../streams/host/coalesceDeliveries';
import { hostProtocol$ } from '../../../streams/host/hostProtocol';
import { hostStateFromHandoff } from '../../../streams/host/hostProtocolState';
import type { HostWindow } from '../../../streams/host/hostTypes';
import { postToHost } from '../../../streams/host/postToHost.sink';
import type { PlayerReadiness } from '../../../streams/player/playerReadiness';
import type { PlayerCommand, PlayerEventOut, PlayerInfo } from '../../../streams/player/types';
import { hostMessages$ } from '../../../streams/sources/hostMessages';
import { hostCommandReceipts, type HostCommandReceipt } from '../../../streams/host/hostCommandReceipts';
import { EARLY_HOST_GLOBAL, widgetIdOf, type EarlyWindow } from '../../../streams/host/earlyHandshake';

/** What the bridge needs of the player (the engine: `EmbedPlayer`). */
export interface HostDrivenPlayer {
  readonly config: PlayerConfig;
  readonly readiness$: Observable<PlayerReadiness>;
  readonly info$: Observable<PlayerInfo>;
  readonly events$: Observable<PlayerEventOut>;
  command(command: PlayerCommand): void;
}

/**
 * The page glue of the host protocol: `message` events of `win` → the protocol → player commands, and the
 * player's snapshots and events → coalesced posts to the host window. Returns `null` and does nothing at all without
 * `enablejsapi=1` (or `true`): the embed then never answers a host. Unsubscribe the result to stop.
 *
 * Origin matching is exact: an `origin` parameter without its port, or with another scheme, silences the channel.
 */
export function startHostBridge(
  player: HostDrivenPlayer,
  win: Window,
  { onCommandReceived }: { onCommandReceived?: (receipt: HostCommandReceipt) => void } = {},
): Subscription | null {
  const vars = player.config.args.playerVars;
  if (parseBooleanVar(vars.enablejsapi) !== true) return null;
  const framed = win.parent !== win;
  const widgetId = widgetIdOf(vars.widgetid);
  const applied$ = new Subject<PlayerCommand>();
  // The page's inline responder may have answered the handshake already (`earlyHandshake.ts`): it stops
  // here, and what it held is read first, by each reader, before the window's own messages. Nothing can arrive in
  // between: this all runs in one task.
  const handoff = (win as unknown as EarlyWindow)[EARLY_HOST_GLOBAL]?.take() ?? null;
  const live$ = hostMessages$(win).pipe(share());
  const messages$ = handoff && handoff.held.length > 0 ? concat(from(handoff.held), live$) : live$;
  // Each command the protocol takes in, for the player's logging (`hostCommandReceived`), read before the protocol acts on it.
  const receipts = onCommandReceived
    ? hostCommandReceipts(messages$, player.readiness$, {
        originParam: vars.origin?.trim() || undefined,
        trustedOrigins: player.config.args.trustedOrigins ?? [],
        lock: handoff?.lock ?? null,
      }).subscribe({
        next: (receipt) => onCommandReceived(receipt),
        error: () => undefined,
      })
    : undefined;
  const actions$ = hostProtocol$(
    { messages$, readiness$: player.readiness$, info$: player.info$, events$: player.events$, applied$ },
    {
      originParam: vars.origin?.trim() || undefined,
      widgetId,
      framed,
      trustedOrigins: player.config.args.trustedOrigins ?? [],
      ...(handoff && { initialState: hostStateFromHandoff(handoff, widgetId) }),
    },
  ).pipe(coalesceDeliveries());
  const bridge = postToHost(actions$, {
    parent: framed ? (win.parent as unknown as HostWindow) : null,
    execute: (command) => player.command(command),
    applied: (command) => applied$.next(command),
    onFailure: (error) => console.warn('VidFrame host messaging:', error),
  });
  if (receipts) bridge.add(receipts);
  return bridge;
}

/**
 * For a page that could not start (its boot threw): the HTML may already have told a host that the player is ready
 * (`earlyHandshake.ts`). The responder stops, and the locked host hears `onError` 5 (the player failed), so it does
 * not wait for commands that will never run.
 */
export function failEarlyHandshake(win: Window): void {
  const handoff = (win as unknown as EarlyWindow)[EARLY_HOST_GLOBAL]?.take();
  const lock = handoff?.initialized ? handoff.lock : null;
  if (!lock) return;
  try {
    const message = { event: 'onError', info: 5, channel: 'widget', ...(handoff!.listenerId !== undefined && { id: handoff!.listenerId }) };
    (lock.source as HostWindow).postMessage(JSON.stringify(message), lock.origin ?? '*');
  } catch {
    // A closed host window: nothing to tell.
  }
}
