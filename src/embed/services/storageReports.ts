import { map, type Observable, ReplaySubject, Subject, tap } from 'rxjs';
import { reportPageWideOnce } from '../../../streams/storage/reportPageWideOnce';
import type { StorageError } from '../../../streams/storage/StorageError';

/** The storage reports of the page's databases (`DB_DELETED_BY_MISSING_OBJECT_STORES`, a fallback to memory, …). */
export interface StorageReports {
  /** Every report of this page, in order, replayed to each subscriber; a page-wide kind (storage refused) once. */
  readonly reports$: Observable<{ type: string; message: string }>;
  /** What a database calls when something went wrong with it; also written to the console. */
  report(error: StorageError): void;
}

/** Replayed: the databases may report before the event pipeline subscribes. */
export function createStorageReports(): StorageReports {
  const reported$ = new Subject<StorageError>();
  const reports$ = new ReplaySubject<{ type: string; message: string }>();
  reported$
    .pipe(
      reportPageWideOnce(),
      // The browser's own words (its refusal, its error) go to the console with the report.
      tap((error) => console.warn('[vidframe] storage:', error.type, error.message, ...(error.cause === undefined ? [] : [error.cause]))),
      map((error) => ({ type: error.type, message: error.message })),
    )
    .subscribe(reports$);
  return {
    reports$: reports$.asObservable(),
    report: (error) => reported$.next(error),
  };
}
