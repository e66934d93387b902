import { useState } from 'react';
import { useObservableState } from 'observable-hooks';
import { catchError, defer, map, of } from 'rxjs';

interface CatalogEntry {
  id: string;
  title: string;
  author: string;
  durationSeconds: number;
  embeddable?: boolean;
}

/** The catalogue the server publishes with the media, read once. */
const catalog$ = defer(() => fetch('/media/catalog.json').then((r) => r.json() as Promise<{ videos: CatalogEntry[] }>)).pipe(
  map((c) => c.videos),
  catchError(() => of([] as CatalogEntry[])),
);

/**
 * The demo host page: picks a sample video and frames the embed the way a third-party site would. (The control
 * panel driving it through the host protocol comes with the host SDK.)
 */
export function DemoHost() {
  const videos = useObservableState(catalog$, []);
  const [videoId, setVideoId] = useState('VFsunrise01');
  const [autoplay, setAutoplay] = useState(false);
  const [theme, setTheme] = useState<'dark' | 'light'>('dark');
  const src = `/embed/${encodeURIComponent(videoId)}?enablejsapi=1&autoplay=${autoplay ? 1 : 0}&theme=${theme}&origin=${encodeURIComponent(location.origin)}`;

  return (
    <main className="host">
      <header>
        <h1>VidFrame</h1>
        <p>An embeddable video player. This page frames the embed as a third-party site would.</p>
      </header>
      <section className="stage">
        <iframe key={src} title="VidFrame player" src={src} allow="autoplay; fullscreen" allowFullScreen />
      </section>
      <section className="panel">
        <label>
          Video
          <select value={videoId} onChange={(e) => setVideoId(e.target.value)}>
            {videos.map((v) => (
              <option key={v.id} value={v.id}>
                {v.title} ({v.id}){v.embeddable === false ? ' — not embeddable' : ''}
              </option>
            ))}
            <option value="bad!id">A malformed id (error 2)</option>
          </select>
        </label>
        <label>
          <input type="checkbox" checked={autoplay} onChange={(e) => setAutoplay(e.target.checked)} /> Autoplay
        </label>
        <label>
          Theme
          <select value={theme} onChange={(e) => setTheme(e.target.value as 'dark' | 'light')}>
            <option value="dark">dark</option>
            <option value="light">light</option>
          </select>
        </label>
        <code className="embed-url">{src}</code>
      </section>
    </main>
  );
}
