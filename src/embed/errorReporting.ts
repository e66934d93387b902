import { merge, Observable, ReplaySubject, Subject } from 'rxjs';
import { describeThrown, windowErrors$, type WindowError } from '../../streams/sources/windowErrors';
import { errorReports } from '../../streams/errors/errorReports';
import { sendErrorReports, type ErrorReportOutcome, type SendErrorReport } from '../../streams/errors/sendErrorReports';
import { createErrorBeacon } from '../../streams/errors/createErrorBeacon';

/** The page's error reporting, once started. */
export interface ErrorReporting {
  /** What became of each report sent so far (replayed to late subscribers), for diagnostics and tests. */
  readonly outcome$: Observable<ErrorReportOutcome>;
  /** Stops listening for errors (reports already handed to the browser still go out). */
  stop(): void;
}

export interface ErrorReportingOptions {
  /** How a report leaves the page; by default a form beacon to `/error_204` (`sendBeacon`, else `fetch` keepalive). */
  send?: SendErrorReport;
}

/** The browser's own transports of `win`, bound to it; absent ones stay absent. */
function transportOf(win: Window) {
  const navigator = win.navigator as Navigator | undefined;
  return {
    sendBeacon: typeof navigator?.sendBeacon === 'function' ? (url: string, body: URLSearchParams) => navigator.sendBeacon(url, body) : undefined,
    fetch: typeof win.fetch === 'function' ? (url: string, init: RequestInit) => win.fetch(url, init) : undefined,
  };
}

/** The handled errors a page's reporting takes in besides its window's own, per window it was started for. */
const handledErrors = new WeakMap<Window, Subject<WindowError>>();

/**
 * Reports an error the page handled but must still be told about (spec §8: "Unable to load Botguard" when the
 * attestation program cannot load), through the same pipeline as uncaught errors — the same 5-per-page cap, the same
 * de-duplication, the same bot filter. Does nothing (and says so with `false`) where error reporting was not started
 * for `win`; never throws, whatever `error` is.
 */
export function reportHandledError(win: Window, error: unknown): boolean {
  const handled = handledErrors.get(win);
  if (!handled) return false;
  const stack = error instanceof Error && typeof error.stack === 'string' ? error.stack : undefined;
  handled.next({ kind: 'error', message: describeThrown(error), ...(stack !== undefined && { stack }) });
  return true;
}

/**
 * Reports the page's uncaught errors and unhandled promise rejections (spec §7/§8): at most 5 distinct reports per
 * page, messages cut at 250 characters, none at all for a bot's or scanner's user agent. Start it before anything
 * else, so an error while the page starts is reported too.
 *
 * A report that cannot be sent is a `failed` outcome and nothing more: nothing here throws, rejects or logs, so
 * reporting can never cause an error of its own to report.
 */
export function startErrorReporting(win: Window, { send = createErrorBeacon(transportOf(win)) }: ErrorReportingOptions = {}): ErrorReporting {
  const outcome$ = new ReplaySubject<ErrorReportOutcome>();
  const handled = new Subject<WindowError>();
  handledErrors.set(win, handled);
  const subscription = merge(windowErrors$(win), handled)
    .pipe(errorReports({ pageUrl: win.location.href, userAgent: win.navigator?.userAgent }), sendErrorReports(send))
    .subscribe({
      next: (outcome) => outcome$.next(outcome),
      // Unreachable (sendErrorReports never errors), and swallowed if it were: an error here would be reported.
      error: () => outcome$.complete(),
      complete: () => outcome$.complete(),
    });
  return {
    outcome$: outcome$.asObservable(),
    stop: () => {
      if (handledErrors.get(win) === handled) handledErrors.delete(win);
      subscription.unsubscribe();
    },
  };
}
