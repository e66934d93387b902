/** React bindings of the VidFrame host SDK (package export `vidframe/react`). */
export { EmbeddedPlayer, type EmbeddedPlayerOpts, type EmbeddedPlayerProps } from './EmbeddedPlayer';
export { PlayerFacade, type PlayerFacadeProps, posterUrl } from './PlayerFacade';
export { usePlayer, type IframeAttributes, type UsePlayerOptions } from './usePlayer';
export { usePlayerEvent } from './usePlayerEvent';
export { usePlayerApiInfo, usePlayerInfo, usePlayerState } from './usePlayerState';
export { playerIn, type PlayerInOptions } from './playerIn';
export { playerResetKey } from './playerResetKey';
export { default, type YouTubeEvent, type YouTubePlayer, type YouTubeProps } from './YouTube';
