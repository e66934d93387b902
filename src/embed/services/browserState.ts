import { distinctUntilChanged, filter, map, share, shareReplay, Subject, Subscription, type Observable } from 'rxjs';
import { pageLifecycleState, type PageLifecycleState } from '../../../streams/lifecycle/pageLifecycleState';
import { networkStatus } from '../../../streams/network/networkStatus';
import { networkEvents$ } from '../../../streams/sources/networkEvents';
import { pageLifecycleEvents$ } from '../../../streams/sources/pageLifecycleEvents';
import { visibilityEvents$ } from '../../../streams/sources/visibilityEvents';
import { visibilityState, type VisibilityState } from '../../../streams/visibility/visibilityState';
import { generate204Probe } from '../../../streams/network/generate204Probe';

/** The page's situation as its logging reads it: network, visibility, lifecycle, and the flushes a disposal asks for. */
export interface BrowserState {
  /** The network status (browser events confirmed by the generate_204 probe), replaying the current one. */
  readonly online$: Observable<boolean>;
  /** The page's visibility (spec §4), from the document's visibility and the window's focus and blur. */
  readonly visibility$: Observable<VisibilityState>;
  /** The page lifecycle state (spec §4); a disposal state is followed by `document_active` in the same tick. */
  readonly lifecycle$: Observable<PageLifecycleState>;
  /** A disposal, for the tier dispatcher: hand over every event it still holds. Always before {@link sinkFlush$}. */
  readonly dispatcherFlush$: Observable<PageLifecycleState>;
  /** A disposal, for the log sink: send the whole queue through keepalive. */
  readonly sinkFlush$: Observable<PageLifecycleState>;
  /** Flushes as a disposal (`document_disposed_preventable`) does, without one. */
  flush(): void;
  stop(): void;
}

/**
 * The browser's state for the page's telemetry. `visibility$` may be given (the page recorded it from its start, since
 * logging starts after ready); by default it is read from the document from now on.
 */
export function startBrowserState(win: Window, { visibility$ }: { visibility$?: Observable<VisibilityState> } = {}): BrowserState {
  const subscriptions = new Subscription();
  const online$ = networkStatus(networkEvents$(win), {
    readOnLine: () => win.navigator.onLine,
    probe: generate204Probe((url, init) => win.fetch(url, init)),
  }).pipe(
    map((s) => s === 'online'),
    distinctUntilChanged(),
    shareReplay({ bufferSize: 1, refCount: false }),
  );
  // Followed from the start, so that the status (and the probe behind it) is current when the logging reads it.
  subscriptions.add(online$.subscribe());

  const lifecycle$ = pageLifecycleState(pageLifecycleEvents$(win)).pipe(share());
  // On disposal, two flushes in this order: first the tier dispatcher hands over every event it still holds, then
  // the log sink sends its whole queue through keepalive. One subscriber fans out, so the order cannot change.
  const dispatcherFlush$ = new Subject<PageLifecycleState>();
  const sinkFlush$ = new Subject<PageLifecycleState>();
  const flushAs = (state: PageLifecycleState) => {
    dispatcherFlush$.next(state);
    sinkFlush$.next(state);
  };
  subscriptions.add(lifecycle$.pipe(filter((s) => s !== 'document_active')).subscribe(flushAs));
  const readVisibility = () => win.document.visibilityState;
  return {
    online$,
    visibility$: visibility$ ?? visibilityState(visibilityEvents$({ document: win.document, window: win }, readVisibility), { readVisibility }),
    lifecycle$,
    dispatcherFlush$: dispatcherFlush$.asObservable(),
    sinkFlush$: sinkFlush$.asObservable(),
    flush: () => flushAs('document_disposed_preventable'),
    stop: () => subscriptions.unsubscribe(),
  };
}
