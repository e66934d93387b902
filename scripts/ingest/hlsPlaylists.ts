/**
 * The HLS side of the H.264 ladder, for browsers that play HLS natively: ffmpeg's media playlists over the same fMP4
 * segments as the DASH manifest, made reproducible, and a master playlist written from what was measured. Pure.
 */
import type { EntryFormat } from './buildEntry';

/**
 * A media playlist as ingest keeps it: without `#EXT-X-PROGRAM-DATE-TIME` (ffmpeg stamps the wall clock of the encode:
 * meaningless for a video on demand, and it would make every run's bytes differ), and marked `VOD`.
 */
export function tidyMediaPlaylist(text: string): string {
  const lines = text.split('\n').filter((line) => !line.startsWith('#EXT-X-PROGRAM-DATE-TIME'));
  if (!lines.some((l) => l.startsWith('#EXT-X-PLAYLIST-TYPE'))) {
    const at = lines.findIndex((l) => l.startsWith('#EXT-X-TARGETDURATION'));
    lines.splice(at < 0 ? 1 : at + 1, 0, '#EXT-X-PLAYLIST-TYPE:VOD');
  }
  return lines.join('\n');
}

/** The highest rate of any one segment (bits per second over its nominal duration). */
export const peakBitrate = (f: EntryFormat): number => Math.round((Math.max(...f.segmentBytes) * 8) / f.segmentSeconds);

const codecsOf = (f: EntryFormat): string => /codecs="([^"]*)"/.exec(f.mimeType)?.[1] ?? '';

/**
 * The master playlist: one variant per video rendition (lowest first) with its peak and average bandwidth, audio
 * included, its resolution, frame rate and codecs, all sharing the one audio rendition. `playlistOf` names each
 * format's media playlist (`media_<n>.m3u8`).
 */
export function masterPlaylist(videos: readonly EntryFormat[], audio: EntryFormat, frameRate: number, playlistOf: (f: EntryFormat) => string): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS'];
  lines.push(`#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="audio",NAME="audio",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="${playlistOf(audio)}"`);
  for (const v of videos) {
    const attrs = [
      `BANDWIDTH=${peakBitrate(v) + peakBitrate(audio)}`,
      `AVERAGE-BANDWIDTH=${v.bitrate + audio.bitrate}`,
      `RESOLUTION=${v.width}x${v.height}`,
      `FRAME-RATE=${frameRate.toFixed(3)}`,
      `CODECS="${codecsOf(v)},${codecsOf(audio)}"`,
      'AUDIO="audio"',
    ];
    lines.push(`#EXT-X-STREAM-INF:${attrs.join(',')}`, playlistOf(v));
  }
  return `${lines.join('\n')}\n`;
}
