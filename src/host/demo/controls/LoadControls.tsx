import type { PlayerInfoCache } from '../../sdk/types';
import type { Catalog } from '../catalog';
import { useLoadFields } from '../ControlPanel.state';
import { ControlGroup, type GroupProps, onSubmit } from './ControlGroup';

interface LoadControlsProps extends GroupProps {
  info: PlayerInfoCache;
  catalog: Catalog;
  embedHost: string;
  initialVideoId: string;
}

/** Load or cue a video: from the catalogue, by id or by media URL. */
export function LoadControls({ player, disabled, info, catalog, embedHost, initialVideoId }: LoadControlsProps) {
  const { catalogId, setCatalogId, videoId, setVideoId, mediaUrl, setMediaUrl } = useLoadFields(info, catalog, embedHost, initialVideoId);
  return (
    <ControlGroup title="Load a video">
      <form className="row" onSubmit={onSubmit(() => player?.loadVideoById(catalogId))}>
        <label className="grow">
          <span>Catalogue</span>
          <select value={catalogId} onChange={(e) => setCatalogId(e.target.value)} data-testid="catalog-select">
            {catalog.videos.map((v) => (
              <option key={v.id} value={v.id}>
                {v.title} · {v.id}
                {v.embeddable === false ? ' (not embeddable)' : ''}
              </option>
            ))}
            {catalog.videos.length === 0 && <option value={catalogId}>{catalogId}</option>}
          </select>
        </label>
        <button type="submit" disabled={disabled} data-testid="catalog-load">
          Load
        </button>
        <button type="button" disabled={disabled} onClick={() => player?.cueVideoById(catalogId)} data-testid="catalog-cue">
          Cue
        </button>
      </form>
      <form className="row" onSubmit={onSubmit(() => player?.loadVideoById({ videoId: videoId.trim(), startSeconds: 0 }))}>
        <label className="grow">
          <span>Video id</span>
          <input value={videoId} onChange={(e) => setVideoId(e.target.value)} spellCheck={false} data-testid="video-id-input" />
        </label>
        <button type="submit" disabled={disabled} data-testid="load-id">
          Load
        </button>
        <button type="button" disabled={disabled} onClick={() => player?.cueVideoById(videoId.trim())} data-testid="cue-id">
          Cue
        </button>
      </form>
      <form className="row" onSubmit={onSubmit(() => player?.loadVideoByUrl(mediaUrl.trim()))}>
        <label className="grow">
          <span>Media URL</span>
          <input value={mediaUrl} onChange={(e) => setMediaUrl(e.target.value)} spellCheck={false} data-testid="video-url-input" />
        </label>
        <button type="submit" disabled={disabled} data-testid="load-url">
          Load
        </button>
        <button type="button" disabled={disabled} onClick={() => player?.cueVideoByUrl(mediaUrl.trim())} data-testid="cue-url">
          Cue
        </button>
      </form>
    </ControlGroup>
  );
}
