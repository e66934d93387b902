import { useObservable, useObservableState } from 'observable-hooks';
import { combineLatest, distinctUntilChanged, interval, map, startWith } from 'rxjs';
import { ladderOf } from '../../../streams/player/playerModel';
import { STATS_PANEL_SAMPLE_MS } from '../../../streams/timing';
import type { EmbedPlayer } from '../player/EmbedPlayer';
import { type ElementSample, statsRows, type StatsRow } from './StatsPanel.state';
import { useI18n } from '../i18n/I18nContext';

/** The element's picture size and frame counts now (none before it is mounted, no counts where the browser has none). */
function sampleElement(el: HTMLVideoElement | null): ElementSample {
  if (!el) return { videoWidth: 0, videoHeight: 0, frames: null };
  const q = typeof el.getVideoPlaybackQuality === 'function' ? el.getVideoPlaybackQuality() : null;
  return {
    videoWidth: el.videoWidth,
    videoHeight: el.videoHeight,
    frames: q ? { dropped: q.droppedVideoFrames, total: q.totalVideoFrames } : null,
  };
}

const sameSample = (a: ElementSample, b: ElementSample) =>
  a.videoWidth === b.videoWidth && a.videoHeight === b.videoHeight && a.frames?.dropped === b.frames?.dropped && a.frames?.total === b.frames?.total;

/**
 * The "Stats for nerds" panel: what the player plays and how (video id, current and optimal resolution, codec,
 * bandwidth estimate, buffer health, dropped frames), for a viewer who wants to see why the picture looks as it does.
 * A labelled region over the video, not a modal: playback and the controls go on. Its text can be selected and
 * copied; it is not live (a screen reader is not interrupted every second). The element is sampled every
 * `STATS_PANEL_SAMPLE_MS` while it is open, and only then. Close or Escape (inside it) closes it.
 */
export function StatsPanel({ player, onClose }: { player: EmbedPlayer; onClose: () => void }) {
  const rows$ = useObservable(() =>
    combineLatest([
      player.model$,
      player.streamStats$,
      player.media$,
      // The first sample at once (the panel opens filled), then one a period.
      combineLatest([interval(STATS_PANEL_SAMPLE_MS).pipe(startWith(-1)), player.element$]).pipe(
        map(([, el]) => sampleElement(el)),
        distinctUntilChanged(sameSample),
      ),
    ]).pipe(
      map(([model, stream, media, element]) =>
        statsRows({
          videoId: model.response?.videoDetails?.videoId ?? model.videoId,
          quality: model.quality,
          ladder: model.streaming ? ladderOf(model.response) : [],
          stream,
          currentTime: media.currentTime,
          buffered: media.buffered,
          element,
        }),
      ),
    ),
  );
  const rows = useObservableState(rows$, [] as StatsRow[]);
  const { t } = useI18n();
  return (
    <div
      className="vf-stats"
      role="region"
      aria-labelledby="vf-stats-title"
      aria-live="off"
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.preventDefault();
        e.stopPropagation();
        onClose();
      }}
    >
      <div className="vf-stats-header">
        <h2 id="vf-stats-title" className="vf-stats-title">
          {t('statsForNerds')}
        </h2>
        <button type="button" className="vf-pill vf-stats-close" aria-label={t('closeStats')} onClick={onClose}>
          ×
        </button>
      </div>
      {/* The figures stay English in every language, as YouTube's: technical names, read as written. */}
      <dl className="vf-stats-list" lang="en" dir="ltr">
        {rows.map((row) => (
          <div key={row.label} className="vf-stats-row" data-stat={row.label}>
            <dt>{row.label}</dt>
            <dd>{row.value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
