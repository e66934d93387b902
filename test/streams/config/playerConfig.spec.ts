import {
  buildPlayerConfig,
  DEFAULT_ATTRS,
  forcedExperimentsToFlags,
  isValidStreamToken,
  isValidVideoId,
  parseBooleanVar,
  parseFlags,
  parseSecondsVar,
  parseTheme,
  pickPlayerVars,
  PlayerConfigError,
  readPlayerConfig,
  serializeConfigForScript,
  shouldAutoplay,
  withLoaderUrl,
  type PlayerResponse,
} from '../../../streams/config/playerConfig';

const ok: PlayerResponse = { playabilityStatus: { status: 'OK' } };
const assets = { js: '/assets/embed-abc.js', css: '/assets/embed-abc.css' };
const build = (query: Record<string, unknown>, videoId = 'VFsunrise01') => buildPlayerConfig({ videoId, query, playerResponse: ok, assets });

describe('player configuration (spec §3)', () => {
  it('fills attrs with the spec defaults and keeps the assets and loaded flag', () => {
    const config = build({});
    expect(config.attrs).toEqual({ width: '100%', height: '100%', id: 'video-player' });
    expect(config.assets).toEqual(assets);
    expect(config.loaded).toBe(true);
    expect(config.args.video_id).toBe('VFsunrise01');
    expect(config.args.player_response).toBe(ok);
  });

  it('keeps only the recognised player variables from the query string', () => {
    const config = build({ autoplay: '1', mute: '1', si: 'tracking', feature: 'share', customControls: 'x', start: '10', origin: 'https://a.example' });
    expect(config.args.playerVars).toEqual({ autoplay: '1', mute: '1', start: '10', origin: 'https://a.example' });
  });

  it('takes the first of repeated parameters and drops non-strings and huge values', () => {
    expect(pickPlayerVars({ autoplay: ['1', '0'], mute: 5, hl: 'x'.repeat(2001) })).toEqual({ autoplay: '1' });
    expect(pickPlayerVars(new URLSearchParams('autoplay=0&autoplay=1&theme=light'))).toEqual({ autoplay: '0', theme: 'light' });
  });

  it.each([
    [undefined, '0'],
    ['1', '1'],
    ['true', '1'],
    ['TRUE', '1'],
    ['0', '0'],
    ['false', '0'],
    ['yes', 'yes'],
  ])('autoplay=%p is stored as %p', (value, stored) => {
    expect(build(value === undefined ? {} : { autoplay: value }).args.autoplay).toBe(stored);
  });

  it.each([
    ['0', false],
    ['false', false],
    [' False ', false],
    [undefined, false],
    ['1', true],
    ['true', true],
    ['yes', true],
  ])('spec §4: autoplay %p plays: %p', (value, plays) => {
    expect(shouldAutoplay(value)).toBe(plays);
  });

  it.each([
    ['dark', 'dark'],
    ['light', 'light'],
    ['LIGHT', 'light'],
    ['purple', 'dark'],
    [undefined, 'dark'],
  ])('theme=%p reads as %p', (value, theme) => {
    expect(parseTheme(value)).toBe(theme);
    expect(build(value === undefined ? {} : { theme: value }).args.theme).toBe(theme);
  });

  it('parses the forced-experiments parameter into the flags string', () => {
    expect(forcedExperimentsToFlags('a=1,b=false')).toBe('a=1&b=false');
    expect(forcedExperimentsToFlags('a=1&b=false;c')).toBe('a=1&b=false&c=true');
    expect(forcedExperimentsToFlags('ok=1,bad name=1,x=<script>,y=1=2,,=3')).toBe('ok=1');
    expect(forcedExperimentsToFlags(undefined)).toBe('');
    expect(build({ forced_experiments: 'html5_quality=1,fast' }).args.fflags).toBe('html5_quality=1&fast=true');
    expect(parseFlags('a=1&b=false&broken&=x')).toEqual({ a: '1', b: 'false' });
  });

  it('keeps the player style value', () => {
    expect(build({ ps: 'gvn' }).args.ps).toBe('gvn');
    expect(build({}).args.ps).toBeUndefined();
  });

  it('reads booleans as 1/0 or true/false and anything else as unknown', () => {
    expect([parseBooleanVar('1'), parseBooleanVar('true'), parseBooleanVar('0'), parseBooleanVar('false')]).toEqual([true, true, false, false]);
    expect(parseBooleanVar('on')).toBeUndefined();
    expect(parseBooleanVar(undefined)).toBeUndefined();
  });

  it('reads seconds and refuses malformed ones', () => {
    expect(parseSecondsVar('12.5')).toBe(12.5);
    expect(parseSecondsVar('abc')).toBeUndefined();
    expect(parseSecondsVar('-3')).toBeUndefined();
    expect(parseSecondsVar('')).toBeUndefined();
    expect(parseSecondsVar('Infinity')).toBeUndefined();
  });

  it('validates video ids: 11 characters of [A-Za-z0-9_-]', () => {
    expect(isValidVideoId('VFsunrise01')).toBe(true);
    expect(isValidVideoId('a-b_C123456')).toBe(true);
    expect(isValidVideoId('short')).toBe(false);
    expect(isValidVideoId('VFsunrise012')).toBe(false);
    expect(isValidVideoId('VFsunrise0!')).toBe(false);
    expect(isValidVideoId(undefined)).toBe(false);
    expect(isValidVideoId(12345678901)).toBe(false);
  });

  it('sets the loader URL from the referrer only when framed', () => {
    const config = build({});
    expect(withLoaderUrl(config, { framed: true, referrer: 'https://host.example/page' }).args.loaderUrl).toBe('https://host.example/page');
    expect(withLoaderUrl(config, { framed: false, referrer: 'https://host.example/page' }).args.loaderUrl).toBeUndefined();
    expect(withLoaderUrl(config, { framed: true, referrer: '' }).args.loaderUrl).toBeUndefined();
  });

  it('reads an inlined configuration back, filling spec defaults', () => {
    const raw = JSON.parse(JSON.stringify(build({ theme: 'light' })));
    delete raw.attrs;
    const config = readPlayerConfig(raw);
    expect(config.attrs).toEqual(DEFAULT_ATTRS);
    expect(config.args.theme).toBe('light');
    expect(config.loaded).toBe(true);
  });

  it.each([
    [undefined, 'missing'],
    ['text', 'missing'],
    [{}, 'no args'],
    [{ args: { video_id: 5 } }, 'names no video'],
    [{ args: { video_id: 'x' } }, 'no player response'],
    // An inlined answer is read as a fetched one is: a part of the wrong shape makes it no answer.
    [{ args: { video_id: 'x', player_response: { playabilityStatus: { status: 'OK' }, videoDetails: 'nope' } } }, 'no player response'],
    [{ args: { video_id: 'x', player_response: { playabilityStatus: { status: 'OK' }, streamingData: { formats: [{}] } } } }, 'no player response'],
  ])('refuses an unusable configuration %p with a clear error', (raw, message) => {
    expect(() => readPlayerConfig(raw)).toThrow(PlayerConfigError);
    expect(() => readPlayerConfig(raw)).toThrow(message);
  });

  describe('stream token (issue 12)', () => {
    const token = 'v1.c3RyZWFtLWlk.AbC-_09';
    const withToken = (streamToken: unknown) =>
      buildPlayerConfig({ videoId: 'VFsunrise01', query: {}, playerResponse: ok, assets, streamToken: streamToken as string });

    it('buildPlayerConfig copies a valid token into args.stream_token, and readPlayerConfig reads it back', () => {
      const config = withToken(token);
      expect(config.args.stream_token).toBe(token);
      expect(readPlayerConfig(JSON.parse(serializeConfigForScript(config))).args.stream_token).toBe(token);
    });

    it('is absent when the server has none', () => {
      expect('stream_token' in build({}).args).toBe(false);
      expect('stream_token' in readPlayerConfig(JSON.parse(JSON.stringify(build({})))).args).toBe(false);
    });

    it('accepts 1 to 512 characters of [A-Za-z0-9._-] (production limit), nothing else', () => {
      expect(isValidStreamToken('a')).toBe(true);
      expect(isValidStreamToken('x'.repeat(512))).toBe(true);
      expect(isValidStreamToken('x'.repeat(513))).toBe(false);
      expect(isValidStreamToken('Az09._-')).toBe(true);
      expect(isValidStreamToken('x'.repeat(6), 5)).toBe(false);
    });

    it.each([
      ['empty', ''],
      ['too long', 'x'.repeat(513)],
      ['a space', 'a b'],
      ['a line break (header injection)', 'a\r\nX-Evil: 1'],
      ['base64 padding', 'abc='],
      ['a slash', 'a/b'],
      ['non-ASCII', 'tökén'],
      ['a number', 42],
      ['an object', { t: 'x' }],
      ['null', null],
    ])('drops a token with %s, both when building and when reading', (_label, bad) => {
      expect('stream_token' in withToken(bad).args).toBe(false);
      const raw = JSON.parse(JSON.stringify(build({})));
      raw.args.stream_token = bad;
      expect('stream_token' in readPlayerConfig(raw).args).toBe(false);
    });
  });

  it('serialises for a script block so no value can close the script', () => {
    const config = build({ hl: '</script><script>alert(1)</script>' });
    const text = serializeConfigForScript(config);
    expect(text).not.toContain('</script>');
    expect(text).not.toContain('<');
    expect(JSON.parse(text)).toEqual(config);
  });
});
