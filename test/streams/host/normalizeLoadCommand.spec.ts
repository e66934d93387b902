import { normalizeLoadCommand, videoIdFromMediaUrl } from '../../../streams/host/normalizeLoadCommand';
import { hostApiInterface } from '../../../streams/host/hostApiInterface';
import { toPlayerCommand } from '../../../streams/host/toPlayerCommand';
import { hostErrorCode } from '../../../streams/player/errorCodes';

const ID = 'VFsunrise01';
const ID2 = 'VFcitylight';

describe('normalizeLoadCommand: videos by id', () => {
  it.each([
    ['positional id', ['loadVideoById', [ID]], { videoId: ID }, true],
    ['positional id, start, quality', ['loadVideoById', [ID, 12.5, 'hd720']], { videoId: ID, startSeconds: 12.5, suggestedQuality: 'hd720' }, true],
    ['positional with nulls (undefined on the wire)', ['cueVideoById', [ID, null, null]], { videoId: ID }, false],
    ['numeric string start (lenient)', ['cueVideoById', [ID, '30']], { videoId: ID, startSeconds: 30 }, false],
    [
      'object form',
      ['loadVideoById', [{ videoId: ID, startSeconds: 5, endSeconds: 20, suggestedQuality: 'large' }]],
      { videoId: ID, startSeconds: 5, endSeconds: 20, suggestedQuality: 'large' },
      true,
    ],
    ['object form, id only', ['cueVideoById', [{ videoId: ID }]], { videoId: ID }, false],
    ['object form with rct and rctn (spec §3)', ['loadVideoById', [{ videoId: ID, rct: 'CAEQ', rctn: '3' }]], { videoId: ID, rct: 'CAEQ', rctn: '3' }, true],
    [
      'by URL with rct and rctn',
      ['cueVideoByUrl', [{ mediaContentUrl: `https://example.test/v/${ID}`, rct: 'CAEQ', rctn: '3' }]],
      { videoId: ID, mediaContentUrl: `https://example.test/v/${ID}`, rct: 'CAEQ', rctn: '3' },
      false,
    ],
  ] as const)('%s', (_n, [func, args], options, autoplay) => {
    expect(normalizeLoadCommand(func, args)).toEqual({ ok: true, command: { type: 'loadVideo', options, autoplay } });
  });

  it.each([
    ['no arguments', []],
    ['a number as id', [42]],
    ['a 10-character id', ['VFsunrise0']],
    ['an id with a bad character', ['VFsunrise0!']],
    ['an object without videoId', [{ startSeconds: 3 }]],
    ['an object with a numeric videoId', [{ videoId: 12345678901 }]],
    ['an object with a numeric rct', [{ videoId: ID, rct: 5 }]],
    ['an object with an rctn longer than any text input', [{ videoId: ID, rctn: 'x'.repeat(2001) }]],
    ['an array as id', [[ID]]],
    ['a negative start', [ID, -1]],
    ['a non-numeric start', [ID, 'soon']],
    ['an object as start', [ID, { n: 1 }]],
    ['Infinity-like start', [ID, '1e400']],
    ['a quality that is not a string', [ID, 0, 720]],
    ['end before start', [{ videoId: ID, startSeconds: 10, endSeconds: 5 }]],
    ['null', [null]],
    ['a prototype-pollution object', [JSON.parse('{"__proto__":{"videoId":"VFsunrise01"}}')]],
  ])('%s → api.invalidparam (onError 2), no exception', (_n, args) => {
    const r = normalizeLoadCommand('loadVideoById', args);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(hostErrorCode(r.internal)).toBe(2);
  });
});

