import { combineLatest, distinctUntilChanged, map, type Observable } from 'rxjs';
import { PlayerState } from './playerState';
import type { PlayerReadiness } from './playerReadiness';
import type { PlayerInfo } from './types';
import { beyondTime, withPlaybackPhase, type PlaybackPhase } from './viewInfo';

/** What decides whether the viewer needs the controls' chunk before they reach for the player. */
export interface ControlsDemand {
  readiness: PlayerReadiness;
  info: PlayerInfo;
  phase: PlaybackPhase;
  failed: boolean;
  autoplayBlocked: boolean;
}

/**
 * Whether the page must show more than the video itself (what the first frame does not need loads on demand).
 * A video playing on its own — playing, buffering (the shell's stylesheet draws the spinner), looping by itself, or
 * not yet started while its autoplay is on the way — needs nothing until the viewer reaches for it: the controls
 * auto-hide while it plays anyway. Everything else does: a player not ready, a cued, paused or ended video (the big play
 * button, the title, the end screen), a failure (the error screen), a refused autoplay (its notice), captions on.
 */
export function controlsNeeded({ readiness, info, phase, failed, autoplayBlocked }: ControlsDemand): boolean {
  if (readiness !== 'ready' || failed || autoplayBlocked || info.captionTrack !== null) return true;
  return phase === 'other' && info.playerState !== PlayerState.UNSTARTED;
}

/** {@link controlsNeeded} over the player's streams, on each change of anything but the playback time. */
export function controlsNeeded$(player: {
  readiness$: Observable<PlayerReadiness>;
  info$: Observable<PlayerInfo>;
  error$: Observable<unknown>;
  autoplayBlocked$: Observable<boolean>;
}): Observable<boolean> {
  return combineLatest([player.readiness$, player.info$.pipe(beyondTime(), withPlaybackPhase()), player.error$, player.autoplayBlocked$]).pipe(
    map(([readiness, { info, phase }, error, autoplayBlocked]) => controlsNeeded({ readiness, info, phase, failed: error != null, autoplayBlocked })),
    distinctUntilChanged(),
  );
}
