import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { findPlaylist, findVideo, loadCatalog, type Catalog } from '../../server/catalog';

const mediaDir = resolve(__dirname, '../../media');

describe('the sample catalogue (media/catalog.json)', () => {
  const catalog = loadCatalog(mediaDir);

  it('holds the three playable videos, the broken one, the non-embeddable one and the demo playlist', () => {
    expect(catalog.videos.map((v) => v.id).sort()).toEqual(['VFbrokenvid', 'VFcitylight', 'VFnoembed01', 'VFoceanwave', 'VFsunrise01']);
    expect(findVideo(catalog, 'VFnoembed01')!.embeddable).toBe(false);
    expect(findPlaylist(catalog, 'PLvfDemoPlaylist01')!.videoIds).toEqual(['VFsunrise01', 'VFcitylight', 'VFoceanwave']);
    expect(findVideo(catalog, 'VFsunrise01')!.captions.map((c) => c.languageCode)).toEqual(['en', 'es']);
  });

  it('names files that exist, with the sizes it states, in at least two qualities, WebM VP9/Opus', () => {
    for (const video of catalog.videos) {
      expect(video.renditions.map((r) => r.quality)).toEqual(expect.arrayContaining(['small', 'medium']));
      for (const r of video.renditions) {
        expect(statSync(join(mediaDir, r.file)).size).toBe(r.bytes);
        expect(r.mimeType).toContain('vp9');
        expect(r.bytes).toBeLessThan(600_000); // a few hundred KB each
      }
    }
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
    durationSeconds: 1,
    renditions: [{ quality: 'small', width: 1, height: 1, file: 'videos/a.webm', mimeType: 'video/webm', bytes: 1 }],
    ...over,
  });
  const write = (c: unknown) => writeFileSync(join(dir, 'catalog.json'), typeof c === 'string' ? c : JSON.stringify(c));

  it('accepts a minimal good one', () => {
    write({ videos: [video()] });
    const c: Catalog = loadCatalog(dir);
    expect(c.videos[0]).toMatchObject({ id: 'VFtest00001', embeddable: true, captions: [] });
    expect(c.playlists).toEqual([]);
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
    ['a playlist with an unknown video', { videos: [video()], playlists: [{ id: 'PLx', title: 'x', videoIds: ['VFnothere01'] }] }, 'unknown video VFnothere01'],
  ])('%s', (_name, content, message) => {
    if (content !== null) write(content);
    expect(() => loadCatalog(dir)).toThrow(message);
  });
});
