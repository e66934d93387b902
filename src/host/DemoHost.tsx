import { DemoHeader } from './demo/DemoHeader';
import { useRef, useState } from 'react';
import { useObservable, useObservableCallback, useObservableState } from 'observable-hooks';
import { EMPTY, switchMap } from 'rxjs';
import { usePlayer } from './react/usePlayer';
import { usePlayerEvent } from './react/usePlayerEvent';
import { usePlayerApiInfo, usePlayerInfo, usePlayerState } from './react/usePlayerState';
import { catalog$ } from './demo/catalog';
import { ConsentManagerPanel } from './demo/ConsentManagerPanel';
import { ControlPanel } from './demo/ControlPanel';
import { EventLog } from './demo/EventLog';
import { eventLog } from './demo/eventLog';
import { InfoReadout } from './demo/InfoReadout';

/**
 * Where the embed comes from: `?host=https://player.example:8443` to try another origin (the browser tests frame the
 * embed from a second origin this way), else this page's own origin.
 */
export function embedHostFromLocation(): string {
  const asked = new URLSearchParams(location.search).get('host');
  if (asked) {
    try {
      const url = new URL(asked);
      if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
    } catch {
      // fall through to the page's origin
    }
  }
  return location.origin;
}

const FIRST_VIDEO = 'VFsunrise01';
const pageOpenedAt = performance.now();

/**
 * The demo host page at `/`: the embed, driven through the host SDK exactly as a third-party page would drive it,
 * a control panel for every command, a live readout of the player info the embed delivers, and an event log.
 */
export function DemoHost() {
  const [embedHost] = useState(embedHostFromLocation);
  const stageRef = useRef<HTMLDivElement>(null);
  const player = usePlayer(stageRef, {
    host: embedHost,
    videoId: FIRST_VIDEO,
    width: 640,
    height: 360,
    title: 'VidFrame demo player',
    playerVars: { autoplay: 0, playsinline: 1, rel: 0 },
  });
  const info = usePlayerInfo(player);
  const state = usePlayerState(player);
  const apiInfo = usePlayerApiInfo(player);
  const captionTrack = (apiInfo.captions as { track?: { languageCode?: string } } | undefined)?.track;
  const captionLanguage = typeof captionTrack?.languageCode === 'string' ? captionTrack.languageCode : '';
  const catalog = useObservableState(catalog$, { videos: [], playlists: [] });

  const [lastError, setLastError] = useState<number | null>(null);
  const [autoplayBlocked, setAutoplayBlocked] = useState(false);
  usePlayerEvent(player, 'onError', setLastError);
  usePlayerEvent(player, 'onAutoplayBlocked', () => setAutoplayBlocked(true));
  usePlayerEvent(player, 'onStateChange', (s) => {
    if (s === 1) setAutoplayBlocked(false);
  });

  const [clearLog, clear$] = useObservableCallback<void>((events$) => events$);
  const log$ = useObservable(
    (inputs$) => inputs$.pipe(switchMap(([p]) => (p ? eventLog(p, clear$, () => performance.now() - pageOpenedAt) : EMPTY))),
    [player],
  );
  const log = useObservableState(log$, []);

  return (
    <div className="demo">
      <DemoHeader title="VidFrame" description="An embeddable video player, driven from this page through the host SDK.">
        <dl className="origins">
          <div>
            <dt>Host page</dt>
            <dd data-testid="page-origin">{location.origin}</dd>
          </div>
          <div>
            <dt>Embed</dt>
            <dd data-testid="embed-origin">{embedHost}</dd>
          </div>
        </dl>
      </DemoHeader>

      <main className="demo-grid">
        <div className="left-column">
          <section className="stage-card card" aria-label="Player">
            <div className="stage" ref={stageRef} data-testid="stage" data-ready={state !== undefined ? 'yes' : 'no'} />
            {autoplayBlocked && (
              <p className="notice" role="status" data-testid="autoplay-blocked">
                The browser blocked playback with sound. Press play in the player, or mute and play.
              </p>
            )}
            {lastError !== null && (
              <p className="notice error" role="alert" data-testid="last-error">
                The player reported error {lastError}.
              </p>
            )}
          </section>

          <InfoReadout info={info} state={state} captionLanguage={captionLanguage} lastError={lastError} />
          <ConsentManagerPanel />
        </div>
        <ControlPanel player={player} info={info} captionLanguage={captionLanguage} catalog={catalog} embedHost={embedHost} initialVideoId={FIRST_VIDEO} />
        <EventLog entries={log} onClear={() => clearLog()} />
      </main>

      <footer className="demo-footer">
        Include <code>{`<script src="${embedHost}/iframe_api"></script>`}</code> and use <code>new YT.Player(…)</code>, or import <code>Player</code> /{' '}
        <code>EmbeddedPlayer</code> from the SDK.
      </footer>
    </div>
  );
}
