import { StorageError, type StorageErrorType } from './StorageError';

/**
 * Maps an error thrown by IndexedDB (a DOMException, by `name`) to the catalogue code it stands for, or returns
 * `undefined` when it stands for none (a ConstraintError, a DataCloneError, a bug in the caller's work): those are
 * the caller's errors and travel unchanged.
 *
 * | browser error           | catalogue code                     |
 * |-------------------------|------------------------------------|
 * | QuotaExceededError      | QUOTA_EXCEEDED                     |
 * | UnknownError            | QUOTA_MAYBE_EXCEEDED (disk full and quota eviction surface so; at open it is IDB_NOT_SUPPORTED, see openIdbDatabase) |
 * | VersionError            | INCOMPATIBLE_DB_VERSION            |
 * | SecurityError, InvalidAccessError | IDB_NOT_SUPPORTED        |
 * | InvalidStateError       | EXECUTE_TRANSACTION_ON_CLOSED_DB   |
 * | AbortError              | UNKNOWN_ABORT                      |
 *
 * A {@link StorageError} is returned as it is.
 */
export function toStorageError(error: unknown, details: Readonly<Record<string, unknown>> = {}): StorageError | undefined {
  if (error instanceof StorageError) return error;
  const type = BROWSER_ERROR_TYPES[errorName(error)];
  return type === undefined ? undefined : new StorageError(type, { ...details, browserError: errorName(error) }, { cause: error });
}

const BROWSER_ERROR_TYPES: Readonly<Record<string, StorageErrorType>> = {
  QuotaExceededError: 'QUOTA_EXCEEDED',
  UnknownError: 'QUOTA_MAYBE_EXCEEDED',
  VersionError: 'INCOMPATIBLE_DB_VERSION',
  SecurityError: 'IDB_NOT_SUPPORTED',
  InvalidAccessError: 'IDB_NOT_SUPPORTED',
  InvalidStateError: 'EXECUTE_TRANSACTION_ON_CLOSED_DB',
  AbortError: 'UNKNOWN_ABORT',
};

/** The `name` of an Error or DOMException-like value, or `''`. */
export function errorName(error: unknown): string {
  return typeof error === 'object' && error !== null && typeof (error as { name?: unknown }).name === 'string' ? (error as { name: string }).name : '';
}
