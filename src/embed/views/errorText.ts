import { LIST_UNAVAILABLE } from '../../../streams/player/playerEngine';
import type { MessageKey } from '../i18n/catalogs/en';
import type { I18n } from '../i18n/translate';

/** The words for a failure, by its internal name (spec §8); a list that names nothing by which kind of list it is. */
export function errorMessageKey(internal: string, message: string): MessageKey {
  if (internal === 'api.invalidparam') {
    if (message === LIST_UNAVAILABLE.playlist) return 'errorPlaylist';
    if (message === LIST_UNAVAILABLE.user_uploads) return 'errorNoUploads';
    if (message === LIST_UNAVAILABLE.search) return 'errorNoMatch';
    return 'errorInvalidParam';
  }
  if (internal.startsWith('net.')) return 'errorNetwork';
  if (internal === 'auth' || internal === 'drm.auth') return 'errorAuth';
  if (internal === 'embedder.identity.denied' || /^\{host\}$|^host(\.|$)/.test(internal)) return 'errorEmbedder';
  const named: Record<string, MessageKey> = {
    'fmt.noneavailable': 'errorNoFormat',
    'fmt.unplayable': 'errorUnplayable',
    'fmt.decode': 'errorDecode',
    'html5.missingapi': 'errorUnplayable',
    'mrm.blocked': 'errorBlocked',
    'heartbeat.stop': 'errorHeartbeatStop',
    'heartbeat.servererror': 'errorHeartbeatServer',
  };
  return named[internal] ?? 'errorUnavailable';
}

/**
 * What the error screen says. In English, the failure's own message (the server's reason, which may say more than the
 * player knows); in another language the player's translation for that kind of failure (the server's reason is
 * English).
 */
export const errorText = (error: { internal: string; message: string }, i18n: I18n): string =>
  i18n.language === 'en' && error.message ? error.message : i18n.t(errorMessageKey(error.internal, error.message));
