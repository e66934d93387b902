import { durationInWords, seekSliderKey, SHORTCUT_LIST, shortcutCommand } from '../../../streams/player/shortcutCommand';
import { buildPlayerInfo, EMPTY_MEDIA_SNAPSHOT, loadedFraction, videoContentRect } from '../../../streams/player/playerInfo';
import { initialPlayerModel } from '../../../streams/player/playerModel';
import { reducePlayer } from '../../../streams/player/reducePlayer';
import { PlayerState } from '../../../streams/player/playerState';
import { configFor, response } from './fixtures';

describe('shortcutCommand', () => {
  const info = {
    playerState: PlayerState.PLAYING,
    currentTime: 30,
    duration: 100,
    volume: 50,
    muted: false,
    captionTrack: null,
    captionTracks: [{ languageCode: 'en', languageName: 'English', displayName: 'English', kind: '', is_default: true }],
  };
  it('maps the keyboard shortcuts', () => {
    expect(shortcutCommand({ key: ' ' }, info)).toEqual({ command: { type: 'pause' } });
    expect(shortcutCommand({ key: 'k' }, { ...info, playerState: PlayerState.PAUSED })).toEqual({ command: { type: 'play' } });
    expect(shortcutCommand({ key: 'j' }, info)).toEqual({ command: { type: 'seek', seconds: 20, allowSeekAhead: true } });
    expect(shortcutCommand({ key: 'L' }, info)).toEqual({ command: { type: 'seek', seconds: 40, allowSeekAhead: true } });
    expect(shortcutCommand({ key: 'ArrowLeft' }, { ...info, currentTime: 2 })).toEqual({ command: { type: 'seek', seconds: 0, allowSeekAhead: true } });
    expect(shortcutCommand({ key: 'ArrowRight' }, { ...info, currentTime: 98 })).toEqual({ command: { type: 'seek', seconds: 100, allowSeekAhead: true } });
    expect(shortcutCommand({ key: 'ArrowUp' }, { ...info, volume: 98 })).toEqual({ command: { type: 'setVolume', volume: 100 } });
    expect(shortcutCommand({ key: 'ArrowDown' }, info)).toEqual({ command: { type: 'setVolume', volume: 45 } });
    expect(shortcutCommand({ key: 'm' }, info)).toEqual({ command: { type: 'mute' } });
    expect(shortcutCommand({ key: 'm' }, { ...info, muted: true })).toEqual({ command: { type: 'unMute' } });
    expect(shortcutCommand({ key: 'f' }, info)).toEqual({ view: 'fullscreen' });
    expect(shortcutCommand({ key: 'c' }, info)).toEqual({ command: { type: 'setCaptions', enabled: true } });
    expect(shortcutCommand({ key: 'c' }, { ...info, captionTracks: [] })).toBeNull();
    expect(shortcutCommand({ key: '7' }, info)).toEqual({ command: { type: 'seek', seconds: 70, allowSeekAhead: true } });
    expect(shortcutCommand({ key: 'k', ctrlKey: true }, info)).toBeNull();
    expect(shortcutCommand({ key: 'q' }, info)).toBeNull();
  });

  it('? (shift+/) opens the shortcut list', () => {
    expect(shortcutCommand({ key: '?' }, info)).toEqual({ view: 'shortcuts' });
  });

  it("i (or I) opens or closes the stats panel; with a modifier it is the browser's", () => {
    expect(shortcutCommand({ key: 'i' }, info)).toEqual({ view: 'stats' });
    expect(shortcutCommand({ key: 'I' }, info)).toEqual({ view: 'stats' });
    expect(shortcutCommand({ key: 'i', ctrlKey: true }, info)).toBeNull();
  });

  it('the shortcut list names only keys that do something, and every key shortcutCommand handles', () => {
    for (const entry of SHORTCUT_LIST) expect([entry.sample, shortcutCommand({ key: entry.sample }, info)]).not.toEqual([entry.sample, null]);
    const listed = new Set(SHORTCUT_LIST.flatMap((e) => [e.sample, ...e.keys]));
    const handled = [' ', 'k', 'j', 'l', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'm', 'f', 'c', 'i', '?', '0', '9'].filter(
      (k) => shortcutCommand({ key: k }, info) !== null,
    );
    const shown: Record<string, string> = { ' ': 'Space', ArrowLeft: '←', ArrowRight: '→', ArrowUp: '↑', ArrowDown: '↓' };
    for (const k of handled) expect([k, listed.has(k) || listed.has(shown[k] ?? '')]).toEqual([k, true]);
  });
});

