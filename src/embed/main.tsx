import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { readPlayerConfig, withLoaderUrl, PLAYER_STYLE_TRANSPARENT } from '../../streams/config/playerConfig';
import { createEmbedPlayer } from './EmbedPlayer';
import { EmbedApp } from './EmbedApp';
import { startTelemetry, type Telemetry } from './telemetry';
import { startHostBridge } from './hostBridge';
import { startErrorReporting } from './errorReporting';
import './embed.css';

declare global {
  interface Window {
    /** The player configuration the server inlined (spec §3). */
    vidframeConfig?: unknown;
    /** The page's player, for debugging and for the browser tests. */
    vidframePlayer?: ReturnType<typeof createEmbedPlayer>;
    /** The page's client logging, for diagnostics and the browser tests. */
    vidframeTelemetry?: Telemetry;
  }
}

// First of all, so that an error while the page starts is reported too (spec §8); it may not stop the page either.
try {
  startErrorReporting(window);
} catch (error) {
  console.error('[vidframe] error reporting could not start', error);
}

const root = createRoot(document.getElementById('player-root')!);
try {
  const framed = window.parent !== window;
  const config = withLoaderUrl(readPlayerConfig(window.vidframeConfig), { framed, referrer: document.referrer });
  document.documentElement.dataset.theme = config.args.theme;
  if (config.args.ps === PLAYER_STYLE_TRANSPARENT) document.documentElement.classList.add('vf-transparent');
  const player = createEmbedPlayer(config);
  window.vidframePlayer = player;
  // Neither logging nor the host channel may keep a viewer from watching: each starts on its own.
  try {
    window.vidframeTelemetry = startTelemetry(player, window);
  } catch (error) {
    console.error('[vidframe] telemetry could not start', error);
  }
  try {
    startHostBridge(player, window);
  } catch (error) {
    console.error('[vidframe] the host channel could not start', error);
  }
  root.render(
    <StrictMode>
      <EmbedApp player={player} />
    </StrictMode>,
  );
} catch (error) {
  // A page without a usable configuration still tells the viewer what happened.
  root.render(
    <div className="vf-player">
      <div className="vf-error" role="alert">
        <p className="vf-error-message">The player could not start.</p>
        <p className="vf-error-detail">{error instanceof Error ? error.message : String(error)}</p>
      </div>
    </div>,
  );
}
