import { catchError, defer, endWith, from, ignoreElements, mergeMap, type ObservableInput, of, type OperatorFunction } from 'rxjs';
import type { ErrorReport } from './buildErrorReport';

/**
 * Sends one report: returns nothing (fire and forget, e.g. `sendBeacon`), or an `ObservableInput` (a fetch's
 * promise) whose error or rejection means the report was not delivered.
 */
export type SendErrorReport = (report: ErrorReport) => ObservableInput<unknown> | void;

/** What became of one report. */
export type ErrorReportOutcome = { report: ErrorReport; outcome: 'sent' } | { report: ErrorReport; outcome: 'failed'; error: unknown };

/**
 * Hands each report to the injected `send` and says what became of it. A failure of `send` (it throws, or what it
 * returns errors or rejects) is caught inside the inner map and becomes a `failed` outcome: it never errors the
 * stream, never escapes as an uncaught error or an unhandled rejection, so it cannot be reported as another error
 * (no loop). Reports are sent at once and concurrently; completion waits for the sends in flight.
 *
 * ```
 * reports:  -a----b----|
 * send(a):   --ok
 * send(b):        #
 * result:   ---s--f----|   (s = sent a, f = failed b)
 * ```
 */
export function sendErrorReports(send: SendErrorReport): OperatorFunction<ErrorReport, ErrorReportOutcome> {
  return mergeMap((report) =>
    defer(() => {
      const result = send(report);
      return result === undefined || result === null ? of(undefined) : from(result);
    }).pipe(
      // Delivered once what `send` returned completes; its values (a Response) are not more deliveries.
      ignoreElements(),
      endWith<ErrorReportOutcome>({ report, outcome: 'sent' }),
      catchError((error: unknown) => of<ErrorReportOutcome>({ report, outcome: 'failed', error })),
    ),
  );
}
