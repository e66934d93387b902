import { from, type Observable, shareReplay, Subscription } from 'rxjs';
import { storedConfigInfo } from '../../../streams/config/storedConfigInfo';
import { configDatabase } from '../../../streams/storage/configDatabase';
import { createConfigStore, type StoredConfig } from '../../../streams/storage/createConfigStore';
import { createDatabase } from '../../../streams/storage/createDatabase';
import type { StorageError } from '../../../streams/storage/StorageError';
import type { ContextFacts } from './contextFacts';

/** The hot and cold configuration of `log_event` answers (spec §3, §7), kept in IndexedDB. */
export interface ConfigState {
  /** The configuration stored when the page started, as read then (undefined when the read failed). */
  readonly storedAtStart$: Observable<StoredConfig | undefined>;
  /** The context's `configInfo` (spec §3): the stored config's hashes, following every answer that changes them. */
  readonly configInfo$: Observable<ContextFacts['configInfo']>;
  stop(): void;
}

/**
 * The config store as a sink of the `log_event` answers: each answer's config is written, and the store read back
 * when that changed it ({@link storedConfigInfo}); `configInfo$` replays the current value and is followed from now on,
 * so the store is written whether or not anything reads it yet.
 */
export function startConfigStore(logAnswer$: Observable<unknown>, reportStorage: (error: StorageError) => void): ConfigState {
  const store = createConfigStore(createDatabase(configDatabase(), { report: reportStorage }));
  const storedAtStart$ = from(store.read().catch(() => undefined)).pipe(shareReplay({ bufferSize: 1, refCount: false }));
  const configInfo$ = storedConfigInfo({ storedAtStart$, logAnswer$, store }).pipe(shareReplay({ bufferSize: 1, refCount: false }));
  const subscriptions = new Subscription();
  subscriptions.add(configInfo$.subscribe());
  return { storedAtStart$, configInfo$, stop: () => subscriptions.unsubscribe() };
}
