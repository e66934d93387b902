import { readPlayerConfig, withLoaderUrl, PLAYER_STYLE_TRANSPARENT } from '../../../streams/config/playerConfig';
import { createEmbedPlayer } from '../player/EmbedPlayer';
import type { Telemetry } from '../services/telemetry';
import { failEarlyHandshake, startHostBridge } from '../host/hostBridge';
import { startErrorReporting, type ErrorReporting } from '../services/errorReporting';
import { startIdentity, type Identity } from '../services/identity';
import { createEmbedApi } from '../services/api';
import type { Consent } from '../services/consent';
import { startPreferences } from '../services/preferences';
import type { Attestation } from '../services/attestation';
import type { PlatformCalls } from '../../../streams/platform/platformCalls';
import { recoverUnwrappedResponse } from '../../../streams/transport/recoverUnwrappedResponse';
import { startTracking } from '../services/tracking';
import { filter, first, map, merge, of, race, shareReplay, Subject, switchMap, type Subscription } from 'rxjs';
import { CONTROLS_RETRY_AFTER_MS, SERVICES_RETRY_AFTER_MS, SERVICES_RETRY_MAX_MS } from '../../../streams/timing';
import { loadOnDemand } from '../../../streams/shared/loadOnDemand';
import { visibilityEvents$ } from '../../../streams/sources/visibilityEvents';
import { visibilityState } from '../../../streams/visibility/visibilityState';
import { createRecorder } from '../../../streams/shared/recorder';
import { playerFeed } from '../player/playerFeed';
import { bindShellClicks, bindShellState, servicesDue$, findPlayerShell, viewerReach$ } from './playerShell';
import { controlsNeeded$ } from '../../../streams/player/controlsDemand';
import { startService } from './startService';
import { firstFrameShown$ } from '../../../streams/sources/firstFrame';
import { pageHiding$ } from '../../../streams/sources/pageHiding';
import type { HostCommandReceipt } from '../../../streams/host/hostCommandReceipts';
import type { PlayerResponse } from '../../../streams/config/playerConfig';
import type { PlaylistResponse } from '../../../streams/player/playerEngine';
import '../views/embed.css';

