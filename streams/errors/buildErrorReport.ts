import { ERROR_MESSAGE_MAX_CHARS, ERROR_STACK_MAX_CHARS } from '../timing';
import type { WindowError } from '../sources/windowErrors';
import { truncateText } from './truncateText';

/** One error report for the error-reporting endpoint (spec §7: logerror, type jserror). */
export interface ErrorReport {
  type: 'jserror';
  /** At most {@link ERROR_MESSAGE_MAX_CHARS} characters. */
  message: string;
  /** The page the error happened on. */
  url: string;
  file?: string;
  line?: number;
  column?: number;
  /** At most `maxStackChars` characters. */
  stack?: string;
}

export interface BuildErrorReportOptions {
  /** The page URL (`location.href`). */
  pageUrl: string;
  maxMessageChars?: number;
  maxStackChars?: number;
}

/**
 * The report of one page error (spec §7 "message truncated to 250 chars, page URL, file, stack"): the message cut
 * cleanly at {@link ERROR_MESSAGE_MAX_CHARS}, the page URL, the script file, line and column when known, and the stack
 * bounded to `maxStackChars`. Fields the error does not have are left out, never sent empty.
 */
export function buildErrorReport(
  error: WindowError,
  { pageUrl, maxMessageChars = ERROR_MESSAGE_MAX_CHARS, maxStackChars = ERROR_STACK_MAX_CHARS }: BuildErrorReportOptions,
): ErrorReport {
  return {
    type: 'jserror',
    message: truncateText(error.message, maxMessageChars),
    url: pageUrl,
    ...(error.file !== undefined ? { file: error.file } : {}),
    ...(error.line !== undefined ? { line: error.line } : {}),
    ...(error.column !== undefined ? { column: error.column } : {}),
    ...(error.stack !== undefined ? { stack: truncateText(error.stack, maxStackChars) } : {}),
  };
}
