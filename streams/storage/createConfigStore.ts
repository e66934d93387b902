import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { CONFIG_STORE_MAX_RECORDS } from '../timing';
import type { ConfigDatabaseSchema, StoredConfigRecord } from './configDatabase';
import type { Database } from './Database';

/** The part of a `log_event` response the config store reads (spec §7); every part may be absent. */
export interface GlobalConfigGroupResponse {
  responseContext?: {
    globalConfigGroup?: {
      hotConfigGroup?: unknown;
      hotHashData?: unknown;
      coldConfigGroup?: unknown;
      coldHashData?: unknown;
      rawHotConfigGroup?: { configData?: unknown };
      rawColdConfigGroup?: { configData?: unknown };
    };
  };
}

/** Which of the two records a write changed. */
export interface ConfigWriteResult {
  hot: boolean;
  cold: boolean;
}

/** The stored configuration read at start-up; a part never stored is absent. */
export interface StoredConfig {
  hot?: StoredConfigRecord;
  cold?: StoredConfigRecord;
}

export interface ConfigStore {
  /**
   * Stores the hot and the cold config group of a `log_event` response, in one transaction. A part is written only
   * when its config group is an object, and skipped when its hash equals the stored one. A response whose hashes are
   * the ones this instance last wrote or found stored opens no transaction at all: the instance takes itself for the
   * store's only writer (another tab's write, or a deleted database, is not seen until the hash changes). Anything
   * else in the response (absent context, wrong types) is ignored: resolves `{ hot: false, cold: false }`.
   */
  writeFromResponse(response: unknown, now?: number): Promise<ConfigWriteResult>;
  /** The newest hot and cold records. */
  read(): Promise<StoredConfig>;
}

const KINDS = [
  { kind: 'hot', store: 'hotConfigStore', group: 'hotConfigGroup', hash: 'hotHashData', raw: 'rawHotConfigGroup' },
  { kind: 'cold', store: 'coldConfigStore', group: 'coldConfigGroup', hash: 'coldHashData', raw: 'rawColdConfigGroup' },
] as const;

/**
 * Spec §3/§9 stored configuration: the hot and the cold config store hold at most `maxRecords` (1) record each;
 * a write adds the new record and deletes the older ones in the same transaction, so a reader never sees none.
 */
export function createConfigStore(
  db: Database<ConfigDatabaseSchema>,
  { maxRecords = CONFIG_STORE_MAX_RECORDS, clock = asyncScheduler }: { maxRecords?: number; clock?: Pick<SchedulerLike, 'now'> } = {},
): ConfigStore {
  /** Per part, the hash this store last wrote or found stored; a part without a hash is written every time. */
  const settled: { hot?: string; cold?: string } = {};
  return {
    async writeFromResponse(response, now = clock.now()) {
      const group = (response as GlobalConfigGroupResponse | null | undefined)?.responseContext?.globalConfigGroup;
      const records = KINDS.map(({ kind, store, group: groupKey, hash, raw }) => {
        const config = typeof group === 'object' && group !== null ? group[groupKey] : undefined;
        if (!isPlainObject(config)) return { kind, store, record: undefined };
        const hashData = group![hash];
        const configData = group![raw]?.configData;
        const record: StoredConfigRecord = {
          config,
          ...(typeof hashData === 'string' ? { hashData } : {}),
          ...(typeof configData === 'string' ? { configData } : {}),
          timestamp: now,
        };
        return { kind, store, record };
      });
      if (records.every(({ record }) => record === undefined)) return { hot: false, cold: false };
      // The same hashes as this store last wrote or found stored: nothing to do, no transaction (every `log_event`
      // response of a page repeats its config).
      if (records.every(({ kind, record }) => record === undefined || (record.hashData !== undefined && settled[kind] === record.hashData))) {
        return { hot: false, cold: false };
      }
      const seen: { hot?: string; cold?: string } = {};
      const result = await db.transact(['hotConfigStore', 'coldConfigStore'], 'readwrite', async (tx) => {
        const written: ConfigWriteResult = { hot: false, cold: false };
        for (const { kind, store, record } of records) {
          if (record === undefined) continue;
          seen[kind] = record.hashData;
          const existing = await tx.getAll(store);
          const newest = existing[existing.length - 1];
          if (newest !== undefined && record.hashData !== undefined && newest.hashData === record.hashData && existing.length <= maxRecords) continue;
          await tx.put(store, record);
          const keys = await tx.getAllKeys(store);
          for (const key of keys.slice(0, Math.max(0, keys.length - maxRecords))) await tx.delete(store, key);
          written[kind] = true;
        }
        return written;
      });
      // Remembered once the transaction committed (a failed one remembers nothing: the next response tries again).
      Object.assign(settled, seen);
      return result;
    },

    read() {
      return db.transact(['hotConfigStore', 'coldConfigStore'], 'readonly', async (tx) => {
        const hot = (await tx.getAll('hotConfigStore')).at(-1);
        const cold = (await tx.getAll('coldConfigStore')).at(-1);
        return { ...(hot ? { hot } : {}), ...(cold ? { cold } : {}) };
      });
    },
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
