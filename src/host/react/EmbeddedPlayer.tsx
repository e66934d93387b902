import { type CSSProperties, type ReactElement, useLayoutEffect, useRef, useState } from 'react';
import type { Player } from '../sdk/Player';
import {
  PLAYER_EVENT_NAMES,
  type PlayerEvent,
  type PlayerEventDataMap,
  type PlayerEventName,
  type PlayerOptions,
  type PlayerStateValue,
  type PlayerVars,
} from '../sdk/types';
import { facadeBoxSize, PlayerFacade } from './PlayerFacade';
import { usePlayer } from './usePlayer';

/** One prop per event of the protocol (`onReady`, `onStateChange`, `onError`, `onPlaybackRateChange`, …). */
type Handlers = {
  [K in PlayerEventName]?: (event: PlayerEvent<PlayerEventDataMap[K], Player>) => void;
};

/** react-youtube's state shortcuts: called with the `onStateChange` event whose `data` is that state. */
interface StateHandlers {
  /** The state became 1 (playing). */
  onPlay?: (event: PlayerEvent<PlayerStateValue, Player>) => void;
  /** The state became 2 (paused). */
  onPause?: (event: PlayerEvent<PlayerStateValue, Player>) => void;
  /** The state became 0 (ended). */
  onEnd?: (event: PlayerEvent<PlayerStateValue, Player>) => void;
}

/** react-youtube's `opts`: the same as the top-level props, which win when both are given. */
export interface EmbeddedPlayerOpts {
  width?: number | string;
  height?: number | string;
  playerVars?: PlayerVars;
  host?: string;
}

export interface EmbeddedPlayerProps extends Handlers, StateHandlers {
  /** The video. A new one goes to the same iframe (loaded when `playerVars.autoplay` is on, else cued); none stops it. */
  videoId?: string;
  /** The embed origin (default: the page's origin, or the `/iframe_api` script's). A new one makes a new player. */
  host?: string;
  /** The iframe's size (default `100%`): a change resizes it. */
  width?: number | string;
  height?: number | string;
  /** The embed's player variables: a change (by value; `autoplay`, `start` and `end` aside) makes a new player. */
  playerVars?: PlayerVars;
  /** react-youtube's `{ width, height, playerVars, host }`. */
  opts?: EmbeddedPlayerOpts;
  /** The iframe's title (its accessible name); also the facade's label. */
  title?: string;
  /** The iframe's `id`. */
  id?: string;
  /** The container's class (default `vidframe-player`). */
  className?: string;
  /** The iframe's class. */
  iframeClassName?: string;
  /** The iframe's `loading` attribute: `lazy` lets the browser wait until the player is near the viewport. */
  loading?: 'lazy' | 'eager';
  /** The container's style. */
  style?: CSSProperties;
  /**
   * A poster and a play button instead of the player, until the viewer presses it ({@link PlayerFacade}): then the
   * player is created with autoplay and the focus moves into it. For pages with many players.
   */
  facade?: boolean;
  /** The facade's image (default: the embed origin's `/vi/{videoId}/poster`). */
  poster?: string;
  /** Called with the player once it exists, and with `undefined` when it is destroyed. */
  onPlayer?: (player: Player | undefined) => void;
}

const STATE_HANDLERS: Partial<Record<PlayerStateValue, keyof StateHandlers>> = { 0: 'onEnd', 1: 'onPlay', 2: 'onPause' };

/**
 * The embed as a React component, on par with react-youtube:
 * `<EmbeddedPlayer videoId="VFsunrise01" onPlay={(e) => …} onStateChange={(e) => …} />`. One iframe per mounted
 * component (StrictMode included), removed on unmount; see {@link usePlayer} for what a changed prop does. Event props
 * receive `{ target, data }` like `YT.Player` listeners and may change on every render without resubscribing anything.
 * With `facade`, nothing of the embed loads until the viewer presses play.
 */
export function EmbeddedPlayer({ facade = false, poster, ...props }: EmbeddedPlayerProps): ReactElement {
  const [activated, setActivated] = useState(false);
  if (facade && !activated) {
    const { videoId, title, className, style } = props;
    const width = props.width ?? props.opts?.width;
    const height = props.height ?? props.opts?.height;
    return (
      <PlayerFacade
        videoId={videoId}
        host={props.host ?? props.opts?.host}
        title={title}
        poster={poster}
        width={width}
        height={height}
        className={className}
        style={style}
        onActivate={() => setActivated(true)}
      />
    );
  }
  if (facade) {
    // The player takes the facade's place in the same box: its iframe fills the container.
    const box = { ...facadeBoxSize(props.width ?? props.opts?.width, props.height ?? props.opts?.height), ...props.style };
    return <LivePlayer {...props} style={box} fromFacade />;
  }
  return <LivePlayer {...props} fromFacade={false} />;
}

function LivePlayer({
  videoId,
  opts,
  host = opts?.host,
  width = opts?.width ?? '100%',
  height = opts?.height ?? '100%',
  playerVars = opts?.playerVars,
  title,
  id,
  className,
  iframeClassName,
  loading,
  style,
  onPlayer,
  onPlay,
  onPause,
  onEnd,
  fromFacade,
  ...handlers
}: Omit<EmbeddedPlayerProps, 'facade' | 'poster'> & { fromFacade: boolean }) {
  const containerRef = useRef<HTMLDivElement>(null);
  // Listeners are attached when the player is created (before the embed can answer) and call the latest props.
  const latest = useRef({ handlers: handlers as Handlers, stateHandlers: { onPlay, onPause, onEnd } as StateHandlers, onPlayer, focus: fromFacade });
  useLayoutEffect(() => {
    latest.current.handlers = handlers;
    latest.current.stateHandlers = { onPlay, onPause, onEnd };
    latest.current.onPlayer = onPlayer;
  });
  const [events] = useState(
    () =>
      Object.fromEntries(
        PLAYER_EVENT_NAMES.map((name) => [
          name,
          (event: PlayerEvent<never, Player>) => {
            (latest.current.handlers[name] as ((e: unknown) => void) | undefined)?.(event);
            if (name === 'onStateChange') {
              const shortcut = STATE_HANDLERS[event.data as PlayerStateValue];
              if (shortcut) latest.current.stateHandlers[shortcut]?.(event);
            }
          },
        ]),
      ) as PlayerOptions<Player>['events'],
  );
  // From the facade: the viewer asked to watch, so the video plays at once.
  const vars = fromFacade ? { ...playerVars, autoplay: 1 } : playerVars;
  const player = usePlayer(containerRef, {
    videoId,
    host,
    width,
    height,
    playerVars: vars,
    title,
    events,
    iframe: { id, className: iframeClassName, loading },
  });
  useLayoutEffect(() => {
    // The one object the ref holds (never replaced): the cleanup calls the `onPlayer` of the latest render.
    const props = latest.current;
    props.onPlayer?.(player);
    return () => props.onPlayer?.(undefined);
  }, [player, latest]);
  useLayoutEffect(() => {
    // The facade's button is gone: the focus goes to the player that replaced it, not back to the page's start.
    if (!player || !latest.current.focus) return;
    latest.current.focus = false;
    player.getIframe().focus();
  }, [player, latest]);
  return <div ref={containerRef} className={className ?? 'vidframe-player'} style={style} data-player-id={player?.id} />;
}
