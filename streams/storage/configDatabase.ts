import type { DBSchema } from 'idb';
import type { DatabaseDefinition } from './Database';
import { databaseName, type DatabaseNameOptions } from './databaseName';

/** Spec §3 stored configuration record. */
export interface StoredConfigRecord {
  /** The config group object from the server (`hotConfigGroup` / `coldConfigGroup`). */
  config: Record<string, unknown>;
  /** The hash the server sent with it (`hotHashData` / `coldHashData`); absent when the server sent none. */
  hashData?: string;
  /** The raw serialized config (`rawHotConfigGroup.configData` / `rawColdConfigGroup.configData`), when sent. */
  configData?: string;
  /** When it was stored, in milliseconds since the epoch. */
  timestamp: number;
}

/** The configuration database: a hot and a cold config store, one record each (spec §9). Out-of-line keys. */
export interface ConfigDatabaseSchema extends DBSchema {
  hotConfigStore: { key: number; value: StoredConfigRecord };
  coldConfigStore: { key: number; value: StoredConfigRecord };
}

export const CONFIG_DATABASE_BASE_NAME = 'VidFrameConfigDatabase';

/**
 * The definition of the configuration database. Version history: 1 creates `hotConfigStore` and `coldConfigStore`
 * (auto-increment out-of-line keys, so the newest record has the highest key).
 */
export function configDatabase(nameOptions: DatabaseNameOptions = {}): DatabaseDefinition<ConfigDatabaseSchema> {
  return {
    name: databaseName(CONFIG_DATABASE_BASE_NAME, nameOptions),
    version: 1,
    stores: { hotConfigStore: { autoIncrement: true }, coldConfigStore: { autoIncrement: true } },
    upgrade(db, oldVersion) {
      if (oldVersion < 1) {
        db.createObjectStore('hotConfigStore', { autoIncrement: true });
        db.createObjectStore('coldConfigStore', { autoIncrement: true });
      }
    },
  };
}
