import { DemoHeader, viewHref } from './DemoHeader';
import { useState } from 'react';
import { EmbeddedPlayer } from '../react/EmbeddedPlayer';
import type { Player } from '../sdk/Player';

/**
 * `/?view=component`: the React binding on its own — `<EmbeddedPlayer>` with event props, mounted and unmounted at
 * will (the page renders in StrictMode), for host developers and the browser tests.
 */
export function ComponentDemo({ embedHost }: { embedHost: string }) {
  const [mounted, setMounted] = useState(true);
  const [videoId, setVideoId] = useState('VFsunrise01');
  const [controls, setControls] = useState(1);
  const [player, setPlayer] = useState<Player | undefined>();
  const [events, setEvents] = useState<string[]>([]);
  const log = (line: string) => setEvents((e) => [...e, line]);
  return (
    <div className="demo">
      <DemoHeader title="<EmbeddedPlayer>" description="The React binding of the host SDK, in StrictMode.">
        <nav className="row buttons">
          <a href={viewHref('facades', embedHost)}>Many players (facades)</a>
          <a href="/">Back to the demo</a>
        </nav>
      </DemoHeader>
      <section className="card">
        <div className="row buttons">
          <button type="button" onClick={() => setMounted((m) => !m)} data-testid="toggle-mount">
            {mounted ? 'Unmount' : 'Mount'}
          </button>
          <button type="button" disabled={!player} onClick={() => player?.playVideo()} data-testid="component-play">
            Play
          </button>
          <button type="button" onClick={() => setVideoId((v) => (v === 'VFsunrise01' ? 'VFcitylight' : 'VFsunrise01'))} data-testid="component-switch">
            Switch video
          </button>
          <button type="button" onClick={() => setControls((c) => 1 - c)} data-testid="component-controls">
            {controls ? 'Hide controls' : 'Show controls'} (new player)
          </button>
        </div>
        <div className="stage" style={{ marginTop: 12 }} data-testid="component-stage">
          {mounted && (
            <EmbeddedPlayer
              host={embedHost}
              videoId={videoId}
              width={640}
              height={360}
              playerVars={{ controls }}
              iframeClassName="component-iframe"
              loading="lazy"
              onPlayer={setPlayer}
              onReady={() => log('ready')}
              onStateChange={(e) => log(`state ${e.data}`)}
              onError={(e) => log(`error ${e.data}`)}
            />
          )}
        </div>
        <ol className="entries" data-testid="component-events">
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
