import { buildEmbedUrl, normalizeHost } from '../../../../src/host/sdk/buildEmbedUrl';
import { extrapolateCurrentTime } from '../../../../src/host/sdk/extrapolateCurrentTime';
import { isTrustedMessage } from '../../../../src/host/sdk/isTrustedMessage';
import { isValidVideoId } from '../../../../src/host/sdk/isValidVideoId';
import { mergeDelivery } from '../../../../src/host/sdk/mergeDelivery';
import { parseEmbedMessage } from '../../../../src/host/sdk/parseEmbedMessage';
import { HOST_TIME_EXTRAPOLATION_MAX_MS } from '../../../../streams/timing';

describe('extrapolateCurrentTime', () => {
  const playing = { playerState: 1 as const, currentTime: 10, currentTimeLastUpdated_: 100, playbackRate: 1, duration: 60 };

  it('adds the wall-clock time elapsed since the stamp while playing', () => {
    // now = 100.4 s: 0.4 s after the stamp.
    expect(extrapolateCurrentTime(playing, 100_400)).toBeCloseTo(10.4, 9);
  });

  it('never by more than 1 s (production constant), however long since the last delivery', () => {
    expect(HOST_TIME_EXTRAPOLATION_MAX_MS).toBe(1_000);
    expect(extrapolateCurrentTime(playing, 100_999)).toBeCloseTo(10.999, 9);
    expect(extrapolateCurrentTime(playing, 101_000)).toBeCloseTo(11, 9);
    expect(extrapolateCurrentTime(playing, 160_000)).toBeCloseTo(11, 9);
    // The cap is a parameter: 250 ms.
    expect(extrapolateCurrentTime(playing, 160_000, 250)).toBeCloseTo(10.25, 9);
  });

  it('scales with the playback rate, within the same cap', () => {
    expect(extrapolateCurrentTime({ ...playing, playbackRate: 2 }, 100_300)).toBeCloseTo(10.6, 9);
    expect(extrapolateCurrentTime({ ...playing, playbackRate: 2 }, 100_900)).toBeCloseTo(11, 9);
  });

  it('does not run past the duration', () => {
    expect(extrapolateCurrentTime({ ...playing, currentTime: 59.8 }, 101_000)).toBe(60);
  });

  it('returns the cached time as it is when not playing, without a stamp, or with a stamp in the future', () => {
    for (const playerState of [-1, 0, 2, 3, 5] as const) expect(extrapolateCurrentTime({ ...playing, playerState }, 100_500)).toBe(10);
    expect(extrapolateCurrentTime({ playerState: 1, currentTime: 10 }, 100_500)).toBe(10);
    expect(extrapolateCurrentTime(playing, 99_000)).toBe(10);
  });

  it('is undefined when the cache has no time; falls back to progressState.current', () => {
    expect(extrapolateCurrentTime({}, 0)).toBeUndefined();
    expect(extrapolateCurrentTime({ progressState: { current: 3 } as never, playerState: 2 }, 0)).toBe(3);
  });
});

describe('mergeDelivery', () => {
  it('merges key by key, replacing whole values, into a new object', () => {
    const cache = { playerState: 1 as const, volume: 50, videoData: { video_id: 'a', title: 'A' } as never };
    const next = mergeDelivery(cache, { volume: 80, muted: true, videoData: { video_id: 'b' } });
    expect(next).toEqual({ playerState: 1, volume: 80, muted: true, videoData: { video_id: 'b' } });
    expect(next).not.toBe(cache);
    expect(cache.volume).toBe(50);
  });

  it('keeps unknown keys the embed adds', () => {
    expect(mergeDelivery({}, { somethingNew: [1] })).toEqual({ somethingNew: [1] });
  });

  it('returns the same cache for bad or empty input, without throwing', () => {
    const cache = { volume: 1 };
    for (const bad of [null, undefined, 3, 'x', [1, 2], {}]) expect(mergeDelivery(cache, bad)).toBe(cache);
    const polluted = mergeDelivery(cache, JSON.parse('{"__proto__":{"evil":1},"volume":2}'));
    expect(polluted).toEqual({ volume: 2 });
    expect(({} as Record<string, unknown>).evil).toBeUndefined();
  });
});

