import type { AdaptiveFormat } from '../../../../streams/config/streamingData';
import { bufferAhead, codecOnScreen, formatBitrate, statsRows } from '../../../../src/embed/views/StatsPanel.state';
import { NO_STREAM_STATS } from '../../../../streams/player/streamStats';

const rung = (quality: string, width: number, height: number, mimeType: string): AdaptiveFormat => ({
  kind: 'video',
  quality,
  width,
  height,
  bitrate: height * 1000,
  mimeType,
  initUrl: '/i',
  segmentUrl: '/s',
  startNumber: 1,
  segmentSeconds: 2,
  segmentBytes: [1],
});
const AVC = 'video/mp4; codecs="avc1.4d401e"';
const VP9 = 'video/webm; codecs="vp9"';
const ladder = [rung('small', 426, 240, VP9), rung('small', 426, 240, AVC), rung('large', 854, 480, VP9), rung('large', 854, 480, AVC)];

describe('StatsPanel view-model', () => {
  it('buffer health is the seconds buffered ahead of the time, in the range that holds it', () => {
    expect(
      bufferAhead(
        [
          [0, 4],
          [6, 12],
        ],
        7.5,
      ),
    ).toBe(4.5);
    expect(bufferAhead([[0, 4]], 5)).toBe(0);
    expect(bufferAhead([], 0)).toBe(0);
  });

  it('the codec is the type the stream decided for the quality on screen, else the ladder’s first of that quality', () => {
    const stream = { ...NO_STREAM_STATS, mimeTypes: { large: AVC } };
    expect(codecOnScreen(ladder, stream, 'large')).toBe(AVC);
    expect(codecOnScreen(ladder, stream, 'small')).toBe(VP9);
    expect(codecOnScreen(ladder, stream, 'unknown')).toBeNull();
    expect(codecOnScreen([], NO_STREAM_STATS, 'large')).toBeNull();
  });

  it('bitrates read in Kbps below a megabit, in Mbps above', () => {
    expect([formatBitrate(850_400), formatBitrate(4_240_000)]).toEqual(['850 Kbps', '4.2 Mbps']);
  });

  it('lists the id, current and optimal resolution, codec, speed, buffer and frames', () => {
    const rows = statsRows({
      videoId: 'VFladder001',
      quality: 'small',
      ladder,
      stream: { estimateBps: 1_500_000, optimalQuality: 'large', mimeTypes: { small: AVC, large: AVC } },
      currentTime: 3,
      buffered: [[0, 9.5]],
      element: { videoWidth: 426, videoHeight: 240, frames: { dropped: 2, total: 300 } },
    });
    expect(rows).toEqual([
      { label: 'Video ID', value: 'VFladder001' },
      { label: 'Current Res', value: '426×240 (240p)' },
      { label: 'Optimal Res', value: '854×480 (480p)' },
      { label: 'Codecs', value: AVC },
      { label: 'Connection Speed', value: '1.5 Mbps' },
      { label: 'Buffer Health', value: '6.50 s' },
      { label: 'Dropped Frames', value: '2 dropped of 300' },
    ]);
  });

  it('says — for what is not known yet', () => {
    const rows = statsRows({
      videoId: '',
      quality: 'unknown',
      ladder: [],
      stream: NO_STREAM_STATS,
      currentTime: 0,
      buffered: [],
      element: { videoWidth: 0, videoHeight: 0, frames: null },
    });
    expect(rows.map((r) => r.value)).toEqual(['—', '— (—)', '—', '—', '—', '0.00 s', '—']);
  });
});
