import { REQUEST_LOG_LIFETIME_MS, REQUEST_LOG_MAX_ENTRIES } from '../timing';

/** One line of the request log: a log request and what became of it. */
export interface RequestLogEntry {
  /** When it happened, ms since the epoch. */
  timeMs: number;
  /** `log_event` or `video_stats`. */
  endpoint: string;
  /** `sent`, `stored` (kept in the retry queue), `resent` (from the queue), `dropped`, … */
  outcome: string;
  eventCount: number;
}

/** A small string store (the frame's `localStorage`, guarded: `src/embed/services/pageStorage.ts`). */
export interface TextStore {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

export interface RequestLog {
  append(entry: RequestLogEntry): void;
  /** The entries younger than the lifetime at `now`, oldest first. */
  read(now: number): RequestLogEntry[];
  /** Drops the entries older than the lifetime (spec §9: the request log lasts 1 day); resolves how many went. */
  removeExpired(now: number): Promise<number>;
}

export interface RequestLogOptions {
  key?: string;
  lifetimeMs?: number;
  maxEntries?: number;
}

const isEntry = (v: unknown): v is RequestLogEntry =>
  !!v &&
  typeof v === 'object' &&
  Number.isFinite((v as RequestLogEntry).timeMs) &&
  typeof (v as RequestLogEntry).endpoint === 'string' &&
  typeof (v as RequestLogEntry).outcome === 'string' &&
  Number.isFinite((v as RequestLogEntry).eventCount);

/**
 * The request log of spec §9: what became of each log request of this frame's origin, kept
 * {@link REQUEST_LOG_LIFETIME_MS} (1 day) and at most {@link REQUEST_LOG_MAX_ENTRIES} lines, in one JSON text of a
 * string store. An entry exactly one lifetime old has expired. Unreadable text reads as an empty log; a store that
 * refuses writes loses the log, never the page. Expired entries go at start-up cleanup (`removeExpired`, an
 * `ExpiringRecords` for `storageCleanup`) and whenever the log is written.
 */
export function createRequestLog(
  store: TextStore,
  { key = 'vidframe.requestLog', lifetimeMs = REQUEST_LOG_LIFETIME_MS, maxEntries = REQUEST_LOG_MAX_ENTRIES }: RequestLogOptions = {},
): RequestLog {
  const load = (): RequestLogEntry[] => {
    try {
      const parsed: unknown = JSON.parse(store.get(key) ?? '[]');
      return Array.isArray(parsed) ? parsed.filter(isEntry) : [];
    } catch {
      return [];
    }
  };
  const live = (entries: RequestLogEntry[], now: number) => entries.filter((e) => now - e.timeMs < lifetimeMs);
  const save = (entries: RequestLogEntry[]) => store.set(key, JSON.stringify(entries.slice(-maxEntries)));
  return {
    append(entry) {
      save([...live(load(), entry.timeMs), entry]);
    },
    read: (now) => live(load(), now),
    removeExpired(now) {
      const entries = load();
      const kept = live(entries, now);
      if (kept.length !== entries.length) save(kept);
      return Promise.resolve(entries.length - kept.length);
    },
  };
}
