import { checkSourceBytes, looksLikeMedia, probeFailure, readProbe } from '../../../scripts/ingest/probeSource';
import { EXIT, IngestError } from '../../../scripts/ingest/ingestErrors';
import { MAX_SOURCE_BYTES } from '../../../scripts/ingest/ladder';
import { clock, etaSeconds, formatBar, overallFraction, progressSeconds } from '../../../scripts/ingest/progress';

const video = { codec_type: 'video', width: 1920, height: 1080, avg_frame_rate: '30000/1001', disposition: { attached_pic: 0 } };
const audio = { codec_type: 'audio', disposition: { attached_pic: 0 } };
const probe = (streams: object[], format: object = { format_name: 'mov,mp4,m4a,3gp,3g2,mj2', duration: '93.5' }) => JSON.stringify({ streams, format });

/** The exit code and message `fn` throws. */
function refusal(fn: () => unknown): { code: number; message: string } {
  try {
    fn();
  } catch (e) {
    if (e instanceof IngestError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('no refusal');
}

describe('readProbe', () => {
  it('reads a video: duration, displayed size and aspect, frame rate, audio', () => {
    expect(readProbe(probe([video, audio]))).toEqual({
      durationSeconds: 93.5,
      width: 1920,
      height: 1080,
      displayAspect: 16 / 9,
      frameRate: '30000/1001',
      hasAudio: true,
    });
  });

  it('applies the sample aspect ratio and a 90° rotation (a phone video)', () => {
    expect(readProbe(probe([{ ...video, width: 720, height: 576, sample_aspect_ratio: '16:11' }]))).toMatchObject({ width: 1047, height: 576 });
    expect(readProbe(probe([{ ...video, side_data_list: [{ rotation: -90 }] }]))).toMatchObject({ width: 1080, height: 1920, hasAudio: false });
  });

  it.each([
    ['audio only', [audio], undefined, EXIT.AUDIO_ONLY, 'the source is audio only: it has no video stream'],
    ['audio with a cover picture', [audio, { ...video, disposition: { attached_pic: 1 } }], undefined, EXIT.AUDIO_ONLY, 'the source is audio only'],
    ['no streams, no duration', [], { format_name: 'mov', duration: '0.000000' }, EXIT.ZERO_LENGTH, 'the source holds no media (zero length)'],
    ['a video without duration', [video], { format_name: 'matroska,webm' }, EXIT.ZERO_LENGTH, 'the source has no duration (zero length)'],
    ['a still image', [video], { format_name: 'png_pipe' }, EXIT.NOT_A_VIDEO, 'the source is a still image (png_pipe), not a video'],
    ['a data stream only', [{ codec_type: 'data' }], { format_name: 'mpegts', duration: '5' }, EXIT.NOT_A_VIDEO, 'the source is not a video'],
    [
      'over 4 h',
      [video],
      { format_name: 'mov', duration: '30000' },
      EXIT.TOO_LARGE,
      'the source is 30000 s long, over the limit of 14400 s (MAX_SOURCE_SECONDS)',
    ],
    ['over 8K', [{ ...video, width: 8192, height: 4320 }], undefined, EXIT.TOO_LARGE, "the source's frames are 8192×4320, over the limit of 7680×4320"],
    ['no frame size', [{ ...video, width: 0 }], undefined, EXIT.CORRUPT, 'the source’s video has no frame size'],
  ])('refuses %s', (_name, streams, format, code, message) => {
    const result = refusal(() => readProbe(probe(streams, format)));
    expect(result.code).toBe(code);
    expect(result.message).toContain(message);
  });

  it('refuses an answer that is not JSON as corrupt', () => {
    expect(refusal(() => readProbe('garbage')).code).toBe(EXIT.CORRUPT);
  });
});

describe('the checks before ffprobe and after it fails', () => {
  it('refuses an empty file and one over the byte limit', () => {
    expect(refusal(() => checkSourceBytes(0))).toEqual({ code: EXIT.ZERO_LENGTH, message: 'the source is empty (zero bytes)' });
    expect(refusal(() => checkSourceBytes(MAX_SOURCE_BYTES + 1)).code).toBe(EXIT.TOO_LARGE);
    expect(() => checkSourceBytes(MAX_SOURCE_BYTES)).not.toThrow();
  });

  it('tells a damaged media file (a known container signature) from something that is not media', () => {
    const mp4 = Buffer.from('0000001866747970', 'hex'); // size, 'ftyp'
    const webm = Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x01]);
    expect(looksLikeMedia(mp4)).toBe(true);
    expect(looksLikeMedia(webm)).toBe(true);
    expect(looksLikeMedia(Buffer.from('hello world, this is text'))).toBe(false);
    const failed = 'moov atom not found\nx.mp4: Invalid data found when processing input\n';
    expect(probeFailure(failed, mp4)).toMatchObject({
      code: EXIT.CORRUPT,
      message: 'the source is a damaged media file: x.mp4: Invalid data found when processing input',
    });
    expect(probeFailure(failed, Buffer.from('hello'))).toMatchObject({
      code: EXIT.NOT_A_VIDEO,
      message: expect.stringMatching(/^the source is not a video: /),
    });
  });
});

describe('progress', () => {
  it("reads ffmpeg's -progress lines into seconds done", () => {
    expect(progressSeconds('out_time_us=2500000')).toBe(2.5);
    expect(progressSeconds('out_time_ms=2500000')).toBe(2.5);
    expect(progressSeconds('frame=12')).toBeUndefined();
  });

  it('weighs the steps into one fraction, and estimates the time left', () => {
    const steps = [
      { label: 'a', weight: 1 },
      { label: 'b', weight: 3 },
    ];
    expect(overallFraction(steps, 0, 1)).toBe(0.25);
    expect(overallFraction(steps, 1, 0.5)).toBe(0.625);
    expect(overallFraction(steps, 1, 7)).toBe(1);
    expect(etaSeconds(10_000, 0.25)).toBe(30);
    expect(etaSeconds(10_000, 0.001)).toBeUndefined();
    expect(clock(3725)).toBe('1:02:05');
    expect(clock(31)).toBe('0:31');
  });

  it('draws the bar with the percent, the step and the ETA, within the width', () => {
    const line = formatBar({ fraction: 0.42, label: 'VP9 ladder', step: 3, steps: 6, elapsedMs: 42_000 }, 80);
    expect(line).toMatch(/^\[#+·+\] {3}42% {2}3\/6 VP9 ladder {2}ETA 0:58$/);
    expect(line.length).toBeLessThanOrEqual(80);
    expect(formatBar({ fraction: 0, label: 'x'.repeat(200), step: 1, steps: 6, elapsedMs: 0 }, 60).length).toBeLessThan(60);
  });
});
