import { defer, filter, type MonoTypeOperatorFunction } from 'rxjs';
import type { StorageErrorType } from './StorageError';

/**
 * The storage reports that are about the page as a whole, not about one of its databases: the browser has no
 * IndexedDB, or refuses it to this page. Every database of the page meets the same refusal when it opens; the page
 * says so once.
 */
export const PAGE_WIDE_STORAGE_ERRORS: readonly StorageErrorType[] = ['IDB_ACCESS_DENIED', 'IDB_NOT_SUPPORTED'];

/**
 * Passes the page's storage reports on, each page-wide kind ({@link PAGE_WIDE_STORAGE_ERRORS}) only the first time it
 * comes; every other kind (a database deleted for missing stores, a quota) each time, since each names its own
 * database. Apply it once, where the page's reports are gathered: the "once" is per subscription.
 *
 * ```
 * reports: -a-a-d-b-d-    a IDB_ACCESS_DENIED (one per database), d DB_DELETED_BY_MISSING_OBJECT_STORES, b IDB_NOT_SUPPORTED
 * result:  -a---d-b-d-
 * ```
 */
export function reportPageWideOnce<T extends { type: string }>(): MonoTypeOperatorFunction<T> {
  return (reports$) =>
    defer(() => {
      const reported = new Set<string>();
      return reports$.pipe(
        filter((report) => {
          if (!PAGE_WIDE_STORAGE_ERRORS.some((type) => type === report.type)) return true;
          if (reported.has(report.type)) return false;
          reported.add(report.type);
          return true;
        }),
      );
    });
}
