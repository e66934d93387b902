import { merge, type Observable, ReplaySubject, Subject } from 'rxjs';
import { handledError, windowErrors$, type WindowError } from '../../../streams/sources/windowErrors';
import { errorReports } from '../../../streams/errors/errorReports';
import { sendErrorReports, type ErrorReportOutcome, type SendErrorReport } from '../../../streams/errors/sendErrorReports';
import { createErrorBeacon } from '../../../streams/errors/createErrorBeacon';

/** The page's error reporting, once started. */
export interface ErrorReporting {
  /** What became of each report sent so far (replayed to late subscribers), for diagnostics and tests. */
  readonly outcome$: Observable<ErrorReportOutcome>;
  /**
   * Reports an error the page caught (a failed platform call): it counts against the same 5 per page and is dropped
   * as a duplicate like any other. `context` says where it was caught. Never throws; a no-op once stopped.
   */
  report(error: unknown, context?: string): void;
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

/** The reporting started for each window, so that code without a handle on it can still report (see below). */
const reportingOf = new WeakMap<Window, ErrorReporting>();

/**
 * Reports an error the page handled but must still be told about (spec §8: "Unable to load Botguard" when the
 * attestation program cannot load) through the reporting started for `win`: `false` (and nothing else) where none was
 * started; never throws, whatever `error` is.
 */
export function reportHandledError(win: Window, error: unknown, context?: string): boolean {
  const reporting = reportingOf.get(win);
  if (!reporting) return false;
  reporting.report(error, context);
  return true;
}

/**
 * Reports the page's uncaught errors and unhandled promise rejections (spec §7/§8), and the handled errors the page
 * hands to `report`: at most 5 distinct reports per page, messages cut at 250 characters, none at all for a bot's or
 * scanner's user agent. Start it before anything else, so an error while the page starts is reported too.
 *
 * A report that cannot be sent is a `failed` outcome and nothing more: nothing here throws, rejects or logs, so
 * reporting can never cause an error of its own to report.
 */
export function startErrorReporting(win: Window, { send = createErrorBeacon(transportOf(win)) }: ErrorReportingOptions = {}): ErrorReporting {
  const outcome$ = new ReplaySubject<ErrorReportOutcome>();
  const handled$ = new Subject<WindowError>();
  const subscription = merge(windowErrors$(win), handled$)
    .pipe(errorReports({ pageUrl: win.location.href, userAgent: win.navigator?.userAgent }), sendErrorReports(send))
    .subscribe({
      next: (outcome) => outcome$.next(outcome),
      // Unreachable (sendErrorReports never errors), and swallowed if it were: an error here would be reported.
      error: () => outcome$.complete(),
      complete: () => outcome$.complete(),
    });
  const report = (error: unknown, context?: string) => {
    try {
      handled$.next(handledError(error, context));
    } catch {
      // Reporting never causes an error of its own (see above).
    }
  };
  const reporting: ErrorReporting = {
    outcome$: outcome$.asObservable(),
    report,
    stop: () => {
      if (reportingOf.get(win) === reporting) reportingOf.delete(win);
      subscription.unsubscribe();
    },
  };
  reportingOf.set(win, reporting);
  return reporting;
}
