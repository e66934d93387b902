import type { AdaptiveFormat } from '../../../streams/config/playerConfig';
import { capIndexFor, chooseFamily, codecFamilies } from '../../../streams/mse/adaptiveLadder';
import { renditionOfHeight } from '../../../streams/player/playerModel';
import { segmentIndexAt, segmentUrl } from '../../../streams/mse/segments';

const video = (quality: string, height: number, bitrate: number, container = 'mp4'): AdaptiveFormat => ({
  kind: 'video',
  quality,
  width: Math.round((height * 16) / 9),
  height,
  bitrate,
  mimeType: `video/${container}; codecs="${container === 'mp4' ? 'avc1.4d401e' : 'vp9'}"`,
  initUrl: `/l/${container}/${quality}/init`,
  segmentUrl: `/l/${container}/${quality}/seg-$Number$`,
  startNumber: 1,
  segmentSeconds: 2,
  segmentBytes: [100, 100, 100, 50],
});
const audio = (container: string): AdaptiveFormat => ({ ...video('', 0, 128_000, container), kind: 'audio', mimeType: `audio/${container}; codecs="x"` });

describe('segments', () => {
  it('expands $Number$, $Number%05d$ and $$ as a DASH SegmentTemplate does', () => {
    const f = video('tiny', 144, 1);
    expect(segmentUrl(f, 0)).toBe('/l/mp4/tiny/seg-1');
    expect(segmentUrl({ ...f, segmentUrl: '/a/seg-$Number%05d$.m4s?x=$$', startNumber: 0 }, 41)).toBe('/a/seg-00041.m4s?x=$');
  });

  it('finds the segment of a time: a boundary belongs to the segment it starts, the end to the last one', () => {
    const f = video('tiny', 144, 1);
    expect([0, 1.99, 2, 3.99995, 7.9, 100].map((t) => segmentIndexAt(f, t))).toEqual([0, 0, 1, 2, 3, 3]);
  });
});

describe('adaptiveLadder', () => {
  const ladder = [video('hd720', 720, 1_800_000), video('tiny', 144, 110_000), video('medium', 360, 500_000), audio('mp4')];
  const webm = [video('tiny', 144, 80_000, 'webm'), video('hd720', 720, 1_300_000, 'webm'), audio('webm')];

  it('groups formats by container, renditions lowest first, and leaves out a container without audio', () => {
    const families = codecFamilies([...ladder, ...webm, video('large', 480, 1, 'ogg')]);
    expect(families.map((f) => [f.container, f.video.map((v) => v.quality), f.audio.kind])).toEqual([
      ['mp4', ['tiny', 'medium', 'hd720'], 'audio'],
      ['webm', ['tiny', 'hd720'], 'audio'],
    ]);
  });

  it('prefers the family that decodes smoothly and power-efficiently, then the smaller one, and drops what does not decode', () => {
    const families = codecFamilies([...ladder, ...webm]);
    const all = { supported: true, smooth: true, powerEfficient: true };
    expect(chooseFamily(families, () => all)?.container).toBe('webm');
    const vp9Slow = (f: AdaptiveFormat) => (f.mimeType.includes('webm') ? { ...all, powerEfficient: false } : all);
    expect(chooseFamily(families, vp9Slow)?.container).toBe('mp4');
    const no720 = (f: AdaptiveFormat) => ({ ...all, supported: f.quality !== 'hd720' });
    expect(chooseFamily(families, no720)?.video.map((v) => v.quality)).toEqual(['tiny']);
    expect(chooseFamily(families, () => ({ ...all, supported: false }))).toBeUndefined();
  });

  it('caps at the preferred quality or the highest below it; auto caps nothing', () => {
    const v = codecFamilies(ladder)[0]?.video ?? [];
    expect(capIndexFor(v, 'medium')).toBe(1);
    expect(capIndexFor(v, 'large')).toBe(1);
    expect(capIndexFor(v, 'hd1080')).toBe(2);
    expect(capIndexFor(v, 'tiny')).toBe(0);
    expect(capIndexFor(v, 'auto')).toBeNull();
    expect(renditionOfHeight(v, 360)?.quality).toBe('medium');
    expect(renditionOfHeight(v, 700)?.quality).toBe('hd720');
  });
});
