import { catchError, defer, EMPTY, from, map, merge, mergeMap, type Observable, type ObservableInput, tap } from 'rxjs';
import type { ConfigWriteResult, StoredConfig } from '../storage/createConfigStore';
import type { ClientContext } from '../transport/buildClientContext';
import { configInfoFrom, configInfoNamesHashesOf } from './configInfo';

type ConfigInfo = ClientContext['client']['configInfo'];

/** The config store's operations the state needs (a `ConfigStore` fits; a marble test passes `cold()` fakes). */
export interface ConfigStoreEffects {
  /** Stores the hot and cold config a `log_event` answer carries; says which record changed. */
  writeFromResponse(response: unknown): ObservableInput<ConfigWriteResult>;
  read(): ObservableInput<StoredConfig | undefined>;
}

export interface StoredConfigInfoSources {
  /** The configuration stored at start-up (one value; undefined when the read failed or nothing is stored). */
  storedAtStart$: Observable<StoredConfig | undefined>;
  /** The body of every `log_event` answer, as it arrives. */
  logAnswer$: Observable<unknown>;
  store: ConfigStoreEffects;
}

/**
 * The context's `configInfo` (spec §3) as the state of the config store (spec §7): the start-up read, then, for every
 * `log_event` answer, the answer written to the store and the store read back — only when the write changed a record,
 * or when the current `configInfo` does not name the answer's hashes yet (a read that failed): an answer repeating the
 * config already named costs no transaction beyond its write. A read-back that finds nothing keeps the current value.
 * A failed write or read is that answer's alone: the state goes on with the next one.
 *
 * ```
 * storedAtStart$: --s|
 * logAnswer$:     -----a---b--     (a carries a new hot hash, b repeats it)
 * writes:              w   w       (a changes the hot record, b changes nothing)
 * result:         --i--j-------    (i from s; j read back after a; nothing after b)
 * ```
 */
export function storedConfigInfo({ storedAtStart$, logAnswer$, store }: StoredConfigInfoSources): Observable<ConfigInfo | undefined> {
  return defer(() => {
    let current: ConfigInfo | undefined;
    const readBack = (answer: unknown) =>
      from(store.writeFromResponse(answer)).pipe(
        mergeMap((written) => (written.hot || written.cold || !configInfoNamesHashesOf(current, answer) ? from(store.read()) : EMPTY)),
        mergeMap((stored) => (stored ? [configInfoFrom(stored) ?? current] : [])),
        catchError(() => EMPTY),
      );
    return merge(storedAtStart$.pipe(map(configInfoFrom)), logAnswer$.pipe(mergeMap(readBack))).pipe(tap((info) => (current = info)));
  });
}
