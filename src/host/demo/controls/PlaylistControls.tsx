import { useState } from 'react';
import type { Catalog } from '../catalog';
import { playlistArgs } from '../ControlPanel.state';
import { ControlGroup, type GroupProps, onSubmit } from './ControlGroup';

/** Load or cue a playlist (ids or a catalogue list id, from an index), and move through it. */
export function PlaylistControls({ player, disabled, catalog }: GroupProps & { catalog: Catalog }) {
  const [playlistText, setPlaylistText] = useState('VFsunrise01,VFcitylight,VFoceanwave');
  const [playlistIndex, setPlaylistIndex] = useState('0');
  return (
    <ControlGroup title="Playlist">
      <form className="row" onSubmit={onSubmit(() => player?.loadPlaylist(playlistArgs(playlistText, playlistIndex)))}>
        <label className="grow">
          <span>Ids or list id</span>
          <input value={playlistText} onChange={(e) => setPlaylistText(e.target.value)} spellCheck={false} list="vf-playlists" data-testid="playlist-input" />
          <datalist id="vf-playlists">
            {catalog.playlists.map((p) => (
              <option key={p.id} value={p.id}>
                {p.title}
              </option>
            ))}
          </datalist>
        </label>
        <label className="narrow">
          <span>Index</span>
          <input type="number" min={0} value={playlistIndex} onChange={(e) => setPlaylistIndex(e.target.value)} data-testid="playlist-index-input" />
        </label>
        <button type="submit" disabled={disabled} data-testid="load-playlist">
          Load
        </button>
        <button type="button" disabled={disabled} onClick={() => player?.cuePlaylist(playlistArgs(playlistText, playlistIndex))} data-testid="cue-playlist">
          Cue
        </button>
      </form>
      <div className="row buttons">
        <button type="button" disabled={disabled} onClick={() => player?.previousVideo()} data-testid="previous">
          Previous
        </button>
        <button type="button" disabled={disabled} onClick={() => player?.nextVideo()} data-testid="next">
          Next
        </button>
      </div>
    </ControlGroup>
  );
}
