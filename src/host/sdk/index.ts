/**
 * The VidFrame host SDK (ESM): a `YT.Player`-compatible {@link Player} with RxJS observables, for host pages that
 * bundle their code. React bindings are in `src/host/react` (package export `vidframe/react`).
 */
export { Player } from './Player';
export { PlayerState } from '../../../streams/player/playerState';
export { buildEmbedUrl, normalizeHost } from './buildEmbedUrl';
export { isValidVideoId } from './isValidVideoId';
export { defaultHost, setDefaultHost } from './defaultHost';
export { extrapolateCurrentTime } from './extrapolateCurrentTime';
export { mergeDelivery } from './mergeDelivery';
export { parseEmbedMessage, type EmbedMessage } from './parseEmbedMessage';
export { installIframeApi, type IframeApiNamespace } from './installIframeApi';
export { PLAYER_EVENT_NAMES, toVideoQuality } from './types';
export type {
  ApiInfo,
  PlayerEvent,
  PlayerEventDataMap,
  PlayerEventHandlers,
  PlayerEventName,
  PlayerInfo,
  PlayerInfoCache,
  PlayerListener,
  PlayerOptions,
  PlayerStateValue,
  KnownPlayerEventHandlers,
  KnownPlayerVars,
  PlayerVarValue,
  PlayerVars,
  PlaylistOptions,
  SphericalProperties,
  VideoByIdOptions,
  VideoByUrlOptions,
  VideoDataOf,
  VideoQuality,
} from './types';