describe('seekSliderKey (WAI-ARIA slider keys)', () => {
  it('arrows ±5 s, PageUp/PageDown ±10 s, Home/End the ends, clamped, keeping the state; other keys null', () => {
    const seek = (seconds: number) => ({ type: 'seek', seconds, allowSeekAhead: true, keepState: true });
    expect(seekSliderKey('ArrowRight', 3, 12)).toEqual(seek(8));
    expect(seekSliderKey('ArrowUp', 3, 12)).toEqual(seek(8));
    expect(seekSliderKey('ArrowLeft', 3, 12)).toEqual(seek(0));
    expect(seekSliderKey('ArrowDown', 7, 12)).toEqual(seek(2));
    expect(seekSliderKey('PageUp', 3, 12)).toEqual(seek(12));
    expect(seekSliderKey('PageDown', 11, 12)).toEqual(seek(1));
    expect(seekSliderKey('Home', 7, 12)).toEqual(seek(0));
    expect(seekSliderKey('End', 7, 12)).toEqual(seek(12));
    expect(seekSliderKey('End', 0, 0)).toBeNull();
    expect(seekSliderKey('k', 3, 12)).toBeNull();
  });

  it('right to left: ← moves forward and → back (the bar fills from the right); the other keys keep their meaning', () => {
    const seek = (seconds: number) => ({ type: 'seek', seconds, allowSeekAhead: true, keepState: true });
    expect(seekSliderKey('ArrowLeft', 3, 12, 'rtl')).toEqual(seek(8));
    expect(seekSliderKey('ArrowRight', 7, 12, 'rtl')).toEqual(seek(2));
    expect(seekSliderKey('ArrowUp', 3, 12, 'rtl')).toEqual(seek(8));
    expect(seekSliderKey('ArrowDown', 7, 12, 'rtl')).toEqual(seek(2));
    expect(seekSliderKey('PageUp', 1, 12, 'rtl')).toEqual(seek(11));
    expect(seekSliderKey('Home', 7, 12, 'rtl')).toEqual(seek(0));
    expect(seekSliderKey('ArrowLeft', 3, 12, 'ltr')).toEqual(seek(0));
  });

  it('durationInWords: whole seconds in words', () => {
    expect(durationInWords(0)).toBe('0 seconds');
    expect(durationInWords(NaN)).toBe('0 seconds');
    expect(durationInWords(1)).toBe('1 second');
    expect(durationInWords(5.9)).toBe('5 seconds');
    expect(durationInWords(65)).toBe('1 minute 5 seconds');
    expect(durationInWords(120)).toBe('2 minutes');
    expect(durationInWords(3725)).toBe('1 hour 2 minutes 5 seconds');
  });
});

