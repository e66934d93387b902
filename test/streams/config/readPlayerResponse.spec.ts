import { readPlayerResponse } from '../../../streams/config/readPlayerResponse';
import { response } from '../player/fixtures';

describe('readPlayerResponse', () => {
  it('a playable answer, an error answer and one with only its status are player responses, returned as they are', () => {
    const playable = {
      ...response('VFsunrise01', true),
      playbackTracking: { videostatsPlaybackUrl: { baseUrl: '/p' }, videostatsWatchtimeUrl: { baseUrl: '/w' } },
    };
    expect(readPlayerResponse(playable)).toBe(playable);
    const denied = { playabilityStatus: { status: 'UNPLAYABLE', errorCode: 'embedder.identity.denied', reason: 'No.' }, videoDetails: playable.videoDetails };
    expect(readPlayerResponse(denied)).toBe(denied);
    // A status the player does not know is not playable: the player reports its errorCode.
    const other = { playabilityStatus: { status: 'LOGIN_REQUIRED', errorCode: 'auth' } };
    expect(readPlayerResponse(other)).toBe(other);
    expect(readPlayerResponse({ playabilityStatus: { status: 'ERROR' }, responseContext: { visitorData: 'v' } })).toEqual({
      playabilityStatus: { status: 'ERROR' },
      responseContext: { visitorData: 'v' },
    });
  });

  it.each([
    ['no body (an empty or non-JSON answer)', undefined],
    ['null', null],
    ['text', '<!doctype html><title>Proxy</title>'],
    ['a number', 42],
    ['an array', [{ playabilityStatus: { status: 'OK' } }]],
    ['an object without playabilityStatus', { garbage: true }],
    ['playabilityStatus of the wrong type', { playabilityStatus: 'OK' }],
    ['a status that is not text', { playabilityStatus: { status: 1 } }],
    ['an empty status', { playabilityStatus: { status: '' } }],
    ['an errorCode that is not text', { playabilityStatus: { status: 'ERROR', errorCode: 150 } }],
    ['videoDetails without an id', { playabilityStatus: { status: 'OK' }, videoDetails: { title: 't', author: 'a', lengthSeconds: 1 } }],
    ['a length that is not a number', { playabilityStatus: { status: 'OK' }, videoDetails: { videoId: 'v', title: 't', author: 'a', lengthSeconds: '12' } }],
    ['formats that are not a list', { playabilityStatus: { status: 'OK' }, streamingData: { formats: 'medium' } }],
    [
      'a format without a url',
      { playabilityStatus: { status: 'OK' }, streamingData: { formats: [{ quality: 'medium', width: 1, height: 1, mimeType: 'v', contentLength: 1 }] } },
    ],
    ['a caption track that is not an object', { playabilityStatus: { status: 'OK' }, captions: { tracks: ['en'] } }],
    [
      'a ping beacon without its url',
      { playabilityStatus: { status: 'OK' }, playbackTracking: { videostatsPlaybackUrl: {}, videostatsWatchtimeUrl: { baseUrl: '/w' } } },
    ],
  ])('%s is no player response', (_label, body) => {
    expect(readPlayerResponse(body)).toBeUndefined();
  });
});
