import { asyncScheduler, catchError, defer, from, map, merge, mergeMap, Observable, type ObservableInput, of, type SchedulerLike } from 'rxjs';
import { wrap } from 'idb';

/** Databases of earlier schemas that nothing opens any more. Empty until a schema is renamed. */
export const LEGACY_DATABASE_NAMES: readonly string[] = [];

/** Something holding records that expire (a `RetryQueue` fits). */
export interface ExpiringRecords {
  removeExpired(now: number): ObservableInput<number>;
}

export type StorageCleanupEvent =
  | { type: 'database-deleted'; name: string }
  /** Another tab keeps the database open; it is deleted once that tab closes it. */
  | { type: 'database-delete-blocked'; name: string }
  | { type: 'records-expired'; count: number }
  | { type: 'cleanup-error'; error: unknown };

export interface StorageCleanupOptions {
  /** The IndexedDB factory; `undefined` reads `globalThis.indexedDB`, `null` skips database deletion. */
  indexedDB?: IDBFactory | null;
  /** Names of databases to delete. */
  legacyDatabaseNames?: readonly string[];
  /** Stores whose expired records are removed (the retry queue: requests untouched for 30 days). */
  expiring?: readonly ExpiringRecords[];
  scheduler?: SchedulerLike;
}

/**
 * Start-up storage cleanup (spec §1): deletes legacy databases and removes expired records. A cold
 * observable: nothing happens until the integrator subscribes, which it does once the player is ready, so the
 * cleanup never delays the player. Every step runs independently (a delete blocked by another tab does not hold
 * back the others) and a failing step becomes a `cleanup-error` event; the observable never errors.
 *
 * Legacy databases are looked up with `indexedDB.databases()` where the browser has it, so an absent name costs
 * nothing; elsewhere each name is deleted blindly (deleting a missing database is a no-op).
 */
export function storageCleanup({
  indexedDB,
  legacyDatabaseNames = LEGACY_DATABASE_NAMES,
  expiring = [],
  scheduler = asyncScheduler,
}: StorageCleanupOptions = {}): Observable<StorageCleanupEvent> {
  return defer(() => {
    const factory = indexedDB === undefined ? globalIndexedDB() : indexedDB;
    const expired$ = expiring.map((records) =>
      defer(() => records.removeExpired(scheduler.now())).pipe(
        map((count): StorageCleanupEvent => ({ type: 'records-expired', count })),
        catchError((error: unknown) => of<StorageCleanupEvent>({ type: 'cleanup-error', error })),
      ),
    );
    const deleted$ =
      factory && legacyDatabaseNames.length > 0
        ? defer(() => existingNames(factory, legacyDatabaseNames)).pipe(
            mergeMap((names) => merge(...names.map((name) => deleteDatabase$(factory, name)))),
            catchError((error: unknown) => of<StorageCleanupEvent>({ type: 'cleanup-error', error })),
          )
        : [];
    return merge(...expired$, deleted$);
  });
}

/** The given names that exist, when the factory can list databases; all of them otherwise. */
async function existingNames(factory: IDBFactory, names: readonly string[]): Promise<string[]> {
  if (typeof factory.databases !== 'function') return [...names];
  const existing = new Set((await factory.databases()).map((info) => info.name));
  return names.filter((name) => existing.has(name));
}

function deleteDatabase$(factory: IDBFactory, name: string): Observable<StorageCleanupEvent> {
  // Hand-written: the edge to `deleteDatabase`, whose `blocked` events come before its result.
  return new Observable<StorageCleanupEvent>((subscriber) => {
    let request: IDBOpenDBRequest;
    try {
      request = factory.deleteDatabase(name);
    } catch (error) {
      subscriber.next({ type: 'cleanup-error', error });
      subscriber.complete();
      return;
    }
    const onBlocked = () => subscriber.next({ type: 'database-delete-blocked', name });
    request.addEventListener('blocked', onBlocked);
    const done = from(wrap(request)).subscribe({
      next: () => {
        subscriber.next({ type: 'database-deleted', name });
        subscriber.complete();
      },
      error: (error: unknown) => {
        subscriber.next({ type: 'cleanup-error', error });
        subscriber.complete();
      },
    });
    return () => {
      request.removeEventListener('blocked', onBlocked);
      done.unsubscribe();
    };
  });
}

function globalIndexedDB(): IDBFactory | undefined {
  try {
    return (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  } catch {
    return undefined;
  }
}
