import { DemoHeader, viewHref } from './DemoHeader';
import { useObservableState } from 'observable-hooks';
import { useState } from 'react';
import { EmbeddedPlayer } from '../react/EmbeddedPlayer';
import { catalog$, playsForEveryone } from './catalog';

/**
 * `/?view=facades`: a page with many players, each an `<EmbeddedPlayer facade>` — the catalogue's posters and play
 * buttons, and no iframe (nor any request to the embed) until one is pressed; that one then plays at once. For host
 * developers and the browser test of the facade.
 */
export function FacadeDemo({ embedHost }: { embedHost: string }) {
  const catalog = useObservableState(catalog$, { videos: [], playlists: [] });
  // The videos any viewer can play to the end: the ones with a viewer rule show its error instead.
  const videos = catalog.videos.filter(playsForEveryone);
  const [events, setEvents] = useState<string[]>([]);
  const log = (line: string) => setEvents((e) => [...e, line]);
  return (
    <div className="demo">
      <DemoHeader
        title="Many players"
        description={
          <>
            <code>&lt;EmbeddedPlayer facade&gt;</code>: a poster and a play button each; the player loads when you press it.
          </>
        }
      >
        <nav className="row buttons">
          <a href={viewHref('component', embedHost)}>The component</a>
          <a href="/">Back to the demo</a>
        </nav>
      </DemoHeader>
      <section className="card">
        <ul className="facade-strip" data-testid="facade-strip">
          {videos.map((video) => (
            <li key={video.id} data-testid={`facade-${video.id}`}>
              <EmbeddedPlayer
                facade
                host={embedHost}
                videoId={video.id}
                title={video.title}
                onReady={() => log(`${video.id} ready`)}
                onPlay={() => log(`${video.id} play`)}
                onStateChange={(e) => log(`${video.id} state ${e.data}`)}
                onError={(e) => log(`${video.id} error ${e.data}`)}
              />
            </li>
          ))}
        </ul>
        <ol className="entries" data-testid="facade-events" aria-label="Player events">
          {events.map((e, i) => (
            <li key={i} className="entry">
              {e}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
