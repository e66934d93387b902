import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useObservable, useObservableState } from 'observable-hooks';
import { type Observable, switchMap, tap } from 'rxjs';
import type { Player } from '../sdk/Player';
import type { PlayerOptions, PlayerVarValue, VideoByIdOptions } from '../sdk/types';
import { playerIn } from './playerIn';
import { playerResetKey } from './playerResetKey';

/** Attributes of the player's iframe that the component keeps (the SDK creates the iframe itself). */
export interface IframeAttributes {
  /** The iframe's `id`. */
  id?: string;
  /** The iframe's `class`. */
  className?: string;
  /** The iframe's `loading`: set before the iframe enters the document, the only moment the browser reads it. */
  loading?: 'lazy' | 'eager';
}

export interface UsePlayerOptions extends PlayerOptions<Player> {
  /** See {@link IframeAttributes}; `title` (of {@link PlayerOptions}) is kept up to date the same way. */
  iframe?: IframeAttributes;
}

/** The SDK's default title, put back when a `title` is removed. */
const DEFAULT_TITLE = 'VidFrame video player';

const isOn = (value: PlayerVarValue) => value === 1 || value === true || value === '1' || value === 'true';
const seconds = (value: PlayerVarValue) =>
  value === undefined || value === null || value === '' || !Number.isFinite(Number(value)) ? undefined : Number(value);

/** What a player shows: the video and its start and end. */
const videoKeyOf = ({ videoId, playerVars = {} }: Pick<PlayerOptions, 'videoId' | 'playerVars'>) => {
  const vars = playerVars as Record<string, PlayerVarValue>;
  return JSON.stringify([videoId ?? null, seconds(vars.start) ?? null, seconds(vars.end) ?? null]);
};
const sizeKeyOf = ({ width, height }: Pick<PlayerOptions, 'width' | 'height'>) => `${String(width)}×${String(height)}`;

function setOrRemove(iframe: HTMLIFrameElement, name: string, value: string | undefined): void {
  if (value === undefined || value === '') iframe.removeAttribute(name);
  else if (iframe.getAttribute(name) !== value) iframe.setAttribute(name, value);
}

/**
 * A {@link Player} inside `containerRef`'s element, created when the component mounts (once under StrictMode too:
 * see {@link playerIn}) and destroyed when it unmounts; `undefined` until then. Afterwards, as react-youtube does:
 *
 * - a new `videoId` (or `playerVars.start` / `end`) goes to the same iframe: `loadVideoById` when
 *   `playerVars.autoplay` is on, else `cueVideoById`; a removed `videoId` stops the video;
 * - new `playerVars` (by value, apart from `autoplay`, `start` and `end`) or a new `host` make a new player: the embed
 *   reads its variables when it loads, so the old iframe is replaced;
 * - a new `width` / `height` resizes the iframe (`setSize` when both are numbers, so the embed hears it too);
 * - `title` and `iframe` ({@link IframeAttributes}) are kept on the iframe.
 *
 * Everything else is driven through the player's methods.
 */
