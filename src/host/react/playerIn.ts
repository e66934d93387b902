import { Observable, ReplaySubject, share, timer } from 'rxjs';
import { Player } from '../sdk/Player';
import type { PlayerOptions } from '../sdk/types';

export interface PlayerInOptions {
  /** How long the player outlives its last subscriber (React StrictMode unsubscribes and subscribes again at once). */
  keepAliveMs?: number;
  /**
   * Called with the player's iframe before it enters the document: attributes that only count at insertion
   * (`loading="lazy"` decides whether the frame loads at once) are set here, as well as `class` and `id`.
   */
  prepareIframe?: (iframe: HTMLIFrameElement) => void;
}

/**
 * One {@link Player} in `container`, as a shared observable: the first subscriber creates it, later subscribers get
 * the same player, and it is destroyed `keepAliveMs` after the last one leaves. React StrictMode's
 * mount → unmount → mount therefore creates one iframe, not two.
 *
 * The player replaces a slot element held outside the document, so its iframe is complete (`prepareIframe` has run)
 * before it is appended to the container; React's own nodes are never replaced. On destroy the player puts the slot
 * back in the iframe's place, and the slot is removed.
 *
 * @param getContainer read at subscription time (a React ref is set by then).
 * @param getOptions read at subscription time: the options the player is created with.
 */
export function playerIn(
  getContainer: () => HTMLElement | null,
  getOptions: () => PlayerOptions<Player>,
  { keepAliveMs = 0, prepareIframe }: PlayerInOptions = {},
): Observable<Player> {
  // Hand-written: the edge to a Player, destroyed on unsubscription.
  return new Observable<Player>((subscriber) => {
    const container = getContainer();
    if (!container) {
      subscriber.error(new Error('VidFrame: the player container is not mounted.'));
      return undefined;
    }
    const slot = container.ownerDocument.createElement('div');
    container.ownerDocument.createElement('div').append(slot);
    let player: Player | undefined;
    try {
      player = new Player(slot, getOptions());
      const iframe = player.getIframe();
      prepareIframe?.(iframe);
      container.append(iframe);
    } catch (error) {
      player?.destroy();
      slot.remove();
      subscriber.error(error);
      return undefined;
    }
    const created = player;
    subscriber.next(created);
    return () => {
      created.destroy();
      slot.remove();
    };
  }).pipe(share({ connector: () => new ReplaySubject<Player>(1), resetOnError: true, resetOnComplete: true, resetOnRefCountZero: () => timer(keepAliveMs) }));
}
