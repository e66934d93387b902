import { of } from 'rxjs';
import type { PlatformCalls } from '../../../streams/platform/platformCalls';
import { firstFrameShown$ } from '../../../streams/sources/firstFrame';
import { failEarlyHandshake } from '../host/hostBridge';
import type { EmbedPlayer } from '../player/EmbedPlayer';
import type { Attestation } from '../services/attestation';
import type { Consent } from '../services/consent';
import { startErrorReporting, type ErrorReporting } from '../services/errorReporting';
import type { Identity } from '../services/identity';
import type { Telemetry } from '../services/telemetry';
import { loadChunks } from './loadChunks';
import { applyLanguage, startPlayer } from './startPlayer';
import { SHELL_TEXT } from '../../../streams/i18n/shellText';
import { startupErrorView } from './startupErrorView';
import '../views/embed.css';

declare global {
  interface Window {
    /** The player configuration the server inlined (spec §3). */
    vidframeConfig?: unknown;
    /** The page's player, for debugging and for the browser tests. */
    vidframePlayer?: EmbedPlayer;
    /** The page's client logging, for diagnostics and the browser tests. */
    vidframeTelemetry?: Telemetry;
    /** The viewer's identity (sign-in, visitor id), for diagnostics and the browser tests. */
    vidframeIdentity?: Identity;
    /** Consent and the anonymous id, for diagnostics and the browser tests. */
    vidframeConsent?: Consent;
    /** Attestation (state, message, response tokens) and the ad-status value, for the subscribe button and the tests. */
    vidframeAttestation?: Attestation;
    /** The platform calls of spec §7 (subscribe, share, feedback, …), for the UI and the browser tests. */
    vidframePlatform?: PlatformCalls;
  }
}

/**
 * The embed page's entry. This script is what the player needs at once, and no more: the player over the `<video>` the
 * server wrote, the host channel (taken over from the HTML's inline responder when the server could answer the host's
 * handshake: `streams/host/earlyHandshake.ts`), identity, the preferences and the ping beacons (`startPlayer`). The
 * services and the controls come in chunks of their own (`loadChunks`).
 */

// First of all, so that an error while the page starts is reported too (spec §8); it may not stop the page either.
let errorReporting: ErrorReporting | undefined;
try {
  errorReporting = startErrorReporting(window);
} catch (error) {
  console.error('[vidframe] error reporting could not start', error);
}

const container = document.getElementById('player-root')!;
// A muted video the browser starts by itself from the server's HTML first shows its first frame; the boot comes in a
// task of its own after it (the host's handshake is answered by the HTML meanwhile).
const parsedVideo = container.querySelector<HTMLVideoElement>('.vf-player > video.vf-video');
let waiting = false;
(parsedVideo ? firstFrameShown$(parsedVideo) : of(undefined)).subscribe(() => (waiting ? setTimeout(boot, 0) : boot()));
waiting = true;

function boot(): void {
  try {
    loadChunks(startPlayer(window, container), window, errorReporting);
  } catch (error) {
    // A page without a usable configuration still tells the viewer what happened, and a host told it was ready hears
    // that it failed.
    // The configuration may be what failed: the language comes from the page's address (the player variables).
    const language = applyLanguage(document, new URLSearchParams(location.search).get('hl'));
    container.replaceChildren(startupErrorView(document, error, SHELL_TEXT[language]));
    failEarlyHandshake(window);
  }
}
