import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  channelOf,
  findChannel,
  findPlaylist,
  findVideo,
  isValidChannelId,
  isValidVideoId,
  loadCatalog,
  QUALITY_ORDER,
  type Catalog,
} from '../../../server/media/catalog';
import { playerResponseFor } from '../../../server/media/playerResponse';

const mediaDir = resolve(__dirname, '../../../media');

describe('the sample catalogue (media/catalog.json)', () => {
  const catalog = loadCatalog(mediaDir);

  it('holds the three playable videos, the broken one, the non-embeddable one, the three with viewer rules, the adaptive one and the demo playlist', () => {
    expect(catalog.videos.map((v) => v.id).sort()).toEqual([
      'VFbrokenvid',
      'VFcitylight',
      'VFheartbt01',
      'VFladder001',
      'VFmembers01',
      'VFnoembed01',
      'VFoceanwave',
      'VFregional1',
      'VFsunrise01',
    ]);
    expect(findVideo(catalog, 'VFmembers01')!.requiresSignIn).toBe(true);
    expect(findVideo(catalog, 'VFregional1')!.blockedRegions).toEqual(['DE']);
    expect(findVideo(catalog, 'VFheartbt01')!.heartbeatStopAfterSeconds).toBe(4);
    // They play an existing video's files: no media of their own.
    expect(findVideo(catalog, 'VFmembers01')!.renditions).toEqual(findVideo(catalog, 'VFcitylight')!.renditions);
    expect(findVideo(catalog, 'VFnoembed01')!.embeddable).toBe(false);
    expect(findPlaylist(catalog, 'PLvfDemoPlaylist01')!.videoIds).toEqual(['VFsunrise01', 'VFcitylight', 'VFoceanwave']);
    expect(findVideo(catalog, 'VFsunrise01')!.captions.map((c) => c.languageCode)).toEqual(['en', 'es']);
  });

  it('names files that exist, with the sizes it states, in at least two qualities, WebM VP9/Opus (the progressive samples)', () => {
    // The adaptive sample has one progressive H.264 file beside its ladder: test/scripts/ingest/adaptiveSample.spec.ts.
    for (const video of catalog.videos.filter((v) => v.id !== 'VFladder001')) {
      expect(video.renditions.map((r) => r.quality)).toEqual(expect.arrayContaining(['small', 'medium']));
      for (const r of video.renditions) {
        expect(statSync(join(mediaDir, r.file)).size).toBe(r.bytes);
        expect(r.mimeType).toContain('vp9');
        expect(r.bytes).toBeLessThan(600_000); // a few hundred KB each
      }
    }
  });

  it('has valid ids, posters and caption files that exist, and durations as generated', () => {
    for (const video of catalog.videos) {
      expect(isValidVideoId(video.id)).toBe(true);
      expect(statSync(join(mediaDir, video.poster!)).isFile()).toBe(true);
      for (const c of video.captions) expect(readFileSync(join(mediaDir, c.file), 'utf8')).toMatch(/^WEBVTT\n/);
    }
    const seconds = Object.fromEntries(catalog.videos.map((v) => [v.id, Math.round(v.durationSeconds)]));
    expect(seconds).toEqual({ VFsunrise01: 12, VFcitylight: 10, VFoceanwave: 15, VFbrokenvid: 0, VFnoembed01: 8, VFmembers01: 10, VFregional1: 12, VFheartbt01: 15, VFladder001: 20 });
    expect(findVideo(catalog, 'VFsunrise01')!.renditions.map((r) => [r.quality, r.width, r.height])).toEqual([
      ['small', 426, 240],
      ['medium', 640, 360],
    ]);
  });

  it("puts every video in its author's channel, one channel per author, named in the player response", () => {
    const channels = Object.fromEntries(catalog.videos.map((v) => [v.id, channelOf(v)]));
    expect(channels).toEqual({
      VFsunrise01: { id: 'UCvidframeSamples0000000', title: 'VidFrame Samples' },
      VFcitylight: { id: 'UCvidframeSamples0000000', title: 'VidFrame Samples' },
      VFbrokenvid: { id: 'UCvidframeSamples0000000', title: 'VidFrame Samples' },
      VFoceanwave: { id: 'UCvidframeStudio00000000', title: 'VidFrame Studio' },
      VFnoembed01: { id: 'UCvidframeStudio00000000', title: 'VidFrame Studio' },
      VFmembers01: { id: 'UCvidframeSamples0000000', title: 'VidFrame Samples' },
      VFregional1: { id: 'UCvidframeStudio00000000', title: 'VidFrame Studio' },
      VFheartbt01: { id: 'UCvidframeStudio00000000', title: 'VidFrame Studio' },
      VFladder001: { id: 'UCU11uFnef8XBlX2taOGuUmE', title: 'VidFrame Lab' },
    });
    expect(findChannel(catalog, 'UCvidframeStudio00000000')).toEqual({ id: 'UCvidframeStudio00000000', title: 'VidFrame Studio' });
    expect(findChannel(catalog, 'UCnobody0000000000000000')).toBeUndefined();
    expect(findChannel(catalog, 42)).toBeUndefined();
    expect(playerResponseFor(catalog, 'VFoceanwave').videoDetails!.channelId).toBe('UCvidframeStudio00000000');
    expect(playerResponseFor(catalog, 'VFnoembed01').videoDetails!.channelId).toBe('UCvidframeStudio00000000');
    expect(['UCvidframeStudio00000000', 'UCa-b_0123456789abcdefgh'].map(isValidChannelId)).toEqual([true, true]);
    expect(['UCshort', 'XXvidframeStudio00000000', 'UCvidframeStudio0000000!', 7].map(isValidChannelId)).toEqual([false, false, false, false]);
  });

  it('has a broken entry whose file is not a playable WebM past its header', () => {
    const broken = findVideo(catalog, 'VFbrokenvid')!;
    expect(broken).toMatchObject({ title: 'Broken upload', embeddable: true, durationSeconds: 0 });
    for (const r of broken.renditions) {
      const bytes = readFileSync(join(mediaDir, r.file));
      expect(bytes.subarray(0, 4)).toEqual(Buffer.from([0x1a, 0x45, 0xdf, 0xa3])); // the EBML magic: it looks like WebM
      const good = readFileSync(join(mediaDir, findVideo(catalog, 'VFcitylight')!.renditions[0].file));
      expect(bytes.subarray(256, 512).equals(good.subarray(256, 512))).toBe(false); // and then it is noise
    }
  });

  it('cues a caption every 2 s in both languages', () => {
    for (const c of findVideo(catalog, 'VFsunrise01')!.captions) {
      const cues = readFileSync(join(mediaDir, c.file), 'utf8').match(/\d\d:\d\d:\d\d\.\d{3} --> \d\d:\d\d:\d\d\.\d{3}/g)!;
      expect(cues).toHaveLength(6);
      expect(cues[1]).toBe('00:00:02.000 --> 00:00:04.000');
    }
  });

  it('carries WebVTT markup in its captions (<i>, <b>, <c.yellow>), for the player to render as markup', () => {
    const text = (lang: string) => readFileSync(join(mediaDir, findVideo(catalog, 'VFsunrise01')!.captions.find((c) => c.languageCode === lang)!.file), 'utf8');
    expect(text('en')).toContain('the <i>sun</i> rises over the <b>test pattern</b>');
    expect(text('es')).toContain('el <i>sol</i> sale sobre la <c.yellow>carta de ajuste</c>');
  });

  it('finds nothing for unknown ids, and knows the quality order and the id rule', () => {
    expect(findVideo(catalog, 'VFnothere01')).toBeUndefined();
    expect(findPlaylist(catalog, 'vfDemoPlaylist01')).toBeUndefined(); // the PL rule belongs to the host protocol
    expect(QUALITY_ORDER).toEqual(['tiny', 'small', 'medium', 'large', 'hd720', 'hd1080', 'hd1440', 'hd2160', 'highres']);
    expect(['VFsunrise01', 'a-b_C123456'].map(isValidVideoId)).toEqual([true, true]);
    expect(['VFsunrise0', 'VFsunrise012', 'VFsunrise0!', ''].map(isValidVideoId)).toEqual([false, false, false, false]);
  });
});

