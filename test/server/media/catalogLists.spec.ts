import type { Catalog, CatalogVideo } from '../../../server/media/catalog';
import { channelUploads, findList, searchCatalog, uploadsListId, wordsOf } from '../../../server/media/catalogLists';

const SAMPLES = 'UCvidframeSamples0000000';
const STUDIO = 'UCvidframeStudio00000000';
const video = (id: string, title: string, author: string, channelId: string): CatalogVideo => ({
  id,
  title,
  author,
  channelId,
  durationSeconds: 10,
  embeddable: true,
  renditions: [],
  captions: [],
});
const catalog: Catalog = {
  videos: [
    video('VFsunrise01', 'Sunrise over the test pattern', 'VidFrame Samples', SAMPLES),
    video('VFoceanwave', 'Ocean wave', 'VidFrame Studio', STUDIO),
    video('VFcitylight', 'City lights', 'VidFrame Samples', SAMPLES),
    video('VFnightcity', 'City at night: lights, café', 'VidFrame Studio', STUDIO),
  ],
  playlists: [{ id: 'PLvfDemoPlaylist01', title: 'Demo', videoIds: ['VFcitylight'] }],
};

describe("a channel's uploads (listType user_uploads)", () => {
  it('is every video of the channel, in catalogue order, named by channel id, uploads list id or author name', () => {
    const studio = { id: 'UUvidframeStudio00000000', title: 'Uploads from VidFrame Studio', videoIds: ['VFoceanwave', 'VFnightcity'] };
    expect(uploadsListId(STUDIO)).toBe('UUvidframeStudio00000000');
    for (const name of [STUDIO, ` ${STUDIO} `, 'UUvidframeStudio00000000', 'VidFrame Studio', 'vidframe   STUDIO', '  VidFrame Studio\n']) {
      expect([name, channelUploads(catalog, name)]).toEqual([name, studio]);
    }
    expect(channelUploads(catalog, 'VidFrame Samples')?.videoIds).toEqual(['VFsunrise01', 'VFcitylight']);
  });

  it('is undefined for a channel nobody has: an unknown id, a near name, a lower-cased id, blank', () => {
    for (const name of ['UCnobodyUploadsHere00000', 'VidFrame', 'VidFrameStudio', STUDIO.toLowerCase(), '', '   ', 'Uploads from VidFrame Studio']) {
      expect([name, channelUploads(catalog, name)]).toEqual([name, undefined]);
    }
  });
});

describe('a title search (listType search)', () => {
  it('words are runs of letters and digits, lower-cased', () => {
    expect(wordsOf('  City at NIGHT: lights, café 24/7 ')).toEqual(['city', 'at', 'night', 'lights', 'café', '24', '7']);
    expect(wordsOf('!!! ---')).toEqual([]);
  });

  it('matches the titles that have every word of the query, whole words, case aside, in catalogue order', () => {
    expect(searchCatalog(catalog, 'lights')).toEqual({ id: null, title: 'lights', videoIds: ['VFcitylight', 'VFnightcity'] });
    expect(searchCatalog(catalog, '  CITY, lights! ')?.videoIds).toEqual(['VFcitylight', 'VFnightcity']);
    expect(searchCatalog(catalog, 'night city')?.videoIds).toEqual(['VFnightcity']);
    expect(searchCatalog(catalog, 'the PATTERN sunrise')?.videoIds).toEqual(['VFsunrise01']);
    expect(searchCatalog(catalog, 'Café')?.videoIds).toEqual(['VFnightcity']);
  });

  it('is undefined with no match, a part of a word only, or no word at all', () => {
    for (const query of ['zebra', 'light', 'city zebra', 'sun', '', '  ', '?!', 'x'.repeat(200)]) {
      expect([query, searchCatalog(catalog, query)]).toEqual([query, undefined]);
    }
  });
});

describe('a list by id', () => {
  it('is a catalogue playlist or a channel uploads list', () => {
    expect(findList(catalog, 'PLvfDemoPlaylist01')).toMatchObject({ id: 'PLvfDemoPlaylist01', videoIds: ['VFcitylight'] });
    expect(findList(catalog, 'UUvidframeSamples0000000')).toMatchObject({ id: 'UUvidframeSamples0000000', videoIds: ['VFsunrise01', 'VFcitylight'] });
    for (const id of [SAMPLES, 'VidFrame Samples', 'UUnobody', 'PLnothing']) expect([id, findList(catalog, id)]).toEqual([id, undefined]);
  });
});