export function usePlayer(containerRef: RefObject<HTMLElement | null>, options: UsePlayerOptions): Player | undefined {
  const { iframe: attributes, ...playerOptions } = options;
  // What each player shows and how big it is (a change is sent only when it differs), and the player of the latest reset
  // key, shared: StrictMode's second subscription gets the same one.
  // Both are recorded when a player is created, from the very options it was created with: a render that brings a
  // new player and a new `videoId` at once (the parent's effect set it in the same flush) still sends the new video.
  const [players] = useState(() => ({
    current: undefined as { key: string; player$: Observable<Player> } | undefined,
    /** The reset key each player was created for: a player about to be replaced is sent nothing. */
    key: new WeakMap<Player, string>(),
    video: new WeakMap<Player, string>(),
    size: new WeakMap<Player, string>(),
  }));
  // The latest options, read when a player is created. Updated in a layout effect, which runs before the passive
  // effect in which `useObservable` hands a new reset key on (and `useObservableState` subscribes), so a player is
  // always created with the options of the render that asked for it.
  const latest = useRef({ options: playerOptions, attributes });
  useLayoutEffect(() => {
    latest.current.options = playerOptions;
    latest.current.attributes = attributes;
  });

  const resetKey = playerResetKey(playerOptions);
  const player$ = useObservable(
    (inputs$) =>
      inputs$.pipe(
        switchMap(([key]) => {
          if (players.current?.key !== key) {
            const prepareIframe = (iframe: HTMLIFrameElement) => {
              const { id, className, loading } = latest.current.attributes ?? {};
              setOrRemove(iframe, 'id', id);
              setOrRemove(iframe, 'class', className);
              setOrRemove(iframe, 'loading', loading);
            };
            let createdWith: PlayerOptions<Player> | undefined;
            players.current = {
              key,
              player$: playerIn(
                () => containerRef.current,
                () => (createdWith = latest.current.options),
                { prepareIframe },
              ).pipe(
                tap((player) => {
                  // Once per player (a later subscriber gets it replayed).
                  if (players.key.has(player) || !createdWith) return;
                  players.key.set(player, key);
                  players.video.set(player, videoKeyOf(createdWith));
                  players.size.set(player, sizeKeyOf(createdWith));
                }),
              ),
            };
          }
          return players.current.player$;
        }),
      ),
    [resetKey],
  );
  const player = useObservableState(player$);

  const { id, className, loading } = attributes ?? {};
  const { title } = playerOptions;
  useLayoutEffect(() => {
    if (!player) return;
    const iframe = player.getIframe();
    setOrRemove(iframe, 'id', id);
    setOrRemove(iframe, 'class', className);
    setOrRemove(iframe, 'loading', loading);
    setOrRemove(iframe, 'title', title || DEFAULT_TITLE);
  }, [player, id, className, loading, title]);

  const { width, height, videoId } = playerOptions;
  useEffect(() => {
    if (!player || players.key.get(player) !== resetKey) return;
    const size = sizeKeyOf({ width, height });
    const known = players.size.get(player);
    players.size.set(player, size);
    if (known === size) return;
    if (typeof width === 'number' && typeof height === 'number' && Number.isFinite(width) && Number.isFinite(height)) {
      player.setSize(width, height);
    } else {
      const iframe = player.getIframe();
      setOrRemove(iframe, 'width', width === undefined ? undefined : String(width));
      setOrRemove(iframe, 'height', height === undefined ? undefined : String(height));
    }
  }, [player, width, height, players, resetKey]);

  const vars = playerOptions.playerVars ?? {};
  const autoplay = isOn(vars.autoplay);
  const startSeconds = seconds(vars.start);
  const endSeconds = seconds(vars.end);
  useEffect(() => {
    // A player about to be replaced (new `playerVars` or `host`) is sent nothing: its successor is created with the
    // new video.
    if (!player || players.key.get(player) !== resetKey) return;
    const video = videoKeyOf({ videoId, playerVars: { start: startSeconds, end: endSeconds } });
    const known = players.video.get(player);
    players.video.set(player, video);
    if (known === video) return;
    if (videoId === undefined) {
      player.stopVideo();
      return;
    }
    const request: VideoByIdOptions = { videoId };
    if (startSeconds !== undefined) request.startSeconds = startSeconds;
    if (endSeconds !== undefined) request.endSeconds = endSeconds;
    // The short form when there is nothing but the id: what a host page would write.
    if (autoplay) {
      if (Object.keys(request).length === 1) player.loadVideoById(videoId);
      else player.loadVideoById(request);
    } else if (Object.keys(request).length === 1) player.cueVideoById(videoId);
    else player.cueVideoById(request);
  }, [player, videoId, startSeconds, endSeconds, autoplay, players, resetKey]);
  return player;
}
