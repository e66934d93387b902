/**
 * The local-database error catalogue of spec §8, plus one validation error of spec §5.
 *
 * Every error the storage layer raises is a {@link StorageError} whose `type` is one of these codes and whose
 * `message` is the catalogue text (the spec's own text where it gives one, a plain sentence otherwise), so a
 * reader can go from a reported code to the spec line and back.
 */
export const STORAGE_ERROR_MESSAGES = {
  /** §8 An auth-specific database was asked for without the signed-in user's identifier. */
  AUTH_INVALID: 'No user identifier specified.',
  /** §8 Our own code aborted the transaction (`abort()` was called). */
  EXPLICIT_ABORT: 'Transaction was explicitly aborted.',
  /** §8 No `indexedDB` factory, or the browser refuses it (SecurityError, private mode, opaque origin). */
  IDB_NOT_SUPPORTED: 'IndexedDB is not supported.',
  /** §8 An index the schema declares is not in the database. */
  MISSING_INDEX: 'Index not created.',
  /** §8 An object store the schema declares is not in the database. */
  MISSING_OBJECT_STORES: 'Object stores not created.',
  /** §8 Reported when the database was deleted because object stores were still missing after a retry. */
  DB_DELETED_BY_MISSING_OBJECT_STORES: 'The database was deleted because object stores were missing after reopening it.',
  /** §8 Reported when the database deleted for missing stores was created again with every store. */
  DB_REOPENED_BY_MISSING_OBJECT_STORES: 'The database was recreated with all its object stores after they were found missing.',
  /** §8 The transaction aborted without an error and without our asking. */
  UNKNOWN_ABORT: 'Transaction was aborted for unknown reasons.',
  /** §8 The browser said QuotaExceededError. */
  QUOTA_EXCEEDED: 'The current transaction exceeded its quota limitations.',
  /** §8 The browser said UnknownError, which is how disk-full and quota eviction often surface (Safari, Chrome). */
  QUOTA_MAYBE_EXCEEDED: 'The current transaction failed with an unknown error and may have exceeded its quota limitations.',
  /** §8 A transaction was started on a connection that stays closed even after reopening it. */
  EXECUTE_TRANSACTION_ON_CLOSED_DB: 'Cannot execute a transaction on a closed database.',
  /** §8 The stored database has a higher version than this code knows (VersionError on open). */
  INCOMPATIBLE_DB_VERSION: 'The stored database has a newer version than this page supports.',
  /**
   * Not in §8: the browser has IndexedDB and refuses it to this page (a cross-origin frame in a private window:
   * "The user denied permission to access the database."). §8's nearest code, IDB_NOT_SUPPORTED, would say IndexedDB
   * is missing, which it is not. The browser's error is the cause.
   */
  IDB_ACCESS_DENIED: 'The browser refused this page access to IndexedDB.',
  /** §5 Database names must not contain a colon (it separates the base name from the user identifier). Not in §8. */
  INVALID_DATABASE_NAME: 'Database names must not contain a colon.',
} as const;

/** One code of the catalogue. */
export type StorageErrorType = keyof typeof STORAGE_ERROR_MESSAGES;

/** A typed local-database error: `type` is the catalogue code, `message` its catalogue text. */
export class StorageError extends Error {
  override readonly name = 'StorageError';

  constructor(
    readonly type: StorageErrorType,
    /** Extra facts for the report (database name, store names, versions, the browser's error name). */
    readonly details: Readonly<Record<string, unknown>> = {},
    options?: { cause?: unknown },
  ) {
    super(STORAGE_ERROR_MESSAGES[type], options);
  }
}

/** True when `error` is a {@link StorageError}, optionally of the given type. */
export function isStorageError(error: unknown, type?: StorageErrorType): error is StorageError {
  return error instanceof StorageError && (type === undefined || error.type === type);
}
