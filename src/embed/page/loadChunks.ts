import { filter, first, forkJoin, from, merge, race, shareReplay, Subject, switchMap, take, type Observable } from 'rxjs';
import { controlsNeeded$ } from '../../../streams/player/controlsDemand';
import { loadOnDemand, type ChunkLoad } from '../../../streams/shared/loadOnDemand';
import { pageHiding$ } from '../../../streams/sources/pageHiding';
import { CONTROLS_RETRY_AFTER_MS, CONTROLS_RETRY_MAX_MS, SERVICES_RETRY_AFTER_MS, SERVICES_RETRY_MAX_MS } from '../../../streams/timing';
import type { ErrorReporting } from '../services/errorReporting';
import { servicesDue$, viewerReach$ } from './chunkDemands';
import type { StartedPlayer } from './startPlayer';
import { loadCatalog } from '../i18n/loadCatalog';

/** Tells of a chunk's failures: each on the console, the first one only as a report (an offline page retries often). */
function reportFailures<T>(name: string, errorReporting: ErrorReporting | undefined) {
  return (load: ChunkLoad<T>): void => {
    if (load.status !== 'failed') return;
    console.error(`[vidframe] the ${name} could not load`, load.error);
    if (load.failures === 1) errorReporting?.report(load.error, name);
  };
}

/**
 * The page's two chunks, each loaded once on demand by the same rule (`loadOnDemand`: a demand stays in force until
 * the chunk is there; a failure is tried again by itself after a backoff).
 *
 * - The services (logging with its storage and retry queue, consent, geolocation, attestation) are due once the player
 *   is ready, the page loaded and the main thread idle (`servicesDue$`), so they never compete with the first frame or
 *   the host's handshake, or once the page is being hidden. The page being hidden, or the controls coming, asks for
 *   them at once even during a backoff:
 *   what was recorded must get its chance to be sent, and the controls start after them. Until they are there the
 *   recorder keeps what logging will want to see, which they then send in full.
 * - The controls (React, the views, the platform calls only they use; with the catalog of the viewer's language) come when the viewer reaches for the player or,
 *   once the services are due, when the video needs more than itself (`controlsNeeded$`); a video playing on its own
 *   that nobody touches never loads them. They mount once the services' attempt is over, loaded or not, so the views
 *   find attestation started. A mount that throws is reported, not retried.
 */
export function loadChunks(started: StartedPlayer, win: Window, errorReporting: ErrorReporting | undefined): void {
  const { player, shell, recorder } = started;
  const doc = win.document;
  const due$ = race(servicesDue$(player.readiness$, win), pageHiding$(win, doc)).pipe(first(), shareReplay(1));
  const servicesNow$ = new Subject<void>();
  const services$ = loadOnDemand(due$, () => import('./services'), {
    retryAfterMs: SERVICES_RETRY_AFTER_MS,
    retryMaxMs: SERVICES_RETRY_MAX_MS,
    urgent$: merge(pageHiding$(win, doc), servicesNow$),
  }).pipe(shareReplay(1));
  services$.subscribe((load) => {
    reportFailures('services', errorReporting)(load);
    if (load.status !== 'loaded') return;
    try {
      load.value.startServices({
        config: started.config,
        player,
        api: started.api,
        feed: started.feed,
        hostCommands$: started.hostCommands$,
        visibility$: started.visibility$,
        win,
      });
    } catch (error) {
      console.error('[vidframe] the services could not start', error);
      errorReporting?.report(error, 'services');
    } finally {
      recorder.release();
      // A page hidden before its logging started may be discarded without notice: what was recorded goes now.
      if (doc.visibilityState === 'hidden') win.vidframeTelemetry?.flush();
    }
  });
  /** The services' current attempt over, loaded or failed (at once when they are there). */
  const servicesSettled = (): Observable<unknown> => {
    servicesNow$.next();
    return services$.pipe(
      filter((load) => load.status !== 'loading'),
      take(1),
    );
  };

  const needed$ = due$.pipe(
    switchMap(() => controlsNeeded$(player)),
    filter((needed) => needed),
  );
  loadOnDemand(merge(viewerReach$(win), needed$), () => forkJoin([from(import('./ui')), from(loadCatalog(started.language)), servicesSettled()]), {
    retryAfterMs: CONTROLS_RETRY_AFTER_MS,
    retryMaxMs: CONTROLS_RETRY_MAX_MS,
  }).subscribe((load) => {
    reportFailures('controls', errorReporting)(load);
    if (load.status !== 'loaded') return;
    // The shell's clicks go once the controls' own listeners are bound (a click in between still plays or pauses);
    // the player stops being a tab stop.
    try {
      const [{ mountEmbedUi }, catalog] = load.value;
      const { identity, api, language, releaseShellClicks } = started;
      mountEmbedUi(shell, { player, identity, api, errorReporting, win, language, catalog, onMounted: releaseShellClicks });
      shell.root.tabIndex = -1;
    } catch (error) {
      console.error('[vidframe] the controls could not start', error);
      errorReporting?.report(error, 'controls');
    }
  });
}
