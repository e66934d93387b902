import { type FormEvent, type ReactNode, useState } from 'react';
import type { Player } from '../sdk/Player';
import type { PlayerInfoCache } from '../sdk/types';
import type { Catalog } from './catalog';

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

const FALLBACK_RATES = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2];

function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="group">
      <legend>{title}</legend>
      {children}
    </fieldset>
  );
}

/** `e.preventDefault()` and run: every form of the panel submits with Enter as well as with its button. */
const onSubmit = (run: () => void) => (e: FormEvent) => {
  e.preventDefault();
  run();
};

const numberOr = (text: string, fallback: number) => {
  const n = Number(text);
  return text.trim() !== '' && Number.isFinite(n) ? n : fallback;
};

/** Every command of the host protocol, each a button or a small form calling the SDK. */
export function ControlPanel({ player, info, captionLanguage, catalog, embedHost, initialVideoId }: ControlPanelProps) {
  const disabled = player === undefined;
  // The load fields say what is loaded (issue 17 item 7): they start at the first video and follow every video the
  // player loads, however it was loaded; what the viewer types stays until the next video arrives.
  const [catalogId, setCatalogId] = useState(initialVideoId);
  const [videoId, setVideoId] = useState(initialVideoId);
  const [mediaUrl, setMediaUrl] = useState(`${embedHost}/embed/${initialVideoId}`);
  const [fieldsFor, setFieldsFor] = useState(initialVideoId);
  // An empty id (video data not known yet) keeps the fields as they are.
  const loadedId = info.videoData?.video_id || fieldsFor;
  if (loadedId !== fieldsFor) {
    // Adjusting state to a changed input during render, as React documents it (no effect, no extra paint).
    setFieldsFor(loadedId);
    if (catalog.videos.length === 0 || catalog.videos.some((v) => v.id === loadedId)) setCatalogId(loadedId);
    setVideoId(loadedId);
    setMediaUrl(`${embedHost}/embed/${loadedId}`);
  }
  const [playlistText, setPlaylistText] = useState('VFsunrise01,VFcitylight,VFoceanwave');
  const [playlistIndex, setPlaylistIndex] = useState('0');
  const [seekText, setSeekText] = useState('5');
  const [width, setWidth] = useState('640');
  const [height, setHeight] = useState('360');

  const duration = typeof info.duration === 'number' ? info.duration : 0;
  const currentTime = typeof info.currentTime === 'number' ? info.currentTime : 0;
  const volume = typeof info.volume === 'number' ? info.volume : 100;
  const rates = info.availablePlaybackRates?.length ? info.availablePlaybackRates : FALLBACK_RATES;
  const qualities = info.availableQualityLevels ?? [];
  const tracks = info.captionTracks ?? [];

  /** A playlist field: a catalogue list id (PL…) or ids separated by commas. */
  const playlistArgs = () => {
    const text = playlistText.trim();
    const index = Math.max(0, Math.trunc(numberOr(playlistIndex, 0)));
    if (/^PL[\w-]+$/.test(text) && !text.includes(',')) return { list: text, listType: 'playlist', index };
    return {
      playlist: text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      index,
    };
  };

  return (
    <section className="controls card" aria-label="Controls">
      <h2>Controls</h2>

      <Group title="Load a video">
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
      </Group>

      <Group title="Playlist">
        <form className="row" onSubmit={onSubmit(() => player?.loadPlaylist(playlistArgs()))}>
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
          <button type="button" disabled={disabled} onClick={() => player?.cuePlaylist(playlistArgs())} data-testid="cue-playlist">
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
      </Group>

      <Group title="Playback">
        <div className="row buttons">
          <button type="button" className="primary" disabled={disabled} onClick={() => player?.playVideo()} data-testid="play">
            ▶ Play
          </button>
          <button type="button" disabled={disabled} onClick={() => player?.pauseVideo()} data-testid="pause">
            Pause
          </button>
          <button type="button" disabled={disabled} onClick={() => player?.stopVideo()} data-testid="stop">
            Stop
          </button>
        </div>
        <input
          className="scrubber"
          type="range"
          min={0}
          max={Math.max(duration, 0.001)}
          step={0.1}
          value={Math.min(currentTime, duration)}
          disabled={disabled || duration === 0}
          onChange={(e) => player?.seekTo(Number(e.target.value), true)}
          aria-label="Seek"
          data-testid="scrubber"
        />
        <form className="row" onSubmit={onSubmit(() => player?.seekTo(numberOr(seekText, 0), true))}>
          <label className="narrow">
            <span>Seconds</span>
            <input type="number" min={0} step={0.1} value={seekText} onChange={(e) => setSeekText(e.target.value)} data-testid="seek-input" />
          </label>
          <button type="submit" disabled={disabled} data-testid="seek">
            Seek
          </button>
          <button type="button" disabled={disabled} onClick={() => player?.seekTo(Math.max(0, (player.getCurrentTime() ?? 0) - 5), true)}>
            −5 s
          </button>
          <button type="button" disabled={disabled} onClick={() => player?.seekTo((player.getCurrentTime() ?? 0) + 5, true)}>
            +5 s
          </button>
        </form>
      </Group>

      <Group title="Sound">
        <div className="row">
          <input
            className="grow"
            type="range"
            min={0}
            max={100}
            step={1}
            value={volume}
            disabled={disabled}
            onChange={(e) => player?.setVolume(Number(e.target.value))}
            aria-label="Volume"
            data-testid="volume-slider"
          />
          <output className="value">{volume}</output>
          <button type="button" disabled={disabled} onClick={() => (info.muted ? player?.unMute() : player?.mute())} data-testid="mute-toggle">
            {info.muted ? 'Unmute' : 'Mute'}
          </button>
        </div>
      </Group>

      <Group title="Speed, quality, captions">
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
      </Group>

      <Group title="Size">
        <form
          className="row"
          onSubmit={onSubmit(() => {
            const w = Math.round(numberOr(width, 640));
            const h = Math.round(numberOr(height, 360));
            if (w > 0 && h > 0) player?.setSize(w, h);
          })}
        >
          <label className="narrow">
            <span>Width</span>
            <input type="number" min={200} value={width} onChange={(e) => setWidth(e.target.value)} data-testid="width-input" />
          </label>
          <label className="narrow">
            <span>Height</span>
            <input type="number" min={200} value={height} onChange={(e) => setHeight(e.target.value)} data-testid="height-input" />
          </label>
          <button type="submit" disabled={disabled} data-testid="set-size">
            Resize
          </button>
          {[
            [480, 270],
            [640, 360],
            [854, 480],
          ].map(([w, h]) => (
            <button
              key={w}
              type="button"
              className="chip"
              disabled={disabled}
              onClick={() => {
                setWidth(String(w));
                setHeight(String(h));
                player?.setSize(w, h);
              }}
            >
              {w}×{h}
            </button>
          ))}
        </form>
      </Group>
    </section>
  );
}
