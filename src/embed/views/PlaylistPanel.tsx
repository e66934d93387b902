import { useObservableEagerState } from 'observable-hooks';
import type { EmbedPlayer } from '../player/EmbedPlayer';
import { useI18n } from '../i18n/I18nContext';

/** The playlist: its title and items (the one playing marked); choosing one plays it. */
export function PlaylistPanel({ player, index, onClose }: { player: EmbedPlayer; index: number; onClose: () => void }) {
  const model = useObservableEagerState(player.model$);
  const p = model.playlist;
  const { t, number } = useI18n();
  if (!p) return null;
  return (
    <nav className="vf-playlist" aria-label={t('playlist')}>
      <div className="vf-playlist-head">
        <span className="vf-playlist-title">{p.title ?? t('playlist')}</span>
        <span className="vf-playlist-pos">{t('playlistPosition', { index: number(index + 1), count: number(p.ids.length) })}</span>
        <button type="button" className="vf-button vf-playlist-close" aria-label={t('closePlaylist')} onClick={onClose}>
          ×
        </button>
      </div>
      <ol className="vf-playlist-items">
        {p.ids.map((id, i) => (
          <li key={`${id}-${i}`}>
            <button
              type="button"
              className="vf-playlist-item"
              aria-current={i === index ? 'true' : undefined}
              onClick={() => player.command({ type: 'playVideoAt', index: i })}
            >
              <span className="vf-playlist-num">{i === index ? '▶' : number(i + 1)}</span>
              <span>{p.titles[id] ?? id}</span>
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
}
