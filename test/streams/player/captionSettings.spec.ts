import {
  captionDisplaySettingsOf,
  captionFontSize,
  captionStyle,
  CAPTIONS_MODULE_OPTIONS,
  DEFAULT_CAPTION_DISPLAY_SETTINGS,
  mergeCaptionDisplaySettings,
  normalizeCaptionColor,
} from '../../../streams/player/captionSettings';
import { CAPTION_FONT_SCALE_PER_STEP, CAPTION_FONT_SIZE_MAX, CAPTION_FONT_SIZE_MIN } from '../../../streams/timing';

describe('captionSettings: the IFrame API captions module options', () => {
  it("names the module's options as getOptions('captions') answers them", () => {
    expect(CAPTIONS_MODULE_OPTIONS).toEqual(['reload', 'fontSize', 'track', 'tracklist', 'displaySettings']);
  });

  it('fontSize: the documented sizes -1 (small) … 3 (largest), integers only', () => {
    expect([CAPTION_FONT_SIZE_MIN, CAPTION_FONT_SIZE_MAX]).toEqual([-1, 3]);
    expect([-1, 0, 1, 2, 3].map((n) => captionFontSize(n))).toEqual([-1, 0, 1, 2, 3]);
    expect([-2, 4, 0.5, '1', NaN, Infinity, null, undefined, true].map((n) => captionFontSize(n))).toEqual(Array(9).fill(undefined));
    // The range is a parameter: a smaller one for the logic.
    expect([captionFontSize(1, 0, 1), captionFontSize(2, 0, 1)]).toEqual([1, undefined]);
  });

  it('colours: #rgb and #rrggbb, normalised to lower-case #rrggbb; nothing else', () => {
    expect(['#FFF', '#ff0', '#000080', '#AbCdEf'].map(normalizeCaptionColor)).toEqual(['#ffffff', '#ffff00', '#000080', '#abcdef']);
    expect(['red', '#ff', '#fffffff', 'ff0000', '#ff0; x', 'rgb(1,2,3)', 42, null].map(normalizeCaptionColor)).toEqual(Array(8).fill(undefined));
  });

  it('merge: applies each valid key, ignores unknown keys and bad values, and keeps the same object when nothing changes', () => {
    const d = DEFAULT_CAPTION_DISPLAY_SETTINGS;
    expect(mergeCaptionDisplaySettings(d, { textOpacity: 0.5, windowColor: '#123', windowOpacity: 1, fontFamily: 7, nope: 1 })).toEqual({
      ...d,
      textOpacity: 0.5,
      windowColor: '#112233',
      windowOpacity: 1,
      fontFamily: 7,
    });
    for (const patch of [
      null,
      undefined,
      'x',
      3,
      [1],
      {},
      { color: 'red' },
      { fontFamily: 0 },
      { charEdgeStyle: 5 },
      { backgroundOpacity: 1.01 },
      { color: '#fff' },
    ]) {
      expect(mergeCaptionDisplaySettings(d, patch)).toBe(d);
    }
    // An inherited key is not read.
    expect(mergeCaptionDisplaySettings(d, Object.create({ color: '#000' }))).toBe(d);
  });

  it('captionDisplaySettingsOf fills a partial or foreign record with the defaults', () => {
    expect(captionDisplaySettingsOf({})).toEqual(DEFAULT_CAPTION_DISPLAY_SETTINGS);
    expect(captionDisplaySettingsOf({ fontSizeIncrement: 2, color: 'blue' })).toEqual({ ...DEFAULT_CAPTION_DISPLAY_SETTINGS, fontSizeIncrement: 2 });
    expect(captionDisplaySettingsOf(undefined)).toEqual(DEFAULT_CAPTION_DISPLAY_SETTINGS);
  });

  it('captionStyle: font scale per size step, rgba colours with their opacities, font and edge numbers', () => {
    expect(CAPTION_FONT_SCALE_PER_STEP).toBe(0.25);
    expect([-1, 0, 1, 2, 3].map((n) => captionStyle({ fontSizeIncrement: n }).fontScale)).toEqual([0.75, 1, 1.25, 1.5, 1.75]);
    expect(captionStyle({ fontSizeIncrement: 2 }, 0.5).fontScale).toBe(2);
    expect(captionStyle({})).toEqual({
      fontScale: 1,
      fontFamily: 4,
      edgeStyle: 0,
      color: 'rgba(255, 255, 255, 1)',
      background: 'rgba(8, 8, 8, 0.75)',
      window: 'rgba(8, 8, 8, 0)',
    });
    expect(captionStyle({ color: '#ff0', textOpacity: 0.5, background: '#000080', backgroundOpacity: 0.25, charEdgeStyle: 3, fontFamily: 2 })).toMatchObject({
      color: 'rgba(255, 255, 0, 0.5)',
      background: 'rgba(0, 0, 128, 0.25)',
      edgeStyle: 3,
      fontFamily: 2,
    });
    // A hostile record gives the defaults, never its text.
    expect(captionStyle({ color: 'red;background:url(x)', fontSizeIncrement: 99 })).toEqual(captionStyle({}));
  });
});
