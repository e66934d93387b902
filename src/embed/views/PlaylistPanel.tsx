import { useObservableEagerState } from 'observable-hooks';
import type { EmbedPlayer } from '../player/EmbedPlayer';

/** The playlist: its title and items (the one playing marked); choosing one plays it. */
export function PlaylistPanel({ player, index, onClose }: { player: EmbedPlayer; index: number; onClose: () => void }) {
  const model = useObservableEagerState(player.model$);
  const p = model.playlist;
  if (!p) return null;
  return (
    <nav className="vf-playlist" aria-label="Playlist">
      <div className="vf-playlist-head">
        <span className="vf-playlist-title">{p.title ?? 'Playlist'}</span>
        <span className="vf-playlist-pos">
          {index + 1} / {p.ids.length}
        </span>
        <button type="button" className="vf-button vf-playlist-close" aria-label="Close playlist" onClick={onClose}>
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
              <span className="vf-playlist-num">{i === index ? '▶' : i + 1}</span>
              <span>{p.titles[id] ?? id}</span>
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
}