declare global {
  interface Window {
    /** The player configuration the server inlined (spec §3). */
    vidframeConfig?: unknown;
    /** The page's player, for debugging and for the browser tests. */
    vidframePlayer?: ReturnType<typeof createEmbedPlayer>;
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

// First of all, so that an error while the page starts is reported too (spec §8); it may not stop the page either.
let errorReporting: ErrorReporting | undefined;
try {
  errorReporting = startErrorReporting(window);
} catch (error) {
  console.error('[vidframe] error reporting could not start', error);
}

/**
 * This script is what the player needs at once, and no more (issue 15): the player over the `<video>` the server
 * wrote, the host channel (which it takes over from the HTML's inline responder when the server could answer the
 * host's handshake: `streams/host/earlyHandshake.ts`), identity, the preferences and the ping beacons. The services (logging
 * with its storage and retry queue, consent, attestation: `services.ts`) come in a chunk of their own once the player
 * is ready, the page loaded and the main thread idle (`servicesDue$`), so they never compete with the first frame or
 * the host's handshake; what logging must see of the time before is recorded (`playerFeed.ts`). The controls (React,
 * the views and the platform calls they use: `ui.tsx`) come on demand: when the viewer reaches for the player
 * (`viewerReach$`) or, once the services are due, when the video needs more than itself (`controlsNeeded$`: not ready,
 * cued, paused, ended, failed, autoplay refused, captions on); a video playing on its own that nobody touches does not
 * load them while it plays. A controls chunk that could not be loaded is asked for again at the next reach or need.
 */
const container = document.getElementById('player-root')!;
// A muted video the browser starts by itself from the server's HTML first shows its first frame; the boot comes in a
// task of its own after it (the host's handshake is answered by the HTML meanwhile: `earlyHandshake.ts`).
const parsedVideo = container.querySelector<HTMLVideoElement>('.vf-player > video.vf-video');
let waiting = false;
(parsedVideo ? firstFrameShown$(parsedVideo) : of(undefined)).subscribe(() => (waiting ? setTimeout(boot, 0) : boot()));
waiting = true;

/** The player and everything around it (see above). */
function boot(): void {
  try {
    const framed = window.parent !== window;
    const config = withLoaderUrl(readPlayerConfig(window.vidframeConfig), { framed, referrer: document.referrer });
    document.documentElement.dataset.theme = config.args.theme;
    if (config.args.ps === PLAYER_STYLE_TRANSPARENT) document.documentElement.classList.add('vf-transparent');
    // Who the viewer is, and the one API client that carries it on every call (issue 13).
    const identity = startIdentity(config, window);
    window.vidframeIdentity = identity;
    const api = createEmbedApi(window, config, identity);
    const player = createEmbedPlayer(config, {
      // An error answer carrying a player (or browse) response in its details is that response (spec §7); any other
      // failure still errors, which the player turns into its error state.
      fetchVideo: (videoId) =>
        api.fetchApi('player', { videoId }).pipe(
          recoverUnwrappedResponse(),
          map((r) => r.body as PlayerResponse),
        ),
      fetchPlaylist: (playlistId) =>
        api.fetchApi('next', { playlistId }).pipe(
          recoverUnwrappedResponse(),
          map((r) => r.body as PlaylistResponse),
        ),
    });
    window.vidframePlayer = player;

    // What the logging will want to see, recorded from now until it starts (after ready, in its own chunk): the player's
    // states and the element's events with their facts of the moment, and the host commands (the bridge starts last).
    const recorder = createRecorder();
    const feed = playerFeed(player, recorder);
    const hostCommandReceipts$ = new Subject<HostCommandReceipt>();
    const hostCommands$ = recorder.record(hostCommandReceipts$);
    // The page's visibility too, a state (a late subscriber gets the current one), each change at its own time.
    const readVisibility = () => document.visibilityState;
    const visibility$ = recorder.recordState(visibilityState(visibilityEvents$({ document, window }, readVisibility), { readVisibility }));
    startService('preferences', () => startPreferences(player, window));
    startService('ping beacons', () => startTracking(player, window));
    // The element the server wrote, adopted in place (its media request started with the HTML); after the feed and the
    // ping beacons, so that they see the player's first states.
    const shell = findPlayerShell(container);
    player.attach(shell.video);
    bindShellState(shell, player);
    const releaseShellClicks = bindShellClicks(shell, player);
    // Until the controls are there the player itself is a tab stop (the frame has nothing else to focus): a keyboard
    // viewer tabbing into the frame reaches it, which brings the controls; with them it is focusable by script only.
    shell.root.tabIndex = 0;
    startService('the host channel', () => startHostBridge(player, window, { onCommandReceived: (receipt) => hostCommandReceipts$.next(receipt) }));
    // The services come once the player is ready, the page loaded and the main thread idle — or at once when the page is
    // being hidden, so that what was recorded gets its chance to be sent (logging subscribes to the feed, which is then
    // released) — or when the viewer reaches for the player (the controls need them). They are loaded until they are
    // there: a chunk that could not be loaded (the network, a deploy in between) is asked for again
    // `SERVICES_RETRY_AFTER_MS` after the first failure, twice as long after each next one up to `SERVICES_RETRY_MAX_MS`,
    // or at once when the page is being hidden or the controls come, and the recorder keeps what logging will want to
    // see meanwhile (at most `RECORDER_MAX_ENTRIES`), so a failed request for the chunk loses none of it: the logging
    // that comes later sends it all. (Chromium fetches a failed module again; a browser that keeps the failure of a
    // module URL fails each retry at once, and the page goes on without logging, as it did before.)
    let servicesLoaded = false;
    let servicesAttempt: Promise<void> | undefined;
    let servicesFailures = 0;
    let servicesRetry: ReturnType<typeof setTimeout> | undefined;
    let hidingBeforeServices: Subscription | undefined;
    /** Asks for the services unless they are there or being asked for; resolves when that request is over, loaded or not. */
    const loadServices = (): Promise<void> => {
      if (servicesLoaded) return Promise.resolve();
      if (servicesAttempt) return servicesAttempt;
      clearTimeout(servicesRetry);
      servicesAttempt = import('./services').then(
        ({ startServices }) => {
          servicesLoaded = true;
          hidingBeforeServices?.unsubscribe();
          try {
            startServices({ config, api, feed, hostCommands$, visibility$, win: window });
          } catch (error) {
            console.error('[vidframe] the services could not start', error);
            errorReporting?.report(error, 'services');
          } finally {
            recorder.release();
            // A page hidden before its logging started may be discarded without notice: what was recorded goes now.
            if (document.visibilityState === 'hidden') window.vidframeTelemetry?.flush();
          }
        },
        (error: unknown) => {
          servicesAttempt = undefined;
          console.error('[vidframe] the services could not load', error);
          // Reported once: a page offline for a while would report every retry.
          if (servicesFailures++ === 0) errorReporting?.report(error, 'services');
          const wait = Math.min(SERVICES_RETRY_AFTER_MS * 2 ** (servicesFailures - 1), SERVICES_RETRY_MAX_MS);
          servicesRetry = setTimeout(() => void loadServices(), wait);
        },
      );
      return servicesAttempt;
    };
    const due$ = race(servicesDue$(player.readiness$, window), pageHiding$(window, document)).pipe(first(), shareReplay(1));
    due$.subscribe(() => void loadServices());
    // A page being hidden while the services are still not there (a failed request for them): the last chance to send.
    hidingBeforeServices = pageHiding$(window, document).subscribe(() => void loadServices());
    // The controls, on demand (see above).
    const needed$ = due$.pipe(
      switchMap(() => controlsNeeded$(player)),
      filter((needed) => needed),
    );
    // Loaded once (`loadOnDemand`). A chunk that could not be loaded (the network, a deploy in between) is asked for
    // again at the next reach or need, `CONTROLS_RETRY_AFTER_MS` after the failure at the soonest; until then the
    // video and the host channel go on without the controls (a click still plays and pauses, the player stays a tab
    // stop). A mount that throws is reported, not retried.
    loadOnDemand(merge(viewerReach$(window), needed$), () => Promise.all([loadServices(), import('./ui')]), {
      retryAfterMs: CONTROLS_RETRY_AFTER_MS,
      onFailure: (error) => {
        console.error('[vidframe] the controls could not load', error);
        errorReporting?.report(error, 'controls');
      },
    }).subscribe(([, { mountEmbedUi }]) => {
      // The shell's clicks go once the controls' own listeners are bound (a click in between still plays or pauses);
      // the player stops being a tab stop.
      try {
        mountEmbedUi(shell, { player, identity, api, errorReporting, win: window, onMounted: releaseShellClicks });
        shell.root.tabIndex = -1;
      } catch (error) {
        console.error('[vidframe] the controls could not start', error);
        errorReporting?.report(error, 'controls');
      }
    });
  } catch (error) {
    // A page without a usable configuration still tells the viewer what happened, and a host told it was ready hears
    // that it failed.
    container.replaceChildren(startupErrorView(error));
    failEarlyHandshake(window);
  }
}

/** The error screen of a page that could not start, in plain DOM (the controls' script is never loaded for it). */
function startupErrorView(error: unknown): HTMLElement {
  const element = (tag: string, className: string, text?: string) => {
    const el = document.createElement(tag);
    el.className = className;
    if (text !== undefined) el.textContent = text;
    return el;
  };
  const view = element('div', 'vf-player');
  const box = element('div', 'vf-error');
  box.setAttribute('role', 'alert');
  box.append(
    element('p', 'vf-error-message', 'The player could not start.'),
    element('p', 'vf-error-detail', error instanceof Error ? error.message : String(error)),
  );
  view.append(box);
  return view;
}
