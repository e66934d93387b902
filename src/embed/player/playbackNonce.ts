import { PLAYBACK_NONCE_CHARS } from '../../../streams/timing';

const NONCE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * A new client playback nonce (`cpn`): {@link PLAYBACK_NONCE_CHARS} characters of the base64url alphabet, from the
 * page's crypto. The ping beacons and the feedback call both carry one per video load.
 */
export function newPlaybackNonce(win: Window): string {
  const bytes = win.crypto.getRandomValues(new Uint8Array(PLAYBACK_NONCE_CHARS));
  return Array.from(bytes, (b) => NONCE_ALPHABET[b & 63]).join('');
}
