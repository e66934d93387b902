import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { map } from 'rxjs';
import { EmbedApp } from '../views/EmbedApp';
import type { EmbedApi } from '../services/api';
import type { EmbedPlayer } from '../player/EmbedPlayer';
import type { ErrorReporting } from '../services/errorReporting';
import type { Identity } from '../services/identity';
import { startPlatformCalls } from '../services/platform';
import { createSuggestionLoader } from '../services/suggestions';
import type { PlayerShell } from '../player/playerShell';
import { startService } from './startService';
import { createViewerActions, type ViewerActions } from '../views/viewerActions';
import type { Language } from '../../../streams/i18n/language';
import type { Catalog } from '../i18n/catalogs/en';
import { I18nProvider } from '../i18n/I18nContext';
import { createI18n } from '../i18n/translate';

export interface ControlsContext {
  player: EmbedPlayer;
  identity: Identity;
  api: EmbedApi;
  errorReporting?: ErrorReporting;
  win: Window;
  /** The interface's language, and its catalog (null: English, which the controls carry). */
  language?: Language;
  catalog?: Catalog | null;
  /** Called once the controls' listeners on the shell are bound. */
  onMounted?: () => void;
}

/**
 * The controls' chunk: React and the views, loaded by `main.ts` on demand (the viewer reaching for the
 * player, or a video that needs more than itself), with what only they use: the platform calls of spec §7 and the
 * viewer features over them (channel, subscribe, bell, watch later, share, feedback), whose first call (the viewer's
 * state of the video) a video nobody touches never makes. The views render into the shell's `.vf-ui` layer, around the
 * `<video>` the player already plays. The services (attestation among them) have started before: `main.ts` waits for
 * them; the attestation loader starts here, so a subscribe finds its program ready.
 */
export function mountEmbedUi(shell: PlayerShell, { player, identity, api, errorReporting, win, language = 'en', catalog, onMounted }: ControlsContext): Root {
  // The attestation program loads now (the services started it idle, not loaded): a subscribe may follow.
  startService('attestation', () => win.vidframeAttestation?.prepare());
  startService('platform calls', () => (win.vidframePlatform = startPlatformCalls(api, win, errorReporting)));
  let actions: ViewerActions | undefined;
  startService('viewer actions', () => {
    if (!win.vidframePlatform) return;
    actions = createViewerActions({
      calls: win.vidframePlatform,
      attestation: win.vidframeAttestation,
      videoId$: player.videoData$.pipe(map((data) => data?.videoId)),
      identity,
      win,
    });
  });
  const suggest = createSuggestionLoader(api, player.config.args.playerVars);
  const root = createRoot(shell.ui);
  root.render(
    <StrictMode>
      <I18nProvider value={createI18n(language, catalog ?? undefined)}>
        <EmbedApp shell={shell} player={player} identity={identity} actions={actions} suggest={suggest} onMounted={onMounted} />
      </I18nProvider>
    </StrictMode>,
  );
  return root;
}
