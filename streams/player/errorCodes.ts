/**
 * Spec §8 "Player error codes for the host": the internal error name → the code the host receives.
 * Every name not listed is 5.
 */
const HOST_ERROR_CODES: Readonly<Record<string, number>> = {
  'api.invalidparam': 2,
  auth: 150,
  'drm.auth': 150,
  'heartbeat.servererror': 150,
  'heartbeat.stop': 150,
  'html5.unsupportedads': 5,
  'fmt.noneavailable': 5,
  'fmt.decode': 5,
  'fmt.unplayable': 5,
  'html5.missingapi': 5,
  'html5.unsupportedlive': 5,
  'drm.unavailable': 5,
  'mrm.blocked': 151,
  'embedder.identity.denied': 152,
};

/** The internal names that spec §8 writes as `{host}`: an error about the embedding host, code 150. */
const HOST_PLACEHOLDER = /^\{host\}$|^host(\.|$)/;

/** The host error code for an internal error name (spec §8). */
export function hostErrorCode(internalError: string): number {
  const listed = Object.prototype.hasOwnProperty.call(HOST_ERROR_CODES, internalError) ? HOST_ERROR_CODES[internalError] : undefined;
  if (listed !== undefined) return listed;
  if (HOST_PLACEHOLDER.test(internalError)) return 150;
  return 5;
}

/** The internal error for a failed media element, from `MediaError.code` (1 aborted, 2 network, 3 decode, 4 source). */
export function internalErrorForMediaError(code: number | undefined): string {
  switch (code) {
    case 3:
      return 'fmt.decode';
    case 4:
      return 'fmt.unplayable';
    case 2:
      return 'net.unknown';
    default:
      return 'fmt.unplayable';
  }
}

/**
 * The internal error of a player answer that cannot play: its own `errorCode` when it names one; `auth` for an answer
 * that asks for a signed-in viewer (`LOGIN_REQUIRED`, which the public player answer sends without an error code);
 * `fmt.unplayable` otherwise.
 */
export function internalErrorForPlayability(status: { status: string; errorCode?: string }): string {
  if (typeof status.errorCode === 'string' && status.errorCode !== '') return status.errorCode;
  return status.status === 'LOGIN_REQUIRED' ? 'auth' : 'fmt.unplayable';
}