describe('normalizeLoadCommand: videos by URL', () => {
  it.each([
    ['http://www.youtube.com/v/VFsunrise01?version=3', ID],
    ['https://example.com/e/VFsunrise01', ID],
    ['/embed/VFsunrise01?autoplay=1', ID],
    ['embed/VFsunrise01', ID],
    ['http://www.youtube.com/v/VFsunrise01&hl=en_US&fs=1', ID],
    ['https://x.test/embed/VFsunrise01/', ID],
    ['https://x.test/embed/VFsunrise01#t=3', ID],
    ['https://x.test/watch?v=VFsunrise01', null],
    ['https://x.test/video/VFsunrise01', null],
    ['https://x.test/embed/VFsunrise0', null],
    ['https://x.test/embed/VFsunrise012', null],
    ['https://x.test/?next=/embed/VFsunrise01', null],
  ])('%s → %s', (url, id) => {
    expect(videoIdFromMediaUrl(url)).toBe(id);
  });

  it('positional and object forms keep the URL and take the id from its path', () => {
    const url = 'https://x.test/v/VFsunrise01?version=3';
    expect(normalizeLoadCommand('loadVideoByUrl', [url, 7, 'small'])).toEqual({
      ok: true,
      command: { type: 'loadVideo', options: { videoId: ID, mediaContentUrl: url, startSeconds: 7, suggestedQuality: 'small' }, autoplay: true },
    });
    expect(normalizeLoadCommand('cueVideoByUrl', [{ mediaContentUrl: url, startSeconds: 1, endSeconds: 2 }])).toEqual({
      ok: true,
      command: { type: 'loadVideo', options: { videoId: ID, mediaContentUrl: url, startSeconds: 1, endSeconds: 2 }, autoplay: false },
    });
  });

  it.each([[['https://x.test/watch?v=VFsunrise01']], [[]], [[{ mediaContentUrl: 5 }]], [[{ videoId: ID }]], [['x'.repeat(5000)]]])(
    'a URL without a video path → onError 2 (%#)',
    (args) => {
      expect(normalizeLoadCommand('loadVideoByUrl', args as unknown[]).ok).toBe(false);
    },
  );
});

describe('normalizeLoadCommand: playlists', () => {
  const pl = (options: object, autoplay: boolean) => ({ ok: true, command: { type: 'loadPlaylist', options, autoplay } });
  it.each([
    ['an array of ids', ['loadPlaylist', [[ID, ID2]]], pl({ playlist: [ID, ID2], index: 0 }, true)],
    [
      'array, index, start, quality',
      ['cuePlaylist', [[ID, ID2], 1, 4, 'medium']],
      pl({ playlist: [ID, ID2], index: 1, startSeconds: 4, suggestedQuality: 'medium' }, false),
    ],
    ['one id', ['loadPlaylist', [ID]], pl({ playlist: [ID], index: 0 }, true)],
    ['a comma list', ['loadPlaylist', [`${ID},${ID2}`, '1']], pl({ playlist: [ID, ID2], index: 1 }, true)],
    ['a comma list with spaces', ['loadPlaylist', [` ${ID} , ${ID2} `]], pl({ playlist: [ID, ID2], index: 0 }, true)],
    ['16 characters → PL + string', ['cuePlaylist', ['abcdefghijklmnop']], pl({ list: 'PLabcdefghijklmnop', listType: 'playlist', index: 0 }, false)],
    [
      'a full PL list id',
      ['cuePlaylist', ['PLabcdefghijklmnopqrstuvwxyz012345']],
      pl({ list: 'PLabcdefghijklmnopqrstuvwxyz012345', listType: 'playlist', index: 0 }, false),
    ],
    ['object: playlist array', ['loadPlaylist', [{ playlist: [ID2], index: 0, startSeconds: 2 }]], pl({ playlist: [ID2], index: 0, startSeconds: 2 }, true)],
    ['object: list, default listType', ['cuePlaylist', [{ list: 'PLVFdemo0001' }]], pl({ list: 'PLVFdemo0001', listType: 'playlist', index: 0 }, false)],
    [
      'object: list of 16 characters',
      ['cuePlaylist', [{ list: 'abcdefghijklmnop', listType: 'playlist', index: 2 }]],
      pl({ list: 'PLabcdefghijklmnop', listType: 'playlist', index: 2 }, false),
    ],
    [
      'object: user_uploads',
      ['loadPlaylist', [{ list: 'somechannel', listType: 'user_uploads' }]],
      pl({ list: 'somechannel', listType: 'user_uploads', index: 0 }, true),
    ],
    [
      'object: playlist string of 16',
      ['loadPlaylist', [{ playlist: 'abcdefghijklmnop' }]],
      pl({ list: 'PLabcdefghijklmnop', listType: 'playlist', index: 0 }, true),
    ],
  ] as const)('%s', (_n, [func, args], expected) => {
    expect(normalizeLoadCommand(func, args)).toEqual(expected);
  });

  it.each([
    ['nothing', []],
    ['an empty array', [[]]],
    ['an array with a bad id', [[ID, 'nope']]],
    ['a number', [7]],
    ['a string that is neither ids nor a list', ['hello']],
    ['an empty string', ['']],
    ['a fractional index', [[ID], 1.5]],
    ['a negative index', [[ID], -1]],
    ['an object index', [[ID], {}]],
    ['object without playlist or list', [{ index: 1 }]],
    ['object with an unknown listType', [{ list: 'PLVFdemo0001', listType: 'everything' }]],
    ['object with a numeric list', [{ list: 5 }]],
    ['too many ids', [Array(201).fill(ID)]],
  ])('%s → onError 2', (_n, args) => {
    const r = normalizeLoadCommand('loadPlaylist', args as unknown[]);
    expect(r).toMatchObject({ ok: false, internal: 'api.invalidparam' });
  });
});

