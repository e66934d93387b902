import {
  chooseLadder,
  gopFrames,
  INGEST_SEGMENT_MAX_SECONDS,
  INGEST_SEGMENT_SECONDS,
  LADDER,
  outputFrameRate,
  posterSeconds,
  progressiveSize,
  snapAspect,
} from '../../../scripts/ingest/ladder';
import { decodeCheckArgs, ladderArgs, ladderFilter, progressiveArgs, storyboardArgs, type EncodeJob } from '../../../scripts/ingest/ffmpegArgs';

const wide = 16 / 9;
const rungsOf = (height: number, aspect = wide) => chooseLadder(height, aspect).map((r) => [r.quality, r.width, r.height]);

describe('chooseLadder', () => {
  it('gives a 1080p source all six rungs, 144p to 1080p, widths keeping 16:9 in even numbers', () => {
    expect(rungsOf(1080)).toEqual([
      ['tiny', 256, 144],
      ['small', 426, 240],
      ['medium', 640, 360],
      ['large', 854, 480],
      ['hd720', 1280, 720],
      ['hd1080', 1920, 1080],
    ]);
  });

  it('gives a 360p source three rungs, a 4K source six (capped at 1080p), a 500-line one four', () => {
    expect(rungsOf(360).map(([q]) => q)).toEqual(['tiny', 'small', 'medium']);
    expect(rungsOf(2160)).toEqual(rungsOf(1080));
    expect(rungsOf(500).map(([q]) => q)).toEqual(['tiny', 'small', 'medium', 'large']);
  });

  it('gives a source below 144 lines the 144p rung, and keeps other aspects (4:3, portrait) in even widths', () => {
    expect(rungsOf(100)).toEqual([['tiny', 256, 144]]);
    expect(rungsOf(240, 4 / 3)).toEqual([
      ['tiny', 192, 144],
      ['small', 320, 240],
    ]);
    expect(rungsOf(1920, 9 / 16).at(-1)).toEqual(['hd1080', 608, 1080]);
    for (const r of chooseLadder(1080, 2.39)) expect(r.width % 2).toBe(0);
    // An 854×480 source is 16:9: its rungs are the 16:9 ones.
    expect(rungsOf(480, 854 / 480)).toEqual(rungsOf(480));
  });

  it('snaps a display aspect ratio within 1% of a usual one to it, else to the nearest small fraction', () => {
    expect(snapAspect(854 / 480)).toEqual({ num: 16, den: 9, value: 16 / 9 });
    expect(snapAspect(720 / 576)).toEqual({ num: 5, den: 4, value: 5 / 4 });
    expect(snapAspect(1.43)).toEqual({ num: 143, den: 100, value: 1.43 });
    expect(snapAspect(2.0)).toEqual({ num: 2, den: 1, value: 2 });
  });

  it('keeps the contract: bit rates rising with the height, H.264 above VP9, segments of 2 s and never over 4 s', () => {
    for (let i = 1; i < LADDER.length; i++) expect(LADDER[i].h264Kbps).toBeGreaterThan(LADDER[i - 1].h264Kbps);
    for (const r of LADDER) expect(r.h264Kbps).toBeGreaterThan(r.vp9Kbps);
    expect(INGEST_SEGMENT_SECONDS).toBe(2);
    expect(INGEST_SEGMENT_SECONDS).toBeLessThanOrEqual(INGEST_SEGMENT_MAX_SECONDS);
  });
});

describe('the other sizes and moments', () => {
  it('makes the progressive file 360p, or the source height when lower', () => {
    expect(progressiveSize(1080, wide)).toEqual({ width: 640, height: 360, quality: 'medium' });
    expect(progressiveSize(240, 4 / 3)).toEqual({ width: 320, height: 240, quality: 'small' });
    expect(progressiveSize(300, wide)).toEqual({ width: 534, height: 300, quality: 'small' });
  });

  it('takes the poster at 10% of a video of 20 s or more, else at 2 s, or the middle of a very short one', () => {
    expect(posterSeconds(100)).toBe(10);
    expect(posterSeconds(24)).toBe(2.4);
    expect(posterSeconds(10)).toBe(2);
    expect(posterSeconds(3)).toBe(1.5);
  });

  it('keeps a sane frame rate as its exact fraction, halves one over 60, and falls back to 25', () => {
    expect(outputFrameRate('30000/1001')).toEqual({ text: '30000/1001', value: 30000 / 1001 });
    expect(outputFrameRate('25/1')).toEqual({ text: '25', value: 25 });
    expect(outputFrameRate('120/1')).toEqual({ text: '60', value: 60 });
    expect(outputFrameRate('0/0')).toEqual({ text: '25', value: 25 });
    expect(outputFrameRate(undefined)).toEqual({ text: '25', value: 25 });
    expect(gopFrames(25)).toBe(50);
    expect(gopFrames(30000 / 1001)).toBe(60);
  });
});

