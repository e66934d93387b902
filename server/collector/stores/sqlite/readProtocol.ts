/** The messages between the SQLite store and its read worker (`readWorkers.ts` ↔ `readWorker.ts`). */
import type { SqliteReads } from './reads';
import type { SqliteRollups } from './rollups';

/** Every read the worker answers: the lists of `reads.ts` and the aggregations of `rollups.ts`. */
export type StoreReads = SqliteReads & SqliteRollups;
export type ReadMethod = keyof StoreReads;

export interface ReadWorkerData {
  /** The store's database file (never `:memory:`, which a second connection cannot open). */
  file: string;
}

export interface ReadRequest {
  id: number;
  method: ReadMethod;
  args: unknown[];
}

/** The answer to one read: its value, or the error it threw (its name keeps a `StoreQueryError` one). */
export type ReadReply = { id: number; value: unknown; error?: undefined } | { id: number; error: { name: string; message: string } };
