import type { Observable } from 'rxjs';
import type { PlayerConfig } from '../../../streams/config/playerConfig';
import type { HostCommandReceipt } from '../../../streams/host/hostCommandReceipts';
import type { VisibilityState } from '../../../streams/visibility/visibilityState';
import type { EmbedApi } from '../services/api';
import { startAttestation } from '../services/attestation';
import { startConsent } from '../services/consent';
import { startLocation } from '../services/location';
import { bindMediaSession, type MediaSessionPlayer } from '../player/mediaSession';
import type { PlayerFeed } from '../player/playerFeed';
import { startService } from './startService';
import { startTelemetry } from '../services/telemetry';

export interface ServicesContext {
  config: PlayerConfig;
  /** The player, for the Media Session (what the system's media keys and lock screen act on). */
  player: MediaSessionPlayer;
  api: EmbedApi;
  /** The player as logging sees it, recorded since the page started (`main.ts` releases it after this returns). */
  feed: PlayerFeed;
  /** Every host command the bridge received, recorded likewise. */
  hostCommands$: Observable<HostCommandReceipt>;
  /** The page's visibility, recorded likewise. */
  visibility$: Observable<VisibilityState>;
  win: Window;
}

/**
 * The services the first frame and the host's `onReady` do not need, in a chunk of their own, started once the player
 * is ready and the page idle: logging with its storage and retry queue, consent, the Media Session, geolocation,
 * attestation. Logging subscribes to the recorded feed, which `main.ts` releases right after: it sees everything from
 * the page's start, each event at its own time. Each service starts on its own: one that fails keeps neither the
 * others nor the viewer from anything. Each service's state that requests carry (the config hashes, the location, the anonymous id, the ad
 * status) is followed by the API client, which reads its latest value into every request it builds. What only the
 * controls use (the platform calls and the viewer features over them) comes with the controls (`ui.tsx`).
 */
export function startServices({ config, player, api, feed, hostCommands$, visibility$, win }: ServicesContext): void {
  startService('telemetry', () => {
    const { diagnostics, ...telemetry } = startTelemetry(feed, api, win, { hostCommands$, visibility$ });
    win.vidframeTelemetry = telemetry;
    win.vidframeTelemetryDiagnostics = diagnostics;
    api.followContext({ configInfo$: telemetry.configInfo$ });
  });
  startService('consent', () => {
    const consent = startConsent(config, win);
    win.vidframeConsent = consent;
    api.followContext({ anonymousId$: consent.currentAnonymousId$ });
  });
  startService('media session', () => bindMediaSession(player, win.navigator));
  startService('geolocation', () => api.followContext({ locationInfo$: startLocation(config, win, { mobileWeb: false }).locationInfo$ }));
  startService('attestation', () => {
    const attestation = startAttestation(config, win);
    win.vidframeAttestation = attestation;
    api.followContext({ adStatus$: attestation.adStatusSignal$ });
  });
}
