import { type CSSProperties, useLayoutEffect, useRef, useState } from 'react';
import type { Player } from '../sdk/Player';
import { PLAYER_EVENT_NAMES, type PlayerEvent, type PlayerEventDataMap, type PlayerEventName, type PlayerOptions, type PlayerVars } from '../sdk/types';
import { usePlayer } from './usePlayer';

type Handlers = {
  [K in PlayerEventName]?: (event: PlayerEvent<PlayerEventDataMap[K], Player>) => void;
};

export interface EmbeddedPlayerProps extends Handlers {
  /** The video; changing it later cues the new one (loads it when `playerVars.autoplay` is on). */
  videoId?: string;
  /** The embed origin (default: the page's origin, or the `/iframe_api` script's). */
  host?: string;
  width?: number | string;
  height?: number | string;
  playerVars?: PlayerVars;
  title?: string;
  className?: string;
  style?: CSSProperties;
  /** Called with the player once it exists, and with `undefined` when it is destroyed. */
  onPlayer?: (player: Player | undefined) => void;
}


/**
 * The embed as a React component: `<EmbeddedPlayer videoId="VFsunrise01" onStateChange={(e) => …} />`. One iframe
 * per mounted component (StrictMode included), removed on unmount. Event props receive `{ target, data }` like
 * `YT.Player` listeners; they may change on every render without resubscribing anything.
 */
export function EmbeddedPlayer({ videoId, host, width = '100%', height = '100%', playerVars, title, className, style, onPlayer, ...handlers }: EmbeddedPlayerProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  // Listeners are attached when the player is created (before the embed can answer) and call the latest props.
  const [latest] = useState(() => ({ handlers: handlers as Handlers, onPlayer }));
  useLayoutEffect(() => {
    latest.handlers = handlers;
    latest.onPlayer = onPlayer;
  });
  const [events] = useState(() =>
    Object.fromEntries(
      PLAYER_EVENT_NAMES.map((name) => [name, (event: PlayerEvent<never, Player>) => (latest.handlers[name] as ((e: unknown) => void) | undefined)?.(event)]),
    ) as PlayerOptions<Player>['events'],
  );
  const player = usePlayer(containerRef, { videoId, host, width, height, playerVars, title, events });
  useLayoutEffect(() => {
    latest.onPlayer?.(player);
    return () => latest.onPlayer?.(undefined);
  }, [player, latest]);
  return <div ref={containerRef} className={className ?? 'vidframe-player'} style={style} data-player-id={player?.id} />;
}
