import type { EmbedPlayer } from '../player/EmbedPlayer';
import { MutedIcon, VolumeIcon } from './icons';
import { useI18n } from '../i18n/I18nContext';

/** Mute toggle and a 0–100 volume slider; the slider shows 0 while muted. */
export function VolumeControl({ player, volume, muted }: { player: EmbedPlayer; volume: number; muted: boolean }) {
  const silent = muted || volume === 0;
  const { t } = useI18n();
  return (
    <div className="vf-volume">
      <button
        type="button"
        className="vf-button vf-mute"
        aria-label={t(silent ? 'unmuteM' : 'muteM')}
        aria-pressed={silent}
        onClick={() => player.command({ type: silent ? 'unMute' : 'mute' })}
      >
        {silent ? <MutedIcon /> : <VolumeIcon />}
      </button>
      <input
        className="vf-volume-slider"
        type="range"
        min={0}
        max={100}
        step={1}
        aria-label={t('volume')}
        value={muted ? 0 : volume}
        style={{ ['--vf-fill' as string]: `${muted ? 0 : volume}%` }}
        onChange={(e) => {
          const v = Number(e.currentTarget.value);
          player.command({ type: 'setVolume', volume: v });
          if (muted && v > 0) player.command({ type: 'unMute' });
        }}
      />
    </div>
  );
}
