import type { CaptionTrackData, PlayerInfo } from '../../../../streams/player/types';
import { autoLabel, focusIndex, menuItems, menuRows, wrapIndex } from '../../../../src/embed/views/SettingsMenu.state';

const track = (languageCode: string, displayName: string): CaptionTrackData => ({
  languageCode,
  languageName: displayName,
  displayName,
  kind: '',
  is_default: false,
});

/** The fields of the player info the menu reads. */
const infoWith = (patch: Partial<PlayerInfo> = {}): PlayerInfo =>
  ({
    playbackRate: 1,
    availablePlaybackRates: [0.5, 1, 1.5],
    playbackQuality: 'medium',
    availableQualityLevels: ['medium', 'small', 'auto'],
    captionTracks: [track('en', 'English'), track('es', 'Spanish')],
    captionTrack: null,
    ...patch,
  }) as PlayerInfo;

describe('SettingsMenu view-model', () => {
  it('lists speed always, quality only with qualities besides auto, captions only with tracks', () => {
    expect(menuRows(infoWith())).toEqual([
      { page: 'speed', value: 'Normal' },
      { page: 'quality', value: '360p' },
      { page: 'captions', value: 'Off' },
    ]);
    expect(menuRows(infoWith({ playbackRate: 1.5, availableQualityLevels: ['auto'], captionTracks: [] }))).toEqual([{ page: 'speed', value: '1.5×' }]);
    expect(menuRows(infoWith({ captionTrack: track('es', 'Spanish') }))[2]).toEqual({ page: 'captions', value: 'Spanish' });
  });

  it('a sub-list is Back then its choices, each with the command it sends', () => {
    const info = infoWith({ captionTrack: track('es', 'Spanish') });
    const rows = menuRows(info);
    expect(menuItems('main', info, rows).map((it) => it.kind)).toEqual(['row', 'row', 'row']);
    expect(menuItems('quality', info, rows)).toEqual([
      { kind: 'back', key: 'back', page: 'quality' },
      { kind: 'choice', key: 'q-medium', label: '360p', checked: true, command: { type: 'setPlaybackQuality', quality: 'medium' } },
      { kind: 'choice', key: 'q-small', label: '240p', checked: false, command: { type: 'setPlaybackQuality', quality: 'small' } },
    ]);
    expect(menuItems('captions', info, rows).slice(1)).toEqual([
      { kind: 'choice', key: 'cc-off', label: 'Off', checked: false, command: { type: 'setCaptions', enabled: false } },
      { kind: 'choice', key: 'cc-en', label: 'English', checked: false, command: { type: 'setCaptions', enabled: true, languageCode: 'en' } },
      { kind: 'choice', key: 'cc-es', label: 'Spanish', checked: true, command: { type: 'setCaptions', enabled: true, languageCode: 'es' } },
    ]);
  });

  it('focus opens on the index asked for, else the checked choice, else the first item after Back', () => {
    const info = infoWith({ availablePlaybackRates: [0.5, 1.5], playbackRate: 1 });
    const rows = menuRows(info);
    expect(focusIndex(menuItems('main', info, rows), -1, 'main')).toBe(0);
    expect(focusIndex(menuItems('main', info, rows), 2, 'main')).toBe(2);
    expect(focusIndex(menuItems('speed', info, rows), -1, 'speed')).toBe(1);
    expect(focusIndex(menuItems('captions', info, rows), -1, 'captions')).toBe(1);
    expect(focusIndex(menuItems('quality', info, rows), -1, 'quality')).toBe(1);
    expect(focusIndex(menuItems('speed', infoWith(), rows), -1, 'speed')).toBe(2);
  });

  it('arrow moves wrap around the ends', () => {
    expect([wrapIndex(-1, 4), wrapIndex(4, 4), wrapIndex(2, 4)]).toEqual([3, 0, 2]);
  });

  describe('while streaming a ladder', () => {
    const ladder = infoWith({ availableQualityLevels: ['large', 'medium', 'small', 'tiny', 'auto'], playbackQuality: 'large', captionTracks: [] });

    it('Auto names the quality on screen, and only Auto once there is none', () => {
      expect([autoLabel('large'), autoLabel('hd1080'), autoLabel('unknown'), autoLabel('')]).toEqual(['Auto (480p)', 'Auto (1080p)', 'Auto', 'Auto']);
      expect(menuRows(ladder, { preference: 'auto' })[1]).toEqual({ page: 'quality', value: 'Auto (480p)' });
      expect(menuRows({ ...ladder, playbackQuality: 'unknown' }, { preference: 'auto' })[1]).toEqual({ page: 'quality', value: 'Auto' });
      expect(menuRows(ladder, { preference: 'small' })[1]).toEqual({ page: 'quality', value: '240p' });
    });

    it('lists the ladder highest first, then Auto; the level chosen is checked', () => {
      const auto = menuItems('quality', ladder, menuRows(ladder), { preference: 'auto' });
      expect(auto.slice(1).map((it) => it.kind === 'choice' && [it.label, it.checked])).toEqual([
        ['480p', false],
        ['360p', false],
        ['240p', false],
        ['144p', false],
        ['Auto (480p)', true],
      ]);
      expect(auto[5]).toMatchObject({ command: { type: 'setPlaybackQuality', quality: 'auto' } });
      const fixed = menuItems('quality', ladder, menuRows(ladder), { preference: 'medium' });
      expect(fixed.filter((it) => it.kind === 'choice' && it.checked).map((it) => it.kind === 'choice' && it.label)).toEqual(['360p']);
      // A preference the ladder has no level for is read as Auto, as the engine reads it.
      const other = menuItems('quality', ladder, menuRows(ladder), { preference: 'default' });
      expect(other.filter((it) => it.kind === 'choice' && it.checked).map((it) => it.kind === 'choice' && it.label)).toEqual(['Auto (480p)']);
    });

    it('the main list ends with Stats for nerds when the page can open it', () => {
      const rows = menuRows(ladder, { preference: 'auto' });
      expect(menuItems('main', ladder, rows, { preference: 'auto' }, { stats: true }).map((it) => it.kind)).toEqual(['row', 'row', 'action']);
      expect(menuItems('main', ladder, rows, { preference: 'auto' }, { stats: true })[2]).toEqual({ kind: 'action', key: 'stats', label: 'Stats for nerds' });
      expect(menuItems('main', ladder, rows).map((it) => it.kind)).toEqual(['row', 'row']);
    });
  });
});
