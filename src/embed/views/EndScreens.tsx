import { PlayerState } from '../../../streams/player/playerState';
import type { PlayerInfo } from '../../../streams/player/types';
import type { EmbedPlayer, VideoData } from '../player/EmbedPlayer';
import type { SuggestionLoader } from '../services/suggestions';
import { EndScreen } from './EmbedOverlays';
import { MoreVideos, SuggestionList, useSuggestions } from './Suggestions';
import type { ViewerActions } from './viewerActions';

/**
 * The screens of a video that stopped: at its end (not a loop's), the end screen with the suggested videos; paused
 * after its start, the "More videos" strip. A suggestion loads through the player's own `loadVideo` command.
 */
export function EndScreens({
  player,
  info,
  looping,
  failed,
  videoData,
  hasNext,
  actions,
  suggest,
}: {
  player: EmbedPlayer;
  info: PlayerInfo;
  looping: boolean;
  failed: boolean;
  videoData: VideoData | null;
  hasNext: boolean;
  actions?: ViewerActions;
  suggest?: SuggestionLoader;
}) {
  const ended = info.playerState === PlayerState.ENDED && !failed && !looping;
  const pausedAfterStart = info.playerState === PlayerState.PAUSED && !failed && info.currentTime > 0;
  const suggestions = useSuggestions(suggest, videoData?.videoId, ended || pausedAfterStart);
  const openVideo = (videoId: string) => player.command({ type: 'loadVideo', options: { videoId }, autoplay: true });
  return (
    <>
      {pausedAfterStart && <MoreVideos suggestions={suggestions} onOpen={openVideo} />}
      {ended && (
        <EndScreen hasNext={hasNext} actions={actions} onReplay={() => player.command({ type: 'play' })} onNext={() => player.command({ type: 'nextVideo' })}>
          {suggestions.length > 0 && <SuggestionList suggestions={suggestions} onOpen={openVideo} className="vf-end-suggestions" />}
        </EndScreen>
      )}
    </>
  );
}
