import type { ErrorReport } from './buildErrorReport';
import { numberText } from '../shared/numberText';

/**
 * A report as the form body the error-reporting endpoint reads (`application/x-www-form-urlencoded`, the one body
 * `sendBeacon` sends without a preflight): `type`, `message`, `url`, and `file`, `line`, `column`, `stack` when the
 * report has them. The collector (`POST /error_204`) keeps `message`, `url`, `file`, `line`, `stack` and `type`, and
 * `column` among its extra fields.
 */
export function errorReportForm(report: ErrorReport): URLSearchParams {
  const form = new URLSearchParams({ type: report.type, message: report.message, url: report.url });
  if (report.file !== undefined) form.set('file', report.file);
  if (report.line !== undefined) form.set('line', numberText(report.line));
  if (report.column !== undefined) form.set('column', numberText(report.column));
  if (report.stack !== undefined) form.set('stack', report.stack);
  return form;
}
