/** Events a host may subscribe to with `addEventListener` (host-protocol §5; `onReady` only comes from the handshake). */
export const FORWARDABLE_HOST_EVENTS = [
  'onStateChange',
  'onError',
  'onPlaybackQualityChange',
  'onPlaybackRateChange',
  'onVolumeChange',
  'onApiChange',
  'onAutoplayBlocked',
  'onVideoProgress',
] as const;
