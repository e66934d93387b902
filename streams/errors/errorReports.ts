import { distinct, EMPTY, map, type Observable, type OperatorFunction, take } from 'rxjs';
import { ERROR_MESSAGE_MAX_CHARS, ERROR_REPORTS_MAX_PER_PAGE, ERROR_STACK_MAX_CHARS } from '../timing';
import type { WindowError } from '../sources/windowErrors';
import { buildErrorReport, type ErrorReport } from './buildErrorReport';
import { errorReportKey } from './errorReportKey';
import { isBotUserAgent } from './isBotUserAgent';

export interface ErrorReportsOptions {
  /** The page URL every report carries (`location.href`). */
  pageUrl: string;
  /** The browser's user agent (`navigator.userAgent`); a bot's or scanner's errors are not reported at all. */
  userAgent?: string;
  /** Distinct reports per page; duplicates do not count. */
  maxReports?: number;
  maxMessageChars?: number;
  maxStackChars?: number;
  /** Which user agents are bots; {@link isBotUserAgent} by default. */
  isBot?: (userAgent: string | undefined) => boolean;
}

/**
 * The page's errors as the reports to send (spec §8 "Error reports are capped at 5 per page, duplicates dropped,
 * scanners and bots skipped"; §9 "at most 5 errors per page"): each error becomes an {@link ErrorReport}
 * (message ≤ {@link ERROR_MESSAGE_MAX_CHARS}), a report whose {@link errorReportKey} was already seen is dropped and
 * does not count, and after {@link ERROR_REPORTS_MAX_PER_PAGE} distinct reports the stream completes and lets go of
 * its source (the window's listeners are removed). For a bot's user agent the result is empty at once and the source
 * is never subscribed. Not timed: no scheduler.
 *
 * ```
 * errors:  -a-a-b-c-d-e-f-   (a repeated; maxReports = 5)
 * result:  -a---b-c-d-(e|)
 * ```
 */
export function errorReports({
  pageUrl,
  userAgent,
  maxReports = ERROR_REPORTS_MAX_PER_PAGE,
  maxMessageChars = ERROR_MESSAGE_MAX_CHARS,
  maxStackChars = ERROR_STACK_MAX_CHARS,
  isBot = isBotUserAgent,
}: ErrorReportsOptions): OperatorFunction<WindowError, ErrorReport> {
  return (errors$: Observable<WindowError>) =>
    isBot(userAgent) || maxReports <= 0
      ? EMPTY
      : errors$.pipe(
          map((error) => buildErrorReport(error, { pageUrl, maxMessageChars, maxStackChars })),
          // Only keys of reports that pass are kept, so the set never holds more than maxReports entries.
          distinct<ErrorReport, string>(errorReportKey),
          take(maxReports),
        );
}
