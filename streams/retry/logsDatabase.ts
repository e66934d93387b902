import type { DBSchema } from 'idb';
import type { DatabaseDefinition } from '../storage/Database';
import { databaseName, type DatabaseNameOptions } from '../storage/databaseName';
import type { QueuedLogRequest, QueuedLogRequestStatus } from './QueuedLogRequest';

/** The logs database: one store of queued log requests. */
export interface LogsDatabaseSchema extends DBSchema {
  LogsRequestsStore: {
    key: number;
    value: QueuedLogRequest;
    indexes: {
      /** The requests of one interface in one state, in id order: what the queue picks from. */
      byInterfaceAndStatus: [number, QueuedLogRequestStatus];
    };
  };
}

/** Base name of the logs database; an auth-specific one is `VidFrameLogsDatabase:<user identifier>`. */
export const LOGS_DATABASE_BASE_NAME = 'VidFrameLogsDatabase';

/**
 * The definition of the logs database (name, version, stores and the numbered upgrade ladder).
 *
 * Version history: 1 creates `LogsRequestsStore` (key `id`, auto-increment) with the `byInterfaceAndStatus` index.
 * A later version adds `if (oldVersion < 2) { … }` below the existing step, never edits it.
 *
 * @throws StorageError `INVALID_DATABASE_NAME` or `AUTH_INVALID` from {@link databaseName}.
 */
export function logsDatabase(nameOptions: DatabaseNameOptions = {}): DatabaseDefinition<LogsDatabaseSchema> {
  const stores = {
    LogsRequestsStore: { keyPath: 'id', autoIncrement: true, indexes: { byInterfaceAndStatus: ['interfaceNumber', 'status'] } },
  } as const;
  return {
    name: databaseName(LOGS_DATABASE_BASE_NAME, nameOptions),
    version: 1,
    stores,
    upgrade(db, oldVersion) {
      if (oldVersion < 1) {
        const requests = db.createObjectStore('LogsRequestsStore', { keyPath: 'id', autoIncrement: true });
        requests.createIndex('byInterfaceAndStatus', [...stores.LogsRequestsStore.indexes.byInterfaceAndStatus]);
      }
    },
  };
}
