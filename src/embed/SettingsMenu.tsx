import type { PlayerInfo } from '../../streams/player/types';
import type { EmbedPlayer } from './EmbedPlayer';

const rateLabel = (r: number) => (r === 1 ? 'Normal' : `${r}×`);
const QUALITY_LABELS: Record<string, string> = { tiny: '144p', small: '240p', medium: '360p', large: '480p', hd720: '720p', hd1080: '1080p', highres: '4K', auto: 'Auto' };

/**
 * The settings panel: playback speed (from the available rates), quality (from the available levels) and captions
 * (off or a track), each a group of radio menu items.
 */
export function SettingsMenu({ player, info, onClose }: { player: EmbedPlayer; info: PlayerInfo; onClose: () => void }) {
  const item = (key: string, label: string, checked: boolean, run: () => void) => (
    <button
      key={key}
      type="button"
      role="menuitemradio"
      aria-checked={checked}
      className="vf-menu-item"
      onClick={() => {
        run();
        onClose();
      }}
    >
      {label}
    </button>
  );
  return (
    <div className="vf-menu" role="menu" aria-label="Settings" onKeyDown={(e) => e.key === 'Escape' && onClose()}>
      <div className="vf-menu-group" role="group" aria-label="Playback speed">
        <div className="vf-menu-heading">Speed</div>
        {info.availablePlaybackRates.map((r) =>
          item(`rate-${r}`, rateLabel(r), r === info.playbackRate, () => player.command({ type: 'setPlaybackRate', rate: r })),
        )}
      </div>
      {info.availableQualityLevels.length > 0 && (
        <div className="vf-menu-group" role="group" aria-label="Quality">
          <div className="vf-menu-heading">Quality</div>
          {info.availableQualityLevels
            .filter((q) => q !== 'auto')
            .map((q) => item(`q-${q}`, QUALITY_LABELS[q] ?? q, q === info.playbackQuality, () => player.command({ type: 'setPlaybackQuality', quality: q })))}
        </div>
      )}
      {info.captionTracks.length > 0 && (
        <div className="vf-menu-group" role="group" aria-label="Subtitles">
          <div className="vf-menu-heading">Subtitles</div>
          {item('cc-off', 'Off', info.captionTrack === null, () => player.command({ type: 'setCaptions', enabled: false }))}
          {info.captionTracks.map((t) =>
            item(`cc-${t.languageCode}`, t.displayName, info.captionTrack?.languageCode === t.languageCode, () =>
              player.command({ type: 'setCaptions', enabled: true, languageCode: t.languageCode }),
            ),
          )}
        </div>
      )}
    </div>
  );
}
