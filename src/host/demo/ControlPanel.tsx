import type { Player } from '../sdk/Player';
import type { PlayerInfoCache } from '../sdk/types';
import type { Catalog } from './catalog';
import { playbackReadings } from './ControlPanel.state';
import { LoadControls } from './controls/LoadControls';
import { PlaybackControls } from './controls/PlaybackControls';
import { PlaylistControls } from './controls/PlaylistControls';
import { SizeControls } from './controls/SizeControls';
import { SoundControls } from './controls/SoundControls';
import { TrackControls } from './controls/TrackControls';

interface ControlPanelProps {
  player: Player | undefined;
  info: PlayerInfoCache;
  /** The caption language shown (`getOption('captions', 'track')`), `''` when off. */
  captionLanguage: string;
  catalog: Catalog;
  embedHost: string;
  /** The video the page loaded first: the load fields start at it, then follow the video the player has loaded. */
  initialVideoId: string;
}

/** Every command of the host protocol, each a button or a small form calling the SDK. */
export function ControlPanel({ player, info, captionLanguage, catalog, embedHost, initialVideoId }: ControlPanelProps) {
  const disabled = player === undefined;
  const { duration, currentTime, volume, rates, qualities, tracks } = playbackReadings(info);
  return (
    <section className="controls card" aria-label="Controls">
      <h2>Controls</h2>
      <LoadControls player={player} disabled={disabled} info={info} catalog={catalog} embedHost={embedHost} initialVideoId={initialVideoId} />
      <PlaylistControls player={player} disabled={disabled} catalog={catalog} />
      <PlaybackControls player={player} disabled={disabled} duration={duration} currentTime={currentTime} />
      <SoundControls player={player} disabled={disabled} volume={volume} muted={info.muted} />
      <TrackControls player={player} disabled={disabled} info={info} rates={rates} qualities={qualities} tracks={tracks} captionLanguage={captionLanguage} />
      <SizeControls player={player} disabled={disabled} />
    </section>
  );
}
