import { distinctUntilChanged, map, type Observable, Subscription } from 'rxjs';
import {
  MEDIA_SESSION_ACTIONS,
  mediaSessionCommand,
  mediaSessionMetadata,
  mediaSessionPlaybackState,
  mediaSessionPosition,
  offeredMediaSessionActions,
} from '../../../streams/player/mediaSession';
import { isTimeJump } from '../../../streams/host/hostDeliveries';
import type { PlayerStateValue } from '../../../streams/player/playerState';
import type { PlayerCommand, PlayerInfo } from '../../../streams/player/types';
import type { VideoData } from './nextVideoData';

/** What the Media Session needs of the player. */
export interface MediaSessionPlayer {
  videoData$: Observable<VideoData | null>;
  state$: Observable<PlayerStateValue>;
  info$: Observable<PlayerInfo>;
  command(command: PlayerCommand): void;
}

/** Whether the session's position must be set again between two snapshots (what steady playback does not explain). */
const positionMoved = (before: PlayerInfo, now: PlayerInfo): boolean =>
  before.duration !== now.duration || before.playbackRate !== now.playbackRate || before.playerState !== now.playerState || isTimeJump(before, now);

/**
 * The page's Media Session: the operating system's media keys, lock screen and notification show the video (its title,
 * channel and poster), its state and position, and act on the player (play, pause, stop, seek, and the previous or next
 * video of a playlist). Nothing where the browser has no Media Session. Returns what keeps it current.
 */
export function bindMediaSession(player: MediaSessionPlayer, nav: Navigator, MetadataOf = globalThis.MediaMetadata): Subscription {
  const subscription = new Subscription();
  const session = nav.mediaSession;
  if (!session || typeof MetadataOf !== 'function') return subscription;
  let at = { currentTime: 0, duration: 0 };
  subscription.add(
    player.videoData$.subscribe((data) => {
      const metadata = mediaSessionMetadata(data);
      session.metadata = metadata ? new MetadataOf(metadata) : null;
    }),
  );
  subscription.add(player.state$.subscribe((state) => (session.playbackState = mediaSessionPlaybackState(state))));
  subscription.add(player.info$.subscribe((info) => (at = { currentTime: info.currentTime, duration: info.duration })));
  // The browser moves the position on by itself at the rate it was given: it is set again only when that stops being
  // true (a seek, a pause or play, another rate or length), not on every playback tick.
  subscription.add(
    player.info$.pipe(distinctUntilChanged((before, now) => !positionMoved(before, now))).subscribe((info) => {
      try {
        session.setPositionState(mediaSessionPosition(info) ?? undefined);
      } catch {
        // A state the browser refuses (a length it does not accept yet) is left as it was.
      }
    }),
  );
  subscription.add(
    player.info$
      .pipe(
        map((info) => (info.playlist?.length ?? 0) > 0),
        distinctUntilChanged(),
        map(offeredMediaSessionActions),
      )
      .subscribe((offered) => {
        for (const action of MEDIA_SESSION_ACTIONS) {
          const handler = offered.includes(action)
            ? (details: MediaSessionActionDetails) => {
                const command = mediaSessionCommand(action, details, at);
                if (command) player.command(command);
              }
            : null;
          try {
            session.setActionHandler(action, handler);
          } catch {
            // An action this browser does not know.
          }
        }
      }),
  );
  subscription.add(() => {
    session.metadata = null;
    for (const action of MEDIA_SESSION_ACTIONS) {
      try {
        session.setActionHandler(action, null);
      } catch {
        // An action this browser does not know.
      }
    }
  });
  return subscription;
}