describe('parseEmbedMessage', () => {
  it('reads a JSON string with an event and an id', () => {
    expect(parseEmbedMessage('{"event":"infoDelivery","info":{"volume":3},"channel":"widget","id":1}')).toEqual({
      event: 'infoDelivery',
      info: { volume: 3 },
      channel: 'widget',
      id: 1,
    });
    expect(parseEmbedMessage('{"id":"2","event":"onReady"}')).toEqual({ event: 'onReady', info: null, id: '2', channel: undefined });
  });

  it('drops anything else silently', () => {
    for (const bad of [
      undefined,
      null,
      42,
      { event: 'onReady', id: 1 },
      'not json',
      '"a string"',
      '[1]',
      'null',
      '{"event":"onReady"}',
      '{"id":1}',
      '{"event":"","id":1}',
      '{"event":"onReady","id":{}}',
      '{"event":"onReady","id":1,"channel":"other"}',
    ]) {
      expect(parseEmbedMessage(bad)).toBeUndefined();
    }
  });
});

describe('isTrustedMessage', () => {
  const source = {} as MessageEventSource;
  const peer = { origin: 'https://embed.example', source };

  it('accepts only the iframe window on the embed origin', () => {
    expect(isTrustedMessage({ origin: 'https://embed.example', source }, peer)).toBe(true);
    expect(isTrustedMessage({ origin: 'https://evil.example', source }, peer)).toBe(false);
    expect(isTrustedMessage({ origin: 'http://embed.example', source }, peer)).toBe(false);
    expect(isTrustedMessage({ origin: 'https://embed.example:8443', source }, peer)).toBe(false);
    expect(isTrustedMessage({ origin: 'https://embed.example', source: {} as MessageEventSource }, peer)).toBe(false);
    expect(isTrustedMessage({ origin: 'https://embed.example', source: null }, peer)).toBe(false);
    expect(isTrustedMessage({ origin: 'https://embed.example', source: null }, { ...peer, source: null })).toBe(false);
  });
});

describe('buildEmbedUrl', () => {
  it('builds /embed/{id} with enablejsapi, the exact page origin, the widget id and the player vars', () => {
    const url = new URL(
      buildEmbedUrl({
        host: 'https://embed.example:8443/ignored/path',
        videoId: 'VFsunrise01',
        pageOrigin: 'http://localhost:3000',
        widgetId: 7,
        playerVars: { autoplay: 1, mute: true, controls: false, playlist: ['a', 'b'], hl: 'en', start: undefined, end: null },
      }),
    );
    expect(url.origin).toBe('https://embed.example:8443');
    expect(url.pathname).toBe('/embed/VFsunrise01');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      enablejsapi: '1',
      origin: 'http://localhost:3000',
      widgetid: '7',
      autoplay: '1',
      mute: '1',
      controls: '0',
      playlist: 'a,b',
      hl: 'en',
    });
  });

  it('leaves a malformed id out of the path, and never lets player vars turn the API off', () => {
    const url = new URL(
      buildEmbedUrl({
        host: 'https://e.example',
        videoId: '../../x?y',
        pageOrigin: 'https://h.example',
        widgetId: 1,
        playerVars: { enablejsapi: 0, origin: 'https://proxy.example' },
      }),
    );
    expect(url.pathname).toBe('/embed/');
    expect(url.searchParams.get('enablejsapi')).toBe('1');
    expect(url.searchParams.get('origin')).toBe('https://proxy.example');
  });

  it('normalizeHost keeps only http(s) origins', () => {
    expect(normalizeHost('https://a.example/x/')).toBe('https://a.example');
    expect(normalizeHost('javascript:alert(1)')).toBeUndefined();
    expect(normalizeHost('not a url')).toBeUndefined();
    expect(normalizeHost(3)).toBeUndefined();
  });

  it('isValidVideoId: 11 characters of [A-Za-z0-9_-]', () => {
    expect(isValidVideoId('VFsunrise01')).toBe(true);
    expect(isValidVideoId('a-b_c-d_e-f')).toBe(true);
    expect(isValidVideoId('VFsunrise0')).toBe(false);
    expect(isValidVideoId('VFsunrise011')).toBe(false);
    expect(isValidVideoId('bad!id12345')).toBe(false);
    expect(isValidVideoId(undefined)).toBe(false);
  });
});
