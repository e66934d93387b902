import { hostErrorCode } from '../../../streams/player/errorCodes';
import { playerFetchFailure, unreadablePlayerAnswer } from '../../../streams/player/playerFetchFailure';
import { ApiFetchError, ExtensionBlockingError, JsonParseError, requestTimedOut, unknownRequestError } from '../../../streams/transport/apiErrors';

describe('playerFetchFailure', () => {
  it.each([
    ['a timeout', requestTimedOut(), { internal: 'net.timeout', message: 'Request timed out' }],
    ['a network failure', unknownRequestError(new TypeError('Failed to fetch')), { internal: 'net.unknown', message: 'Unknown request error' }],
    ['an extension blocking the request', new ExtensionBlockingError(), { internal: 'net.unknown', message: 'An extension is blocking network request.' }],
    ['a 5xx', new ApiFetchError(503, '<html>busy</html>'), { internal: 'net.badstatus', message: 'Request failed, status=503' }],
    [
      'a 4xx without a player response in its details',
      new ApiFetchError(404, { error: { code: 404 } }),
      { internal: 'net.badstatus', message: 'Request failed, status=404' },
    ],
    ['JSON that does not parse', new JsonParseError(200, '{"playabilityStatus":'), { internal: 'net.badresponse', message: 'JSON parsing failed after fetch' }],
    ['anything else', new Error('a bug'), { internal: 'net.unknown', message: 'Unknown request error' }],
    ['a thrown non-error', 'nope', { internal: 'net.unknown', message: 'Unknown request error' }],
  ])('%s → %p', (_label, error, expected) => {
    expect(playerFetchFailure(error)).toEqual(expected);
    // Spec §8: none of them is in the player table, so each is host code 5.
    expect(hostErrorCode(expected.internal)).toBe(5);
  });

  it('an answer that is no player response: "JSON parsing failed after fetch" without a body, a message of its own with one', () => {
    expect(unreadablePlayerAnswer(undefined)).toEqual({ internal: 'net.badresponse', message: 'JSON parsing failed after fetch' });
    expect(unreadablePlayerAnswer({ garbage: true })).toEqual({ internal: 'net.badresponse', message: 'The answer is not a player response.' });
    expect(hostErrorCode('net.badresponse')).toBe(5);
  });
});
