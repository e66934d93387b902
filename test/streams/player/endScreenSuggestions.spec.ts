import { readEndScreenSuggestions } from '../../../streams/player/endScreenSuggestions';

describe('readEndScreenSuggestions', () => {
  const renderer = (videoId: string, title = videoId) => ({
    endScreenVideoRenderer: {
      videoId,
      title: { simpleText: title },
      thumbnail: { thumbnails: [{ url: `/media/${videoId}.jpg` }] },
      lengthText: { simpleText: '0:12' },
      lengthInSeconds: 12,
      shortBylineText: { runs: [{ text: 'VidFrame Samples', navigationEndpoint: { browseEndpoint: { browseId: 'UCx' } } }] },
    },
  });
  const answer = (results: unknown[]) => ({ playerOverlays: { playerOverlayRenderer: { endScreen: { watchNextEndScreenRenderer: { results } } } } });

  it('reads the results in order, without the current video, duplicates or malformed entries', () => {
    const body = answer([renderer('A'), renderer('CUR'), renderer('A'), { endScreenVideoRenderer: { videoId: 'B' } }, renderer('C', 'See')]);
    expect(readEndScreenSuggestions(body, 'CUR')).toEqual([
      { videoId: 'A', title: 'A', channel: 'VidFrame Samples', channelId: 'UCx', length: '0:12', thumbnailUrl: '/media/A.jpg' },
      { videoId: 'C', title: 'See', channel: 'VidFrame Samples', channelId: 'UCx', length: '0:12', thumbnailUrl: '/media/C.jpg' },
    ]);
  });

  it('no end screen in the answer: no suggestions', () => {
    expect(readEndScreenSuggestions({}, 'A')).toEqual([]);
    expect(readEndScreenSuggestions(null, 'A')).toEqual([]);
    expect(readEndScreenSuggestions(answer({} as unknown as unknown[]), 'A')).toEqual([]);
  });
});
