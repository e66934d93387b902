import { databaseName } from '../../../streams/storage/databaseName';
import { isStorageError, STORAGE_ERROR_MESSAGES, StorageError } from '../../../streams/storage/StorageError';
import { toStorageError } from '../../../streams/storage/toStorageError';

describe('the spec §8 local-database error catalogue', () => {
  it.each([
    ['AUTH_INVALID', 'No user identifier specified.'],
    ['EXPLICIT_ABORT', 'Transaction was explicitly aborted.'],
    ['IDB_NOT_SUPPORTED', 'IndexedDB is not supported.'],
    ['MISSING_INDEX', 'Index not created.'],
    ['MISSING_OBJECT_STORES', 'Object stores not created.'],
    ['UNKNOWN_ABORT', 'Transaction was aborted for unknown reasons.'],
    ['QUOTA_EXCEEDED', 'The current transaction exceeded its quota limitations.'],
  ] as const)('%s carries the spec message "%s"', (type, message) => {
    const error = new StorageError(type);
    expect(error).toBeInstanceOf(Error);
    expect(error.type).toBe(type);
    expect(error.message).toBe(message);
    expect(error.name).toBe('StorageError');
    expect(isStorageError(error, type)).toBe(true);
  });

  it('has a clear message for every code the spec names without one', () => {
    for (const type of [
      'QUOTA_MAYBE_EXCEEDED',
      'EXECUTE_TRANSACTION_ON_CLOSED_DB',
      'INCOMPATIBLE_DB_VERSION',
      'DB_DELETED_BY_MISSING_OBJECT_STORES',
      'DB_REOPENED_BY_MISSING_OBJECT_STORES',
    ] as const) {
      expect(STORAGE_ERROR_MESSAGES[type]).toMatch(/^[A-Z].{20,}\.$/);
    }
    // The 12 of §8, the §5 name rule, and the browser's refusal, which §8 has no code for.
    expect(Object.keys(STORAGE_ERROR_MESSAGES)).toHaveLength(14);
  });

  it('IDB_ACCESS_DENIED says that the browser refused IndexedDB (not that it is missing) and keeps the browser error as its cause', () => {
    const refusal = new DOMException('The user denied permission to access the database.', 'UnknownError');
    const error = new StorageError('IDB_ACCESS_DENIED', { name: 'LogsDatabaseV2' }, { cause: refusal });
    expect(error.message).toBe('The browser refused this page access to IndexedDB.');
    expect(error.message).not.toBe(STORAGE_ERROR_MESSAGES.IDB_NOT_SUPPORTED);
    expect(error.cause).toBe(refusal);
    expect(isStorageError(error, 'IDB_ACCESS_DENIED')).toBe(true);
  });
});

describe('toStorageError', () => {
  it.each([
    ['QuotaExceededError', 'QUOTA_EXCEEDED'],
    ['UnknownError', 'QUOTA_MAYBE_EXCEEDED'],
    ['VersionError', 'INCOMPATIBLE_DB_VERSION'],
    ['SecurityError', 'IDB_NOT_SUPPORTED'],
    ['InvalidAccessError', 'IDB_NOT_SUPPORTED'],
    ['InvalidStateError', 'EXECUTE_TRANSACTION_ON_CLOSED_DB'],
    ['AbortError', 'UNKNOWN_ABORT'],
  ])('%s → %s, keeping the browser error as cause', (name, type) => {
    const cause = new DOMException('x', name);
    const error = toStorageError(cause, { name: 'Db' });
    expect(error?.type).toBe(type);
    expect(error?.cause).toBe(cause);
    expect(error?.details).toEqual({ name: 'Db', browserError: name });
  });

  it('leaves errors outside the catalogue alone and passes StorageErrors through', () => {
    expect(toStorageError(new DOMException('x', 'ConstraintError'))).toBeUndefined();
    expect(toStorageError(new TypeError('x'))).toBeUndefined();
    expect(toStorageError(null)).toBeUndefined();
    expect(toStorageError('text')).toBeUndefined();
    const own = new StorageError('MISSING_INDEX');
    expect(toStorageError(own)).toBe(own);
  });
});

describe('databaseName (spec §5: no colon)', () => {
  it('accepts a plain base name and appends the user identifier of an auth-specific database', () => {
    expect(databaseName('VidFrameLogs')).toBe('VidFrameLogs');
    expect(databaseName('VidFrameLogs', { userIdentifier: 'ignored' })).toBe('VidFrameLogs');
    expect(databaseName('VidFrameLogs', { authSpecific: true, userIdentifier: '1234' })).toBe('VidFrameLogs:1234');
  });

  it.each([['a:b'], [':'], ['']])('rejects the base name %p with INVALID_DATABASE_NAME', (name) => {
    expect(() => databaseName(name)).toThrow(new StorageError('INVALID_DATABASE_NAME'));
  });

  it('rejects a user identifier with a colon', () => {
    expect(() => databaseName('Logs', { authSpecific: true, userIdentifier: 'x:y' })).toThrow('Database names must not contain a colon.');
  });

  it.each([[undefined], ['']])('AUTH_INVALID when an auth-specific database has user identifier %p', (userIdentifier) => {
    let error: unknown;
    try {
      databaseName('Logs', { authSpecific: true, userIdentifier });
    } catch (e) {
      error = e;
    }
    expect(isStorageError(error, 'AUTH_INVALID')).toBe(true);
    expect((error as Error).message).toBe('No user identifier specified.');
  });
});
