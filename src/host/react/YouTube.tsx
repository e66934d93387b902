import { Component, type ReactElement } from 'react';
import { PlayerState } from '../../../streams/player/playerState';
import type { Player } from '../sdk/Player';
import type { PlayerEvent, PlayerEventDataMap, PlayerEventName } from '../sdk/types';
import { EmbeddedPlayer, type EmbeddedPlayerProps } from './EmbeddedPlayer';

/** A method of the player with its result as a promise (two overloads kept, which covers the player's methods). */
type Promised<F> = F extends { (...args: infer A1): infer R1; (...args: infer A2): infer R2 }
  ? ((...args: A1) => Promise<Awaited<R1>>) & ((...args: A2) => Promise<Awaited<R2>>)
  : F extends (...args: infer A) => infer R
    ? (...args: A) => Promise<Awaited<R>>
    : F;

/** The player events by their short names, as youtube-player's `on` takes them (`ready`, `stateChange`, …). */
type ShortEventName<K> = K extends `on${infer Rest}` ? Uncapitalize<Rest> : never;

/**
 * What react-youtube's `getInternalPlayer()` returns (youtube-player's wrapper): the player's methods, each returning a
 * promise of its result (`await player.getCurrentTime()`, `player.playVideo().then(…)`), and `on(name, listener)`.
 */
export type YouTubePlayer = { [K in keyof Player]: Promised<Player[K]> } & {
  /** Listens to an event by its short name (`on('stateChange', …)` is `addEventListener('onStateChange', …)`). */
  on<N extends ShortEventName<PlayerEventName>>(
    name: N,
    listener: (event: PlayerEvent<PlayerEventDataMap[`on${Capitalize<N>}` & PlayerEventName], Player>) => void,
  ): void;
};

/** An event as react-youtube's props receive it: `target` is the player (its methods answer at once), `data` the value. */
export type YouTubeEvent<T = unknown> = PlayerEvent<T, Player>;

/** react-youtube's props (see {@link EmbeddedPlayerProps}; `onPlayer` also hands the player over). */
export type YouTubeProps = EmbeddedPlayerProps;

/** youtube-player's `on`: `ready` → `onReady`. */
const longEventName = (name: string) => `on${name.charAt(0).toUpperCase()}${name.slice(1)}`;

/** The promising view of `player`: one function per method, made on first use and kept (stable identities). */
function promisedPlayer(player: Player): YouTubePlayer {
  const made = new Map<PropertyKey, unknown>();
  return new Proxy(player, {
    get(target, name) {
      if (made.has(name)) return made.get(name);
      let value: unknown;
      if (name === 'on') {
        value = (short: string, listener: (event: PlayerEvent<never, Player>) => void) =>
          target.addEventListener(longEventName(short), listener as (event: PlayerEvent) => void);
      } else {
        const member: unknown = Reflect.get(target, name, target);
        if (typeof member !== 'function') return member;
        value = (...args: unknown[]) => new Promise((resolve) => resolve((member as (...a: unknown[]) => unknown).apply(target, args)));
      }
      made.set(name, value);
      return value;
    },
  }) as unknown as YouTubePlayer;
}

/**
 * The drop-in for react-youtube (`import YouTube from 'vidframe/react'` where an app had `import YouTube from
 * 'react-youtube'`): a class component, so that a ref holds it and `ref.current.getInternalPlayer()` answers, with
 * `YouTube.PlayerState` and react-youtube's props. It renders {@link EmbeddedPlayer}, which does the work. A class and
 * no hook of its own: it runs on every React the binding supports.
 */
export default class YouTube extends Component<YouTubeProps> {
  /** The player states: `YouTube.PlayerState.PLAYING === 1`. */
  static readonly PlayerState = PlayerState;

  /** The player (promising view, see {@link YouTubePlayer}) while one exists, else `null`. */
  internalPlayer: YouTubePlayer | null = null;

  /** The player itself (methods answering at once), while one exists. */
  player: Player | null = null;

  private readonly handlePlayer = (player: Player | undefined) => {
    this.player = player ?? null;
    this.internalPlayer = player ? promisedPlayer(player) : null;
    this.props.onPlayer?.(player);
  };

  /** react-youtube's accessor: {@link YouTube.internalPlayer}. */
  getInternalPlayer = (): YouTubePlayer | null => this.internalPlayer;

  override render(): ReactElement {
    return <EmbeddedPlayer {...this.props} onPlayer={this.handlePlayer} />;
  }
}