describe('the ffmpeg command lines', () => {
  const job: EncodeJob = {
    source: '/in/src.mp4',
    frameRate: { text: '25', value: 25 },
    gop: 50,
    aspect: { num: 4, den: 3 },
    durationSeconds: 5,
    hasAudio: true,
    preset: 'normal',
    threads: 1,
  };
  const rungs = chooseLadder(240, 4 / 3);
  const valueAfter = (args: string[], flag: string) => args[args.indexOf(flag) + 1];

  it('splits the source once per rung, each scaled to its size', () => {
    expect(ladderFilter(job, rungs)).toBe(
      '[0:v:0]fps=25,format=yuv420p,split=2[s0][s1];[s0]scale=192:144:flags=bicubic,setdar=4/3[v0];[s1]scale=320:240:flags=bicubic,setdar=4/3[v1]',
    );
  });

  it('forces a keyframe at every segment boundary, a fixed GOP and no scene cuts, in both families', () => {
    for (const family of ['h264', 'vp9'] as const) {
      const args = ladderArgs(job, family, rungs, '/out/manifest.mpd');
      expect(valueAfter(args, '-force_key_frames')).toBe('expr:gte(t,n_forced*2)');
      expect(valueAfter(args, '-g')).toBe('50');
      expect(valueAfter(args, '-keyint_min')).toBe('50');
      expect(valueAfter(args, '-seg_duration')).toBe('2');
      expect(valueAfter(args, '-f')).toBe('dash');
      expect(valueAfter(args, '-adaptation_sets')).toBe('id=0,streams=v id=1,streams=a');
      expect(args).toEqual(expect.arrayContaining(['-fflags', '+bitexact', '-threads', '1']));
      expect(args.at(-1)).toBe('/out/manifest.mpd');
    }
    const h264 = ladderArgs(job, 'h264', rungs, '/out/manifest.mpd');
    expect(valueAfter(h264, '-sc_threshold')).toBe('0');
    expect(valueAfter(h264, '-hls_playlist')).toBe('1');
    expect(valueAfter(h264, '-maxrate:v:1')).toBe('250k');
    expect(valueAfter(h264, '-dash_segment_type')).toBe('mp4');
    expect(valueAfter(h264, '-b:a')).toBe('128k');
    const vp9 = ladderArgs(job, 'vp9', rungs, '/out/manifest.mpd');
    expect(valueAfter(vp9, '-c:v')).toBe('libvpx-vp9');
    expect(valueAfter(vp9, '-b:v:0')).toBe('80k');
    expect(valueAfter(vp9, '-maxrate:v:1')).toBe('180k');
    expect(valueAfter(vp9, '-bufsize:v:1')).toBe('360k');
    expect(valueAfter(vp9, '-dash_segment_type')).toBe('webm');
    expect(valueAfter(vp9, '-b:a')).toBe('96k');
    expect(vp9).not.toContain('-hls_playlist');
  });

  it('uses the fastest settings for --fast, and a silent track for a source without audio', () => {
    const fast = { ...job, preset: 'fast' as const, hasAudio: false };
    expect(valueAfter(ladderArgs(fast, 'h264', rungs, 'm.mpd'), '-preset')).toBe('ultrafast');
    const vp9 = ladderArgs(fast, 'vp9', rungs, 'm.mpd');
    expect(valueAfter(vp9, '-deadline')).toBe('realtime');
    expect(valueAfter(vp9, '-cpu-used')).toBe('8');
    expect(vp9).toEqual(expect.arrayContaining(['-f', 'lavfi', '-i', 'anullsrc=channel_layout=stereo:sample_rate=48000', '-map', '1:a:0']));
  });

  it('writes the progressive file with its index up front, and counts the storyboard thumbnails', () => {
    const args = progressiveArgs(job, { width: 320, height: 240 }, 250, '/out/p.mp4');
    expect(valueAfter(args, '-movflags')).toBe('+faststart');
    expect(valueAfter(args, '-maxrate')).toBe('250k');
    const story = storyboardArgs(job, '/out/sheet-%03d.jpg', '/out/thumbs.crc');
    expect(valueAfter(story, '-filter_complex')).toContain('fps=1/2,scale=160:90');
    expect(valueAfter(story, '-filter_complex')).toContain('tile=10x10');
    expect(story.at(-1)).toBe('/out/thumbs.crc');
  });

  it('decodes three windows of the source, stopping at the first error', () => {
    const args = decodeCheckArgs('/in/src.mp4', 60);
    expect(args).toContain('-xerror');
    expect(args.filter((a, i) => args[i - 1] === '-ss')).toEqual(['0.000', '30.000', '58.000']);
  });
});
