import type { HostAction, HostMessageEvent } from '../../../streams/host/hostTypes';
import type { PlayerInfo } from '../../../streams/player/types';

export const HOST = 'https://host.example:8443';
/** Window stand-ins: only their identity matters to the protocol. */
export const hostWindow = { name: 'host', postMessage: () => undefined };
export const otherWindow = { name: 'other', postMessage: () => undefined };

export const VIDEO = 'VFsunrise01';

/** A full snapshot with every field the contract requires; `overrides` replaces top-level keys. */
export function makeInfo(overrides: Partial<PlayerInfo> = {}): PlayerInfo {
  return {
    playerState: 5,
    currentTime: 0,
    currentTimeLastUpdated_: 1_700_000_000,
    duration: 30,
    videoData: { video_id: VIDEO, title: 'Sunrise', author: 'VidFrame', isPlayable: true, errorCode: null },
    videoBytesLoaded: 0,
    videoBytesTotal: 1000,
    videoStartBytes: 0,
    videoLoadedFraction: 0,
    playbackQuality: 'medium',
    availableQualityLevels: ['medium', 'small', 'auto'],
    playbackRate: 1,
    availablePlaybackRates: [0.25, 0.5, 1, 1.5, 2],
    mediaReferenceTime: 0,
    videoUrl: `https://embed.example/watch?v=${VIDEO}`,
    videoEmbedCode: '<iframe></iframe>',
    videoContentRect: { left: 0, top: 0, width: 640, height: 360 },
    progressState: {
      current: 0,
      duration: 30,
      loaded: 0,
      seekableStart: 0,
      seekableEnd: 30,
      allowSeeking: true,
      clipStart: 0,
      clipEnd: null,
      displayedStart: 0,
      isAtLiveHead: false,
      offset: 0,
    },
    playlist: null,
    playlistIndex: -1,
    playlistId: null,
    muted: false,
    volume: 100,
    captionTracks: [],
    captionTrack: null,
    subtitlesUserSettings: {},
    sphericalProperties: {},
    size: { width: 640, height: 360 },
    loop: false,
    shuffle: false,
    videoKnown: true,
    ...overrides,
  };
}

export const wire = (o: object | string, origin = HOST, source: unknown = hostWindow): HostMessageEvent => ({
  data: typeof o === 'string' ? o : JSON.stringify(o),
  origin,
  source,
});
export const listening = (id = 1, origin = HOST, source: unknown = hostWindow) => wire({ event: 'listening', id, channel: 'widget' }, origin, source);
/** The bare form some clients send once: no id, no channel. */
export const bareListening = (origin = HOST, source: unknown = hostWindow) => wire({ event: 'listening' }, origin, source);
export const command = (func: string, args?: unknown, origin = HOST, source: unknown = hostWindow) =>
  wire({ event: 'command', func, args, id: 1, channel: 'widget' }, origin, source);

/**
 * A short readable name for an action, so marble diagrams stay legible: `I` initialDelivery, `R` onReady,
 * `post:<event>=<info>` for other posts, `cmd:<type>` for commands.
 */
export function label(a: HostAction): string {
  if (a.type === 'command') return `cmd:${a.command.type}`;
  const { event, info } = a.message;
  if (event === 'initialDelivery') return 'I';
  if (event === 'onReady') return 'R';
  if (event === 'infoDelivery')
    return `info:${Object.keys(info as object)
      .sort()
      .join(',')}`;
  return info === undefined || info === null ? event : `${event}=${JSON.stringify(info)}`;
}
