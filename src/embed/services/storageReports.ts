import { type Observable, ReplaySubject } from 'rxjs';
import type { StorageError } from '../../../streams/storage/StorageError';

/** The storage reports of the page's databases (`DB_DELETED_BY_MISSING_OBJECT_STORES`, a fallback to memory, …). */
export interface StorageReports {
  /** Every report of this page, in order, replayed to each subscriber. */
  readonly reports$: Observable<{ type: string; message: string }>;
  /** What a database calls when something went wrong with it; also written to the console. */
  report(error: StorageError): void;
}

/** Replayed: the databases may report before the event pipeline subscribes. */
export function createStorageReports(): StorageReports {
  const reports$ = new ReplaySubject<{ type: string; message: string }>();
  return {
    reports$: reports$.asObservable(),
    report(error) {
      reports$.next({ type: error.type, message: error.message });
      console.warn('[vidframe] storage:', error.type, error.message);
    },
  };
}
