import type { PlayerInfoCache } from '../../sdk/types';
import { ControlGroup, type GroupProps } from './ControlGroup';

interface TrackControlsProps extends GroupProps {
  info: PlayerInfoCache;
  rates: readonly number[];
  qualities: readonly string[];
  tracks: NonNullable<PlayerInfoCache['captionTracks']>;
  /** The caption language shown, `''` when off. */
  captionLanguage: string;
}

/** Speed, quality and captions: each a select of what the video offers. */
export function TrackControls({ player, disabled, info, rates, qualities, tracks, captionLanguage }: TrackControlsProps) {
  return (
    <ControlGroup title="Speed, quality, captions">
      <div className="row">
        <label>
          <span>Speed</span>
          <select
            value={String(info.playbackRate ?? 1)}
            disabled={disabled}
            onChange={(e) => player?.setPlaybackRate(Number(e.target.value))}
            data-testid="rate-select"
          >
            {rates.map((r) => (
              <option key={r} value={String(r)}>
                {r}×
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Quality</span>
          <select
            value={info.playbackQuality ?? ''}
            disabled={disabled}
            onChange={(e) => player?.setPlaybackQuality(e.target.value)}
            data-testid="quality-select"
          >
            {!qualities.includes(info.playbackQuality ?? '') && <option value={info.playbackQuality ?? ''}>{info.playbackQuality || '—'}</option>}
            {qualities.map((q) => (
              <option key={q} value={q}>
                {q}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Captions</span>
          <select
            value={captionLanguage}
            disabled={disabled}
            onChange={(e) => player?.setOption('captions', 'track', e.target.value ? { languageCode: e.target.value } : {})}
            data-testid="captions-select"
          >
            <option value="">Off</option>
            {tracks.map((t) => (
              <option key={t.languageCode} value={t.languageCode}>
                {t.displayName || t.languageName || t.languageCode}
              </option>
            ))}
          </select>
        </label>
      </div>
    </ControlGroup>
  );
}
