import { Observable, ReplaySubject, share, timer } from 'rxjs';
import { Player } from '../sdk/Player';
import type { PlayerOptions } from '../sdk/types';

export interface PlayerInOptions {
  /** How long the player outlives its last subscriber (React StrictMode unsubscribes and subscribes again at once). */
  keepAliveMs?: number;
}

/**
 * One {@link Player} in `container`, as a shared observable: the first subscriber creates it (in a slot element
 * appended to the container, which the iframe replaces — React's own node is never replaced), later subscribers get
 * the same player, and it is destroyed `keepAliveMs` after the last one leaves. React StrictMode's
 * mount → unmount → mount therefore creates one iframe, not two.
 *
 * @param getContainer read at subscription time (a React ref is set by then).
 * @param getOptions read at subscription time: the options the player is created with.
 */
export function playerIn(
  getContainer: () => HTMLElement | null,
  getOptions: () => PlayerOptions<Player>,
  { keepAliveMs = 0 }: PlayerInOptions = {},
): Observable<Player> {
  return new Observable<Player>((subscriber) => {
    const container = getContainer();
    if (!container) {
      subscriber.error(new Error('VidFrame: the player container is not mounted.'));
      return undefined;
    }
    const slot = container.ownerDocument.createElement('div');
    container.append(slot);
    let player: Player;
    try {
      player = new Player(slot, getOptions());
    } catch (error) {
      slot.remove();
      subscriber.error(error);
      return undefined;
    }
    subscriber.next(player);
    return () => {
      player.destroy();
      slot.remove();
    };
  }).pipe(share({ connector: () => new ReplaySubject<Player>(1), resetOnError: true, resetOnComplete: true, resetOnRefCountZero: () => timer(keepAliveMs) }));
}
