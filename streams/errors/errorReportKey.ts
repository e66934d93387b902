import type { ErrorReport } from './buildErrorReport';
import { numberText } from '../shared/numberText';

/**
 * What makes two reports the same error (spec §8 "duplicates dropped"): the message as sent (so two messages that
 * differ only beyond the cut are one report), the file and the line. The column and the stack are left out: the
 * same throw reached from two call paths is still one error. A separator that cannot occur in a URL keeps
 * `("a:1", "")` and `("a", "1")` apart.
 */
export function errorReportKey({ message, file, line }: Pick<ErrorReport, 'message' | 'file' | 'line'>): string {
  return `${message}\u0000${file ?? ''}\u0000${line === undefined ? '' : numberText(line)}`;
}