describe('normalizeLoadCommand: lists by channel and by search, spec §5 16-character rule', () => {
  const pl = (options: object, autoplay: boolean) => ({ ok: true, command: { type: 'loadPlaylist', options, autoplay } });
  it.each([
    [
      'user_uploads by channel id, with every option',
      ['cuePlaylist', [{ listType: 'user_uploads', list: 'UCvidframeStudio00000000', index: 1, startSeconds: 2, suggestedQuality: 'small' }]],
      pl({ list: 'UCvidframeStudio00000000', listType: 'user_uploads', index: 1, startSeconds: 2, suggestedQuality: 'small' }, false),
    ],
    [
      "user_uploads by the author's name, trimmed",
      ['loadPlaylist', [{ listType: 'user_uploads', list: '  VidFrame Samples ' }]],
      pl({ list: 'VidFrame Samples', listType: 'user_uploads', index: 0 }, true),
    ],
    [
      'search, a query of any characters',
      ['loadPlaylist', [{ listType: 'search', list: 'city lights!', index: '0', suggestedQuality: 'medium' }]],
      pl({ list: 'city lights!', listType: 'search', index: 0, suggestedQuality: 'medium' }, true),
    ],
    [
      'a search of 16 characters stays a search',
      ['cuePlaylist', [{ listType: 'search', list: 'abcdefghijklmnop' }]],
      pl({ list: 'abcdefghijklmnop', listType: 'search', index: 0 }, false),
    ],
    [
      'a list id keeps its suggestedQuality',
      ['loadPlaylist', [{ list: 'PLvfDemoPlaylist01', index: 1, suggestedQuality: 'small' }]],
      pl({ list: 'PLvfDemoPlaylist01', listType: 'playlist', index: 1, suggestedQuality: 'small' }, true),
    ],
    [
      '16 characters of any kind, positional → PL + string, untrimmed',
      ['cuePlaylist', ['my list, 16 char', 0]],
      pl({ list: 'PLmy list, 16 char', listType: 'playlist', index: 0 }, false),
    ],
    [
      '16 characters with spaces around an id → PL + string',
      ['loadPlaylist', [' VFcitylight    ']],
      pl({ list: 'PL VFcitylight    ', listType: 'playlist', index: 0 }, true),
    ],
    [
      '16 characters of any kind as the object playlist',
      ['loadPlaylist', [{ playlist: 'list.of:sixteen!', suggestedQuality: 'small' }]],
      pl({ list: 'PLlist.of:sixteen!', listType: 'playlist', index: 0, suggestedQuality: 'small' }, true),
    ],
    [
      '16 characters of any kind as the object list',
      ['cuePlaylist', [{ list: 'é/ü list 16 char' }]],
      pl({ list: 'PLé/ü list 16 char', listType: 'playlist', index: 0 }, false),
    ],
    [
      '17 characters of an id with a space around, trimmed to 16 → PL + string (as before)',
      ['cuePlaylist', [' abcdefghijklmnop']],
      pl({ list: 'PLabcdefghijklmnop', listType: 'playlist', index: 0 }, false),
    ],
  ] as const)('%s', (_n, [func, args], expected) => {
    expect(normalizeLoadCommand(func, args)).toEqual(expected);
  });

  it.each([
    ['a list of the longest length allowed + 1', [{ listType: 'search', list: 'x'.repeat(201) }]],
    ['a huge list', [{ listType: 'user_uploads', list: 'x'.repeat(100_000) }]],
    ['a blank query', [{ listType: 'search', list: '   ' }]],
    ['a numeric channel', [{ listType: 'user_uploads', list: 42 }]],
    ['an array as query', [{ listType: 'search', list: ['city'] }]],
    ['an object as list', [{ listType: 'search', list: { toString: 'city' } }]],
    ['a numeric listType', [{ listType: 1, list: 'city' }]],
    ['an unknown listType', [{ listType: 'user_favorites', list: 'city' }]],
    ['a search without a list', [{ listType: 'search' }]],
    ['a malformed list id of another length', [{ list: 'not a list id' }]],
    ['a search with a bad quality', [{ listType: 'search', list: 'city', suggestedQuality: 720 }]],
    ['a channel with a bad index', [{ listType: 'user_uploads', list: 'UCvidframeStudio00000000', index: -2 }]],
  ])('%s → onError 2, no exception', (_n, args) => {
    const r = normalizeLoadCommand('loadPlaylist', args as unknown[]);
    expect(r).toMatchObject({ ok: false, internal: 'api.invalidparam', reason: expect.any(String) });
  });

  it('a list of exactly the longest length allowed is accepted', () => {
    expect(normalizeLoadCommand('cuePlaylist', [{ listType: 'search', list: 'x'.repeat(200) }]).ok).toBe(true);
  });
});

