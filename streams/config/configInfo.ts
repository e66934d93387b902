import type { ClientContext } from '../transport/buildClientContext';
import type { GlobalConfigGroupResponse, StoredConfig } from '../storage/createConfigStore';

/**
 * The context's `configInfo` (spec §3) from the stored hot and cold configuration (spec §7: the `globalConfigGroup`
 * of `log_event` answers, kept by the config store): the hashes the server sent, so it can tell which configuration
 * the client runs with, and the raw cold config data. Undefined when nothing is stored yet.
 */
export function configInfoFrom(stored: StoredConfig | undefined): ClientContext['client']['configInfo'] | undefined {
  if (!stored) return undefined;
  const info: NonNullable<ClientContext['client']['configInfo']> = {};
  if (stored.hot?.hashData) info.hotHashData = stored.hot.hashData;
  if (stored.cold?.hashData) info.coldHashData = stored.cold.hashData;
  if (stored.cold?.configData) info.coldConfigData = stored.cold.configData;
  return Object.keys(info).length > 0 ? info : undefined;
}

/**
 * Whether `info` already names the config hashes a `log_event` answer carries (a part the answer sends no hash for is
 * not compared): when it does not, the page reads the store back even if the answer wrote nothing (its read after a
 * write failed, or the start-up read did), so that `configInfo` catches up at the next answer.
 */
export function configInfoNamesHashesOf(info: ClientContext['client']['configInfo'] | undefined, response: unknown): boolean {
  const group = (response as GlobalConfigGroupResponse | null | undefined)?.responseContext?.globalConfigGroup;
  const named = (sent: unknown, known: string | undefined) => typeof sent !== 'string' || sent === known;
  return named(group?.hotHashData, info?.hotHashData) && named(group?.coldHashData, info?.coldHashData);
}
