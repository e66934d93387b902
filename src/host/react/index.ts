/** React bindings of the VidFrame host SDK (package export `vidframe/react`). */
export { EmbeddedPlayer, type EmbeddedPlayerProps } from './EmbeddedPlayer';
export { usePlayer } from './usePlayer';
export { usePlayerEvent } from './usePlayerEvent';
export { usePlayerApiInfo, usePlayerInfo, usePlayerState } from './usePlayerState';
export { playerIn, type PlayerInOptions } from './playerIn';
