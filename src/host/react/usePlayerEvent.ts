import { useObservable, useSubscription } from 'observable-hooks';
import { EMPTY, switchMap } from 'rxjs';
import type { Player } from '../sdk/Player';
import type { PlayerEventDataMap, PlayerEventName } from '../sdk/types';

/**
 * Calls `handler(data)` on every `name` event of `player`. One subscription per player and event name: a new
 * `handler` on each render is picked up without resubscribing.
 */
export function usePlayerEvent<K extends PlayerEventName>(
  player: Player | undefined,
  name: K,
  handler: ((data: PlayerEventDataMap[K]) => void) | undefined,
): void {
  const events$ = useObservable((inputs$) => inputs$.pipe(switchMap(([p, n]) => (p ? p.events$(n) : EMPTY))), [player, name] as [Player | undefined, K]);
  useSubscription(events$, (data) => handler?.(data as PlayerEventDataMap[K]));
}
