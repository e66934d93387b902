import { hostErrorCode, internalErrorForMediaError, internalErrorForPlayability } from '../../../streams/player/errorCodes';

describe('host error codes (spec §8)', () => {
  it.each([
    ['api.invalidparam', 2],
    ['auth', 150],
    ['drm.auth', 150],
    ['{host}', 150],
    ['heartbeat.servererror', 150],
    ['heartbeat.stop', 150],
    ['html5.unsupportedads', 5],
    ['fmt.noneavailable', 5],
    ['fmt.decode', 5],
    ['fmt.unplayable', 5],
    ['html5.missingapi', 5],
    ['html5.unsupportedlive', 5],
    ['drm.unavailable', 5],
    ['mrm.blocked', 151],
    ['embedder.identity.denied', 152],
    ['video.unavailable', 5],
    ['something.new', 5],
    ['toString', 5],
    ['__proto__', 5],
    ['', 5],
  ])('%s → %d', (internal, code) => {
    expect(hostErrorCode(internal)).toBe(code);
  });

  it('names the media element failures', () => {
    expect(internalErrorForMediaError(3)).toBe('fmt.decode');
    expect(internalErrorForMediaError(4)).toBe('fmt.unplayable');
    expect(internalErrorForMediaError(2)).toBe('net.unknown');
    expect(internalErrorForMediaError(undefined)).toBe('fmt.unplayable');
  });

  it('names the failure of a player answer: its own error code, auth for LOGIN_REQUIRED, fmt.unplayable otherwise', () => {
    expect(internalErrorForPlayability({ status: 'UNPLAYABLE', errorCode: 'mrm.blocked' })).toBe('mrm.blocked');
    expect(internalErrorForPlayability({ status: 'LOGIN_REQUIRED' })).toBe('auth');
    expect(hostErrorCode(internalErrorForPlayability({ status: 'LOGIN_REQUIRED' }))).toBe(150);
    expect(internalErrorForPlayability({ status: 'LOGIN_REQUIRED', errorCode: 'drm.auth' })).toBe('drm.auth');
    expect(internalErrorForPlayability({ status: 'UNPLAYABLE' })).toBe('fmt.unplayable');
    expect(internalErrorForPlayability({ status: 'ERROR', errorCode: '' })).toBe('fmt.unplayable');
  });
});
