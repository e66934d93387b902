import type { ErrorReport } from './buildErrorReport';
import { errorReportForm } from './errorReportForm';
import type { SendErrorReport } from './sendErrorReports';

/** The path of the error-reporting endpoint (spec §7 logerror), root-relative: the page's own server. */
export const ERROR_REPORT_PATH = '/error_204';

/** The two ways out of a page, as the browser has them (both optional: old browsers, tests). */
export interface ErrorBeaconTransport {
  /** `navigator.sendBeacon`, bound to its navigator. */
  sendBeacon?: (url: string, body: URLSearchParams) => boolean;
  /** `fetch`, bound to its window. */
  fetch?: (url: string, init: RequestInit) => Promise<unknown>;
}

/**
 * A {@link SendErrorReport} that posts each report as a form to {@link ERROR_REPORT_PATH}: with `sendBeacon` when the
 * browser has it and it accepts the report (it survives the page closing; nothing to wait for), else with `fetch`
 * and `keepalive` (its promise is the delivery: a failure rejects and `sendErrorReports` catches it). With neither,
 * the report is refused with a clear error, which also becomes a `failed` outcome, never an uncaught error.
 */
export function createErrorBeacon({ sendBeacon, fetch }: ErrorBeaconTransport, path = ERROR_REPORT_PATH): SendErrorReport {
  return (report: ErrorReport) => {
    const body = errorReportForm(report);
    if (sendBeacon && sendBeacon(path, body)) return undefined;
    if (fetch) return fetch(path, { method: 'POST', body, keepalive: true, credentials: 'same-origin' });
    throw new Error('error report not sent: neither sendBeacon nor fetch is available');
  };
}
