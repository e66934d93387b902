import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CatalogEntry } from '../../../scripts/ingest/buildEntry';
import { channelIdFor } from '../../../scripts/ingest/ids';
import { readMpd, segmentFileName } from '../../../scripts/ingest/readMpd';
import { LONG_SAMPLES, SHORT_SAMPLE, sourceGraph } from '../../../scripts/ingest/samples';

/** The committed adaptive sample (`npm run media`): its entry in media/catalog.json and the files it names. */
const mediaDir = resolve(__dirname, '../../../media');
const catalog = JSON.parse(readFileSync(join(mediaDir, 'catalog.json'), 'utf8')) as { videos: CatalogEntry[] };
const entry = catalog.videos.find((v) => v.id === 'VFladder001')!;

/** Every file under a folder, with its size. */
function filesUnder(dir: string): { path: string; bytes: number }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? filesUnder(join(dir, d.name)) : [{ path: join(dir, d.name), bytes: statSync(join(dir, d.name)).size }],
  );
}

describe('the committed adaptive sample VFladder001', () => {
  it('is in the catalogue with the ladder 144p to 480p in both families, its own channel, about 20 s', () => {
    expect(entry).toMatchObject({ title: 'Adaptive ladder', author: 'VidFrame Lab', channelId: channelIdFor('VidFrame Lab'), embeddable: true });
    expect(entry.durationSeconds).toBeCloseTo(20, 0);
    const videos = (mime: string) => entry.adaptive.formats.filter((f) => f.kind === 'video' && f.mimeType.startsWith(mime));
    for (const mime of ['video/mp4', 'video/webm']) {
      expect(videos(mime).map((f) => [f.quality, f.width, f.height])).toEqual([
        ['tiny', 256, 144],
        ['small', 426, 240],
        ['medium', 640, 360],
        ['large', 854, 480],
      ]);
    }
    expect(entry.adaptive.formats.filter((f) => f.kind === 'audio').map((f) => f.mimeType)).toEqual([
      'audio/mp4; codecs="mp4a.40.2"',
      'audio/webm; codecs="opus"',
    ]);
    expect(entry.renditions).toEqual([
      expect.objectContaining({ quality: 'medium', width: 640, height: 360, mimeType: expect.stringMatching(/^video\/mp4; codecs="avc1\./) }),
    ]);
  });

  it('names files that exist with the bytes it states, the codecs its manifests state, the same segment count everywhere', () => {
    for (const f of entry.adaptive.formats) {
      f.segmentBytes.forEach((bytes, k) => expect(statSync(join(mediaDir, segmentFileName(f.segments, f.startNumber + k))).size).toBe(bytes));
      expect(f.segmentBytes).toHaveLength(10); // 20 s in segments of 2 s
      expect(existsSync(join(mediaDir, f.init))).toBe(true);
    }
    for (const mpd of Object.values(entry.adaptive.dash)) {
      const codecs = readMpd(readFileSync(join(mediaDir, mpd), 'utf8')).map((r) => r.codecs);
      const family = entry.adaptive.formats.filter((f) => f.init.startsWith(mpd.replace('manifest.mpd', '')));
      expect(family.map((f) => /codecs="([^"]+)"/.exec(f.mimeType)![1])).toEqual(codecs);
    }
    expect(statSync(join(mediaDir, entry.renditions[0].file)).size).toBe(entry.renditions[0].bytes);
    expect(existsSync(join(mediaDir, entry.adaptive.hls))).toBe(true);
    expect(existsSync(join(mediaDir, entry.poster))).toBe(true);
    expect(entry.storyboard.count).toBe(10);
    for (const sheet of entry.storyboard.sheets) expect(existsSync(join(mediaDir, sheet))).toBe(true);
  });

  it('keeps its files within 8 MB, and all of media/ within 30 MB', () => {
    const sampleBytes = filesUnder(join(mediaDir, 'videos/VFladder001')).reduce((a, f) => a + f.bytes, 0);
    const allBytes = filesUnder(mediaDir).reduce((a, f) => a + f.bytes, 0);
    expect(sampleBytes).toBeLessThanOrEqual(8 * 1000 * 1000);
    expect(allBytes).toBeLessThanOrEqual(30 * 1000 * 1000);
  });

  it('is made from one synthetic scene at 854×480 and 25 fps, 20 s long', () => {
    expect(sourceGraph(SHORT_SAMPLE)).toMatch(
      /^smptehdbars=size=854x480:rate=25,.*,trim=duration=20,format=yuv420p,setsar=1\[s0\];\[s0\]concat=n=1:v=1:a=0\[v\]$/,
    );
  });
});

describe('the long adaptive samples (npm run media -- --long)', () => {
  it('are two, 60 to 120 s long, at most 720p, still scenes alternating with noisy ones', () => {
    expect(LONG_SAMPLES.map((s) => s.id)).toEqual(['VFlongmix01', 'VFlongmix02']);
    for (const sample of LONG_SAMPLES) {
      const seconds = sample.sceneSeconds * sample.scenes.length;
      expect(seconds).toBeGreaterThanOrEqual(60);
      expect(seconds).toBeLessThanOrEqual(120);
      expect(sample.size.height).toBeLessThanOrEqual(720);
      const noisy = sample.scenes.map((scene) => scene('size=1x1:rate=25').includes(',noise='));
      expect(noisy.filter(Boolean).length).toBeGreaterThanOrEqual(2);
      expect(noisy.filter((n) => !n).length).toBeGreaterThanOrEqual(2);
      expect(sourceGraph(sample)).toContain(`concat=n=${sample.scenes.length}:v=1:a=0[v]`);
    }
  });
});