describe('loadCatalog refuses a malformed catalogue with a clear error', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'vidframe-catalog-'));
    mkdirSync(join(dir, 'videos'));
    writeFileSync(join(dir, 'videos/a.webm'), 'x');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const video = (over: Record<string, unknown> = {}) => ({
    id: 'VFtest00001',
    title: 'T',
    author: 'A',
    channelId: 'UCauthorA000000000000000',
    durationSeconds: 1,
    renditions: [{ quality: 'small', width: 1, height: 1, file: 'videos/a.webm', mimeType: 'video/webm', bytes: 1 }],
    ...over,
  });
  const rendition = { quality: 'small', width: 1, height: 1, file: 'videos/a.webm', mimeType: 'video/webm', bytes: 1 };
  const track = { languageCode: 'en', languageName: 'English', file: 'videos/a.webm' };
  const playlist = { id: 'PLx', title: 'x', videoIds: ['VFtest00001'] };
  const write = (c: unknown) => writeFileSync(join(dir, 'catalog.json'), typeof c === 'string' ? c : JSON.stringify(c));

  it('accepts a minimal good one', () => {
    write({ videos: [video()] });
    const c: Catalog = loadCatalog(dir);
    expect(c.videos[0]).toMatchObject({ id: 'VFtest00001', embeddable: true, captions: [] });
    expect(c.playlists).toEqual([]);
  });

  it('sorts renditions lowest quality first, keeps only known fields, and names the catalogue in its errors', () => {
    writeFileSync(join(dir, 'videos/b.webm'), 'xy');
    const medium = { ...rendition, quality: 'medium', file: 'videos/b.webm', bytes: 2, extra: 'dropped' };
    write({ videos: [video({ renditions: [medium, rendition], captions: [track] })], playlists: [playlist] });
    const c = loadCatalog(dir);
    expect(c.videos[0].renditions.map((r) => r.quality)).toEqual(['small', 'medium']);
    expect(c.videos[0].renditions[1]).not.toHaveProperty('extra');
    expect(c.videos[0].captions).toEqual([track]);
    expect(c.playlists).toEqual([playlist]);
    write({ videos: [video({ id: 'bad' })] });
    expect(() => loadCatalog(dir)).toThrow(join(dir, 'catalog.json'));
  });

  it.each([
    ['no catalogue', null, 'npm run media'],
    ['bad JSON', '{nope', 'not valid JSON'],
    ['no videos list', { playlists: [] }, 'no "videos" list'],
    ['a bad id', { videos: [video({ id: 'short' })] }, '11 characters'],
    ['a duplicate id', { videos: [video(), video()] }, 'duplicate id'],
    ['a missing file', { videos: [video({ renditions: [{ quality: 'small', file: 'videos/none.webm' }] })] }, 'does not exist'],
    ['a file outside the folder', { videos: [video({ renditions: [{ quality: 'small', file: '../../etc/passwd' }] })] }, 'outside the media folder'],
    ['an unknown quality', { videos: [video({ renditions: [{ quality: 'ultra', file: 'videos/a.webm' }] })] }, 'unknown quality'],
    ['requiresSignIn not a boolean', { videos: [video({ requiresSignIn: 'yes' })] }, 'requiresSignIn must be true or false'],
    ['a region that is not a code', { videos: [video({ blockedRegions: ['de'] })] }, 'blockedRegions must be a list of two-letter'],
    ['blockedRegions not a list', { videos: [video({ blockedRegions: 'DE' })] }, 'blockedRegions must be a list of two-letter'],
    ['a heartbeat stop of 0 s', { videos: [video({ heartbeatStopAfterSeconds: 0 })] }, 'heartbeatStopAfterSeconds must be a number > 0'],
    ['a playlist with an unknown video', { videos: [video()], playlists: [{ id: 'PLx', title: 'x', videoIds: ['VFnothere01'] }] }, 'unknown video VFnothere01'],
    ['a video that is not an object', { videos: [video(), 42] }, 'videos[1]: not an object'],
    ['an id of the wrong type', { videos: [video({ id: 11 })] }, '11 characters'],
    ['no channel id', { videos: [video({ channelId: undefined })] }, 'the channelId undefined must be UC and 22 characters'],
    ['a malformed channel id', { videos: [video({ channelId: 'UCshort' })] }, 'the channelId "UCshort" must be UC and 22 characters'],
    [
      'two channels for one author',
      { videos: [video(), video({ id: 'VFtest00002', channelId: 'UCauthorA111111111111111' })] },
      'videos[1] (VFtest00002): the author "A" already has the channel UCauthorA000000000000000',
    ],
    [
      'two authors on one channel',
      { videos: [video(), video({ id: 'VFtest00002', author: 'B' })] },
      'the channel UCauthorA000000000000000 already belongs to the author "A"',
    ],
    ['a negative duration', { videos: [video({ durationSeconds: -1 })] }, 'durationSeconds'],
    ['embeddable that is not a boolean', { videos: [video({ embeddable: 'no' })] }, 'embeddable must be true or false'],
    ['no renditions', { videos: [video({ renditions: [] })] }, 'no renditions'],
    ['a stale byte count', { videos: [video({ renditions: [{ ...rendition, bytes: 2 }] })] }, 'bytes is 2 but videos/a.webm has 1 bytes'],
    ['a bad size', { videos: [video({ renditions: [{ ...rendition, width: 0 }] })] }, 'width and height'],
    ['a quality twice', { videos: [video({ renditions: [rendition, rendition] })] }, 'duplicate quality small'],
    ['an absolute file path', { videos: [video({ renditions: [{ ...rendition, file: '/etc/passwd' }] })] }, 'relative to the media folder'],
    ['a folder named as a file', { videos: [video({ renditions: [{ ...rendition, file: 'videos' }] })] }, 'does not exist'],
    ['a missing poster', { videos: [video({ poster: 'videos/poster.jpg' })] }, 'videos[0] (VFtest00001).poster: the file videos/poster.jpg does not exist'],
    [
      'a missing caption file',
      { videos: [video({ captions: [{ languageCode: 'en', languageName: 'English', file: 'videos/en.vtt' }] })] },
      'captions[0]: the file videos/en.vtt does not exist',
    ],
    [
      'a bad language code',
      { videos: [video({ captions: [{ languageCode: 'english!', languageName: 'English', file: 'videos/a.webm' }] })] },
      'not a BCP 47 code',
    ],
    ['a language twice', { videos: [video({ captions: [track, track] })] }, 'duplicate language en'],
    ['playlists that are not a list', { videos: [video()], playlists: {} }, '"playlists" must be a list'],
    ['a bad playlist id', { videos: [video()], playlists: [{ id: 'PL x', title: 'x', videoIds: ['VFtest00001'] }] }, 'playlists[0] (PL x): the id'],
    ['a duplicate playlist id', { videos: [video()], playlists: [playlist, playlist] }, 'playlists[1] (PLx): duplicate id'],
    ['an empty playlist', { videos: [video()], playlists: [{ ...playlist, videoIds: [] }] }, 'videoIds is empty'],
  ])('%s', (_name, content, message) => {
    if (content !== null) write(content);
    expect(() => loadCatalog(dir)).toThrow(message);
  });
});
