import { type RefObject, useEffect, useState } from 'react';
import { useObservableState } from 'observable-hooks';
import type { Player } from '../sdk/Player';
import type { PlayerOptions } from '../sdk/types';
import { playerIn } from './playerIn';

/**
 * A {@link Player} inside `containerRef`'s element, created once when the component mounts (once under StrictMode
 * too: see {@link playerIn}) and destroyed when it unmounts; `undefined` until then. The options are read when the
 * player is created; afterwards a new `options.videoId` cues that video (or loads it when `playerVars.autoplay` is
 * on), like a host page would. Everything else is driven through the player's methods.
 */
export function usePlayer(containerRef: RefObject<HTMLElement | null>, options: PlayerOptions<Player>): Player | undefined {
  // Latest options, read by the player factory when it subscribes (after commit).
  const [latest] = useState(() => ({ options, startedWith: new WeakMap<Player, string | undefined>() }));
  latest.options = options;
  const [player$] = useState(() =>
    playerIn(
      () => containerRef.current,
      () => latest.options,
    ),
  );
  const player = useObservableState(player$);

  const { videoId } = options;
  const autoplay = options.playerVars?.autoplay;
  useEffect(() => {
    if (!player || videoId === undefined) return;
    if (!latest.startedWith.has(player)) {
      latest.startedWith.set(player, videoId);
      return;
    }
    if (latest.startedWith.get(player) === videoId) return;
    latest.startedWith.set(player, videoId);
    if (autoplay === 1 || autoplay === true || autoplay === '1') player.loadVideoById(videoId);
    else player.cueVideoById(videoId);
  }, [player, videoId, autoplay, latest]);
  return player;
}