describe('toPlayerCommand', () => {
  it.each([
    ['playVideo', [], { type: 'play' }],
    ['pauseVideo', [], { type: 'pause' }],
    ['stopVideo', [], { type: 'stop' }],
    ['clearVideo', [], { type: 'clear' }],
    ['mute', [], { type: 'mute' }],
    ['unMute', [], { type: 'unMute' }],
    ['nextVideo', [], { type: 'nextVideo' }],
    ['previousVideo', [], { type: 'previousVideo' }],
    ['seekTo', [30, true], { type: 'seek', seconds: 30, allowSeekAhead: true }],
    ['seekTo', [30, false], { type: 'seek', seconds: 30, allowSeekAhead: false }],
    ['seekTo', ['12.5'], { type: 'seek', seconds: 12.5, allowSeekAhead: true }],
    ['seekTo', [-4, null], { type: 'seek', seconds: 0, allowSeekAhead: true }],
    ['setVolume', [50], { type: 'setVolume', volume: 50 }],
    ['setVolume', ['70'], { type: 'setVolume', volume: 70 }],
    ['setVolume', [150], { type: 'setVolume', volume: 100 }],
    ['setPlaybackRate', [1.5], { type: 'setPlaybackRate', rate: 1.5 }],
    ['setPlaybackQuality', ['hd720'], { type: 'setPlaybackQuality', quality: 'hd720' }],
    ['setSize', [640, 360], { type: 'setSize', width: 640, height: 360 }],
    ['playVideoAt', [2], { type: 'playVideoAt', index: 2 }],
    ['setLoop', [true], { type: 'setLoop', loop: true }],
    ['setLoop', ['false'], { type: 'setLoop', loop: false }],
    ['setShuffle', [1], { type: 'setShuffle', shuffle: true }],
    ['setOption', ['captions', 'track', { languageCode: 'en' }], { type: 'setOption', module: 'captions', option: 'track', value: { languageCode: 'en' } }],
    ['loadModule', ['captions'], { type: 'setCaptions', enabled: true }],
    ['unloadModule', ['captions'], { type: 'setCaptions', enabled: false }],
    ['setCaptions', [true, 'fr'], { type: 'setCaptions', enabled: true, languageCode: 'fr' }],
  ])('%s(%j)', (func, args, command) => {
    expect(toPlayerCommand(func, args)).toEqual({ ok: true, command });
  });

  it.each([
    ['seekTo', []],
    ['seekTo', ['later']],
    ['setVolume', [{}]],
    ['setVolume', [null]],
    ['setPlaybackRate', [0]],
    ['setPlaybackRate', ['fast']],
    ['setPlaybackQuality', [720]],
    ['setSize', [640]],
    ['playVideoAt', [-1]],
    ['playVideoAt', [0.5]],
    ['setLoop', ['yes']],
    ['setShuffle', [{}]],
    ['setOption', [1, 2, 3]],
    ['setCaptions', ['on']],
    ['setSphericalProperties', []],
    ['setSphericalProperties', [[90]]],
    ['setSphericalProperties', [{ fov: 'wide' }]],
    ['setSphericalProperties', [{ yaw: Number.NaN }]],
    ['setSphericalProperties', [{ enableOrientationSensor: 1 }]],
  ])('%s(%j) → onError 2', (func, args) => {
    expect(toPlayerCommand(func, args)).toMatchObject({ ok: false, internal: 'api.invalidparam' });
  });

  it.each(['getPlayerState', 'getCurrentTime', 'destroy', 'eval', '__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    '%s is not a player command: ignored',
    (func) => {
      expect(toPlayerCommand(func, [1, 2])).toBeNull();
    },
  );

  it('setSphericalProperties is public and, well formed, changes nothing: every catalogue video is flat (as the public player ignores it for flat videos)', () => {
    expect(hostApiInterface(false)).toContain('setSphericalProperties');
    expect(toPlayerCommand('setSphericalProperties', [{ fov: 100, yaw: 10, pitch: -5, roll: 0, enableOrientationSensor: true }])).toBeNull();
    expect(toPlayerCommand('setSphericalProperties', [{}])).toBeNull();
  });

  it('loadModule of a module other than captions is ignored', () => {
    expect(toPlayerCommand('loadModule', ['spherical'])).toBeNull();
  });
});