describe('buildPlayerInfo', () => {
  it('content rect is the letterboxed picture inside the element box', () => {
    expect(videoContentRect({ left: 0, top: 0, width: 640, height: 480 }, 640, 360)).toEqual({ left: 0, top: 60, width: 640, height: 360 });
    expect(videoContentRect({ left: 10, top: 0, width: 800, height: 360 }, 640, 360)).toEqual({ left: 90, top: 0, width: 640, height: 360 });
    expect(videoContentRect({ left: 0, top: 0, width: 300, height: 200 }, 0, 0)).toEqual({ left: 0, top: 0, width: 300, height: 200 });
  });

  it('loaded fraction sums the buffered ranges over the duration', () => {
    expect(
      loadedFraction(
        [
          [0, 3],
          [6, 9],
        ],
        12,
      ),
    ).toBe(0.5);
    expect(loadedFraction([[0, 20]], 12)).toBe(1);
    expect(loadedFraction([[0, 3]], NaN)).toBe(0);
  });

  it('a full snapshot with real values: bytes from the rendition size, duration before metadata from the catalogue', () => {
    const model = reducePlayer(
      initialPlayerModel(configFor({ playlist: 'VFcitylight' })),
      { type: 'videoResponse', seq: 0, response: response('VFsunrise01', true), autoplay: false },
      { currentTime: 0, state: PlayerState.CUED, random: () => 0 },
    ).model;
    const before = buildPlayerInfo(model, EMPTY_MEDIA_SNAPSHOT, PlayerState.CUED, { origin: 'https://embed.test', nowMs: 1_500 });
    expect(before).toMatchObject({
      playerState: 5,
      duration: 12,
      currentTime: 0,
      currentTimeLastUpdated_: 1.5,
      videoBytesTotal: 200,
      videoBytesLoaded: 0,
      playlist: ['VFsunrise01', 'VFcitylight'],
      playlistIndex: 0,
    });
    const media = {
      ...EMPTY_MEDIA_SNAPSHOT,
      currentTime: 3,
      duration: 10,
      buffered: [[0, 5]] as [number, number][],
      volume: 0.4,
      muted: true,
      playbackRate: 1.5,
      videoWidth: 640,
      videoHeight: 360,
      box: { left: 0, top: 0, width: 640, height: 360 },
    };
    const info = buildPlayerInfo(model, media, PlayerState.PLAYING, { origin: 'https://embed.test', nowMs: 2_000 });
    expect(info).toMatchObject({
      currentTime: 3,
      duration: 10,
      videoLoadedFraction: 0.5,
      videoBytesLoaded: 100,
      videoBytesTotal: 200,
      playbackQuality: 'medium',
      availableQualityLevels: ['medium', 'small', 'auto'],
      playbackRate: 1.5,
      volume: 40,
      muted: true,
      videoUrl: 'https://embed.test/embed/VFsunrise01',
      videoContentRect: { left: 0, top: 0, width: 640, height: 360 },
      progressState: { current: 3, duration: 10, loaded: 5 },
      captionTracks: [expect.objectContaining({ languageCode: 'en' }), expect.objectContaining({ languageCode: 'es' })],
      captionTrack: null,
      size: { width: 640, height: 360 },
      videoData: { video_id: 'VFsunrise01', title: 'Title VFsunrise01', isPlayable: true, errorCode: null },
    });
  });

  it('snapshots of one model share what the model alone decides; a new model gets its own', () => {
    const ctx = { currentTime: 0, state: PlayerState.PLAYING, random: () => 0 };
    const model = reducePlayer(
      initialPlayerModel(configFor({})),
      { type: 'videoResponse', seq: 0, response: response('VFsunrise01', true), autoplay: true },
      ctx,
    ).model;
    const box = { left: 0, top: 0, width: 640, height: 360 };
    const media = (t: number) => ({ ...EMPTY_MEDIA_SNAPSHOT, currentTime: t, duration: 12, videoWidth: 640, videoHeight: 360, box });
    const a = buildPlayerInfo(model, media(1), PlayerState.PLAYING, { origin: 'https://embed.test', nowMs: 1_000 });
    const b = buildPlayerInfo(model, media(1.25), PlayerState.PLAYING, { origin: 'https://embed.test', nowMs: 1_250 });
    // Two playback ticks: the same objects, so comparing them (sameValue) is one ===.
    for (const key of ['videoData', 'captionTracks', 'availableQualityLevels', 'availablePlaybackRates', 'playlist', 'videoContentRect', 'size'] as const) {
      expect(b[key]).toBe(a[key]);
    }
    expect(b.currentTime).toBe(1.25);
    expect(b.progressState).not.toBe(a.progressState);
    // Another origin is another snapshot text, not the cached one.
    expect(buildPlayerInfo(model, media(1), PlayerState.PLAYING, { origin: 'https://other.test', nowMs: 0 }).videoUrl).toBe(
      'https://other.test/embed/VFsunrise01',
    );
    // Captions turned on: a new model, whose snapshot says so.
    const withCaptions = reducePlayer(model, { type: 'setCaptions', enabled: true, languageCode: a.captionTracks[0].languageCode }, ctx).model;
    expect(withCaptions).not.toBe(model);
    const c = buildPlayerInfo(withCaptions, media(1.5), PlayerState.PLAYING, { origin: 'https://embed.test', nowMs: 1_500 });
    expect(a.captionTrack).toBeNull();
    expect(c.captionTrack).toEqual(expect.objectContaining({ languageCode: a.captionTracks[0].languageCode }));
    expect(c.captionTrack).toBe(c.captionTracks[0]);
    // A new box (a layout change) gets its own content rect.
    const d = buildPlayerInfo(withCaptions, { ...media(2), box: { ...box, width: 320, height: 180 } }, PlayerState.PLAYING, {
      origin: 'https://embed.test',
      nowMs: 2_000,
    });
    expect(d.videoContentRect).toEqual({ left: 0, top: 0, width: 320, height: 180 });
    expect(d.size).toEqual({ width: 320, height: 180 });
  });

  it('models of one response share its track list and quality levels; every video without captions shares one empty list', () => {
    const ctx = { currentTime: 0, state: PlayerState.PLAYING, random: () => 0 };
    const answered = (m: ReturnType<typeof initialPlayerModel>, r: ReturnType<typeof response>) =>
      reducePlayer(m, { type: 'videoResponse', seq: m.loadSeq, response: r, autoplay: true }, ctx).model;
    const reload = (m: ReturnType<typeof initialPlayerModel>) =>
      reducePlayer(m, { type: 'loadVideo', options: { videoId: 'VFsunrise01' }, autoplay: true }, ctx).model;
    const info = (m: ReturnType<typeof initialPlayerModel>) =>
      buildPlayerInfo(m, EMPTY_MEDIA_SNAPSHOT, PlayerState.PLAYING, { origin: 'https://embed.test', nowMs: 0 });
    // With captions: the same response given to a new model (a loop reuses the response it has).
    const captioned = response('VFsunrise01', true);
    const first = answered(initialPlayerModel(configFor({})), captioned);
    const again = answered(reload(first), captioned);
    expect(again).not.toBe(first);
    expect(info(first).captionTracks.length).toBeGreaterThan(0);
    expect(info(again).captionTracks).toBe(info(first).captionTracks);
    expect(info(again).availableQualityLevels).toBe(info(first).availableQualityLevels);
    // Another response with the same tracks is its own list, equal by value.
    const other = answered(reload(again), response('VFsunrise01', true));
    expect(info(other).captionTracks).not.toBe(info(first).captionTracks);
    expect(info(other).captionTracks).toEqual(info(first).captionTracks);
    // Without captions: one frozen empty list, whatever the response.
    const a = info(answered(initialPlayerModel(configFor({})), response('VFsunrise01')));
    const b = info(answered(reload(first), response('VFsunrise01')));
    expect(a.captionTracks).toEqual([]);
    expect(b.captionTracks).toBe(a.captionTracks);
    expect(Object.isFrozen(a.captionTracks)).toBe(true);
  });
});
