import { EMPTY, map, merge, mergeMap, type Observable, scan } from 'rxjs';
import type { PlayerReadiness } from '../player/playerReadiness';
import type { PlayerCommand, PlayerEventOut, PlayerInfo } from '../player/types';
import { initialHostProtocolState, type HostProtocolOptions, type HostProtocolState } from './hostProtocolState';
import type { HostAction, HostMessageEvent, HostProtocolInput } from './hostTypes';
import { stepHostProtocol } from './stepHostProtocol';

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

type Step = [HostProtocolState, HostAction[]];

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
  // The actions of each step go out in order, synchronously, before the next input is folded.
  const initial = options.initialState ?? initialHostProtocolState(options.widgetId);
  return inputs$.pipe(
    scan(([state]: Step, input) => stepHostProtocol(state, input, options), [initial, []] as Step),
    mergeMap(([, actions]) => actions),
  );
}
