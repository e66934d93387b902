import { FALLBACK_RATES, numberOr, playbackReadings, playlistArgs, sizeFromFields } from '../../../../src/host/demo/ControlPanel.state';

describe('ControlPanel view-model', () => {
  it('reads a field as a number, or the fallback when it is empty or not one', () => {
    expect([numberOr('2.5', 0), numberOr(' ', 7), numberOr('x', 7), numberOr('Infinity', 7)]).toEqual([2.5, 7, 7, 7]);
  });

  it('a playlist field is a list id or ids separated by commas, from a whole index of at least 0', () => {
    expect(playlistArgs(' PLsamples ', '1.7')).toEqual({ list: 'PLsamples', listType: 'playlist', index: 1 });
    expect(playlistArgs('VFsunrise01, VFcitylight,,', '-2')).toEqual({ playlist: ['VFsunrise01', 'VFcitylight'], index: 0 });
  });

  it('a size is whole pixels, none when either side is not positive', () => {
    expect(sizeFromFields('480.4', '')).toEqual({ width: 480, height: 360 });
    expect(sizeFromFields('0', '270')).toBeUndefined();
  });

  it('reads an unstarted player where nothing was delivered', () => {
    expect(playbackReadings({})).toEqual({ duration: 0, currentTime: 0, volume: 100, rates: FALLBACK_RATES, qualities: [], tracks: [] });
    expect(playbackReadings({ duration: 12, currentTime: 3, volume: 40, availablePlaybackRates: [1, 2] })).toMatchObject({
      duration: 12,
      currentTime: 3,
      volume: 40,
      rates: [1, 2],
    });
  });
});
