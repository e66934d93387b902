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
    ['chapters that are not a list', { playabilityStatus: { status: 'OK' }, chapters: { title: 'Intro' } }],
    ['a chapter without its start', { playabilityStatus: { status: 'OK' }, chapters: [{ title: 'Intro' }] }],
    ['a chapter title that is not text', { playabilityStatus: { status: 'OK' }, chapters: [{ title: 1, timeRangeStartMillis: 0 }] }],
    [
      'a ping beacon without its url',
      { playabilityStatus: { status: 'OK' }, playbackTracking: { videostatsPlaybackUrl: {}, videostatsWatchtimeUrl: { baseUrl: '/w' } } },
    ],
  ])('%s is no player response', (_label, body) => {
    expect(readPlayerResponse(body)).toBeUndefined();
  });

  describe('the adaptive ladder and the storyboard', () => {
    const video = {
      kind: 'video',
      quality: 'medium',
      width: 640,
      height: 360,
      bitrate: 500_000,
      mimeType: 'video/mp4; codecs="avc1.4d401e"',
      initUrl: '/library/videos/v/1/h264/init-2.m4s',
      segmentUrl: '/library/videos/v/1/h264/seg-2-$Number%05d$.m4s',
      startNumber: 1,
      segmentSeconds: 2,
      segmentBytes: [125_000, 124_000],
    };
    const audio = { ...video, kind: 'audio', quality: undefined, width: undefined, height: undefined, mimeType: 'audio/mp4; codecs="mp4a.40.2"' };
    const storyboard = {
      sheetUrls: ['/library/videos/v/1/storyboard/sheet-000.jpg'],
      intervalSeconds: 2,
      columns: 10,
      rows: 10,
      thumbWidth: 160,
      thumbHeight: 90,
      count: 2,
    };
    const adaptive = (over: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
      playabilityStatus: { status: 'OK' },
      streamingData: {
        formats: [],
        adaptiveFormats: [video, audio],
        dashManifestUrls: { h264: '/library/videos/v/1/h264/manifest.mpd' },
        hlsManifestUrl: '/library/videos/v/1/h264/master.m3u8',
        ...over,
      },
      storyboard,
      ...extra,
    });

    it('an answer with adaptive formats, manifest URLs and a storyboard is a player response, returned as it is', () => {
      const body = adaptive();
      expect(readPlayerResponse(body)).toBe(body);
      const withoutManifests = adaptive({ dashManifestUrls: undefined, hlsManifestUrl: undefined }, { storyboard: undefined });
      expect(readPlayerResponse(withoutManifests)).toBe(withoutManifests);
    });

    it.each([
      ['adaptiveFormats that are not a list', adaptive({ adaptiveFormats: video })],
      ['a format of no known kind', adaptive({ adaptiveFormats: [{ ...video, kind: 'text' }, audio] })],
      ['a video format without its quality', adaptive({ adaptiveFormats: [{ ...video, quality: undefined }, audio] })],
      ['a video format without its height', adaptive({ adaptiveFormats: [{ ...video, height: '360' }, audio] })],
      ['a format without its segment URL', adaptive({ adaptiveFormats: [video, { ...audio, segmentUrl: undefined }] })],
      ['a format without its init URL', adaptive({ adaptiveFormats: [{ ...video, initUrl: 7 }, audio] })],
      ['a bitrate that is not a number', adaptive({ adaptiveFormats: [{ ...video, bitrate: '500k' }, audio] })],
      ['segment sizes that are not numbers', adaptive({ adaptiveFormats: [{ ...video, segmentBytes: ['1'] }, audio] })],
      ['segment sizes that are not a list', adaptive({ adaptiveFormats: [{ ...video, segmentBytes: 2 }, audio] })],
      ['no start number', adaptive({ adaptiveFormats: [{ ...video, startNumber: undefined }, audio] })],
      ['DASH manifest URLs that are not text', adaptive({ dashManifestUrls: { h264: 1 } })],
      ['DASH manifest URLs as a list', adaptive({ dashManifestUrls: ['/a.mpd'] })],
      ['an HLS URL that is not text', adaptive({ hlsManifestUrl: {} })],
      ['a storyboard without sheets', adaptive({}, { storyboard: { ...storyboard, sheetUrls: undefined } })],
      ['a storyboard sheet that is not text', adaptive({}, { storyboard: { ...storyboard, sheetUrls: [1] } })],
      ['a storyboard without its count', adaptive({}, { storyboard: { ...storyboard, count: '2' } })],
      ['a storyboard that is not an object', adaptive({}, { storyboard: 'sheet.jpg' })],
    ])('%s is no player response', (_label, body) => {
      expect(readPlayerResponse(body)).toBeUndefined();
    });
  });
});
