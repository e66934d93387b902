import type { ClientContext } from '../transport/buildClientContext';
import type { StoredConfig } from '../storage/createConfigStore';

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
