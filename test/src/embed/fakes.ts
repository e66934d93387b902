import { BehaviorSubject, EMPTY } from 'rxjs';
import type { EmbedPlayer, PlayerError } from '../../../src/embed/player/EmbedPlayer';
import type { Identity, Session, SignInStatus } from '../../../src/embed/services/identity';
import type { PlayerConfig } from '../../../streams/config/playerConfig';
import { initialPlayerModel } from '../../../streams/player/playerModel';
import { PlayerState, type PlayerStateValue } from '../../../streams/player/playerState';

/**
 * What the player feed and the page's telemetry read from the player, and nothing else: the configuration, the element
 * (none by default), the state (cued by default), loading, no error, no video data or rendition yet, the first model.
 */
export function fakeFeedPlayer(
  config: PlayerConfig,
  { element = null, state = PlayerState.CUED }: { element?: HTMLVideoElement | null; state?: PlayerStateValue } = {},
): EmbedPlayer {
  return {
    config,
    element$: new BehaviorSubject<HTMLVideoElement | null>(element),
    state$: new BehaviorSubject<PlayerStateValue>(state),
    readiness$: new BehaviorSubject<'loading' | 'ready'>('loading'),
    error$: new BehaviorSubject<PlayerError | null>(null),
    format: undefined,
    // Read by the debugging events (video_stats): the current video and the rendition playing.
    videoData$: new BehaviorSubject(null),
    quality$: new BehaviorSubject(''),
    // Read by the quality-of-experience events: the adaptive stream's decisions and estimates (none: no stream).
    streamEvents$: EMPTY,
    // Read by the navigation state and the video loads.
    model$: new BehaviorSubject(initialPlayerModel(config)),
  } as unknown as EmbedPlayer;
}

/** An anonymous viewer: no access token, no delegation (the identity's own behaviour is tested in identity.spec). */
export const anonymousIdentity = (): Identity => ({
  session$: new BehaviorSubject<Session | null>(null),
  status$: new BehaviorSubject<SignInStatus>({ state: 'idle' }),
  visitorData: () => undefined,
  credentials: () => ({}),
  delegatedSessionId: () => undefined,
  consistencyTokenJars: () => [],
  absorbResponse: () => undefined,
  signIn: async () => undefined,
  signOut: async () => undefined,
  stop: () => undefined,
});
