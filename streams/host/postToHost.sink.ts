import type { Observable, Subscription } from 'rxjs';
import type { PlayerCommand } from '../player/types';
import type { HostAction, HostWindow } from './hostTypes';

export interface PostToHostEffects {
  /** `window.parent`, for `readyToListen`; `null` when unframed. */
  parent: HostWindow | null;
  /** Runs one player command (`player.command`). */
  execute: (command: PlayerCommand) => void;
  /** Told after each command ran (feeds the protocol's `applied$`), even when the command threw. */
  applied?: (command: PlayerCommand) => void;
  /** Told about a post or a command that threw (a closed host window, a player bug); never rethrown. */
  onFailure?: (error: unknown, action: HostAction) => void;
}

const canPost = (w: unknown): w is HostWindow => !!w && typeof (w as HostWindow).postMessage === 'function';

/**
 * The edge of the host protocol: performs its actions in order. A post becomes
 * `window.postMessage(JSON.stringify(message), targetOrigin)` on the locked host window (or `parent` for
 * `readyToListen`); a command goes to `execute`, then `applied`. One failing action never stops the next ones.
 */
export function postToHost(actions$: Observable<HostAction>, { parent, execute, applied, onFailure }: PostToHostEffects): Subscription {
  // Whether the last window posted to can be posted to: asked once per window, not per post (reading `postMessage`
  // off another origin's window goes through the browser's cross-origin checks, and posts go out on every playback tick).
  let checked: unknown = undefined;
  let postable = false;
  return actions$.subscribe((action) => {
    try {
      if (action.type === 'command') {
        try {
          execute(action.command);
        } finally {
          applied?.(action.command);
        }
        return;
      }
      const target = action.to === 'parent' ? parent : action.window;
      if (target !== checked) {
        // Remembered only once checked: a check that throws is made again for the next post, not answered stale.
        const ok = canPost(target);
        checked = target;
        postable = ok;
      }
      if (postable) (target as HostWindow).postMessage(JSON.stringify(action.message), action.targetOrigin);
    } catch (error) {
      onFailure?.(error, action);
    }
  });
}
