import { StorageError } from './StorageError';

export interface DatabaseNameOptions {
  /**
   * True for a database that holds one signed-in user's data: its name then carries the user identifier after a
   * colon, and asking for it without an identifier is `AUTH_INVALID`.
   */
  authSpecific?: boolean;
  /** The signed-in user's identifier (the datasync id); ignored for databases that are not auth-specific. */
  userIdentifier?: string;
}

/**
 * The full name of a local database (spec §5: names must not contain a colon).
 *
 * The colon is reserved as the separator between the base name and the user identifier of an auth-specific
 * database (`VidFrameLogs:1234`), so neither part may contain one.
 *
 * @throws StorageError `INVALID_DATABASE_NAME` when a part contains a colon or the base name is empty;
 *   `AUTH_INVALID` when `authSpecific` is set and no user identifier is given.
 */
export function databaseName(baseName: string, { authSpecific = false, userIdentifier }: DatabaseNameOptions = {}): string {
  if (typeof baseName !== 'string' || baseName.length === 0 || baseName.includes(':')) {
    throw new StorageError('INVALID_DATABASE_NAME', { name: String(baseName) });
  }
  if (!authSpecific) return baseName;
  if (typeof userIdentifier !== 'string' || userIdentifier.length === 0) {
    throw new StorageError('AUTH_INVALID', { name: baseName });
  }
  if (userIdentifier.includes(':')) {
    throw new StorageError('INVALID_DATABASE_NAME', { name: baseName, userIdentifier });
  }
  return `${baseName}:${userIdentifier}`;
}

/** True when `name` is a valid full name: a base name, optionally followed by one colon and a user identifier. */
export function isValidDatabaseName(name: string): boolean {
  const parts = name.split(':');
  return parts.length <= 2 && parts.every((part) => part.length > 0);
}
