/**
 * What ffprobe says about a source, read into the facts ingest needs, or the reason the source is refused. Pure: the
 * probe's JSON, its error text and the file's first bytes come in as parameters.
 */
import { EXIT, IngestError } from './ingestErrors';
import { MAX_SOURCE_BYTES, MAX_SOURCE_HEIGHT, MAX_SOURCE_SECONDS, MAX_SOURCE_WIDTH } from './ladder';

/** The facts about a source that shape its ladder. */
export interface SourceInfo {
  durationSeconds: number;
  /** The frame size as displayed (rotation applied). */
  width: number;
  height: number;
  /** Width over height as displayed (sample aspect ratio applied). */
  displayAspect: number;
  /** The stated frame rate (`30000/1001`), when there is one. */
  frameRate?: string;
  hasAudio: boolean;
}

/** The arguments of the one ffprobe run that reads a source. */
export const probeArgs = (file: string): string[] => ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', file];

interface ProbeStream {
  codec_type?: string;
  duration?: string;
  width?: number;
  height?: number;
  sample_aspect_ratio?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  disposition?: { attached_pic?: number };
  side_data_list?: { rotation?: number }[];
  tags?: { rotate?: string };
}

interface ProbeJson {
  streams?: ProbeStream[];
  format?: { format_name?: string; duration?: string };
}

/**
 * `true` when the bytes start like a media container (MP4/MOV, Matroska/WebM, AVI/WAV, Ogg, FLV, MPEG-TS, MPEG-PS,
 * ASF): a file that does but cannot be read is damaged, one that does not is not media at all.
 */
export function looksLikeMedia(head: Uint8Array): boolean {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  return (
    ['ftyp', 'moov', 'mdat', 'free', 'wide', 'skip'].includes(ascii(4, 8)) ||
    starts(0x1a, 0x45, 0xdf, 0xa3) ||
    ascii(0, 4) === 'RIFF' ||
    ascii(0, 4) === 'OggS' ||
    ascii(0, 3) === 'FLV' ||
    (head[0] === 0x47 && (head.length < 189 || head[188] === 0x47)) ||
    starts(0x00, 0x00, 0x01, 0xba) ||
    starts(0x30, 0x26, 0xb2, 0x75)
  );
}

/** The checks that need only the file's size (before ffprobe runs). */
export function checkSourceBytes(bytes: number, maxBytes = MAX_SOURCE_BYTES): void {
  if (bytes === 0) throw new IngestError(EXIT.ZERO_LENGTH, 'the source is empty (zero bytes)');
  if (bytes > maxBytes) {
    throw new IngestError(EXIT.TOO_LARGE, `the source is ${bytes} bytes, over the limit of ${maxBytes} bytes (MAX_SOURCE_BYTES)`);
  }
}

/** A failed probe: a damaged container when the bytes look like media, else not media at all. */
export function probeFailure(errorText: string, head: Uint8Array): IngestError {
  const reason = errorText.trim().split('\n').pop()?.trim() || 'ffprobe could not read it';
  return looksLikeMedia(head)
    ? new IngestError(EXIT.CORRUPT, `the source is a damaged media file: ${reason}`)
    : new IngestError(EXIT.NOT_A_VIDEO, `the source is not a video: ${reason}`);
}

const ratio = (text: string | undefined): number => {
  const [a, b] = (text ?? '').split(':').map(Number);
  return a && b && Number.isFinite(a / b) ? a / b : 1;
};

const rotationOf = (s: ProbeStream): number => {
  const fromSideData = s.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation;
  return Math.abs(fromSideData ?? Number(s.tags?.rotate ?? 0)) % 180;
};

/** Reads ffprobe's JSON into {@link SourceInfo}, or throws the {@link IngestError} that refuses the source. */
export function readProbe(json: string): SourceInfo {
  let probe: ProbeJson;
  try {
    probe = JSON.parse(json) as ProbeJson;
  } catch {
    throw new IngestError(EXIT.CORRUPT, 'ffprobe gave no readable answer for the source');
  }
  const streams = probe.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
  const hasAudio = streams.some((s) => s.codec_type === 'audio');
  // The video's own duration when the container states it (audio often runs a few milliseconds past it), else the file's.
  const videoDuration = Number(video?.duration ?? NaN);
  const duration = videoDuration > 0 ? videoDuration : Number(probe.format?.duration ?? NaN);
  const formatName = probe.format?.format_name ?? '';
  if (!video && !hasAudio && !(duration > 0)) throw new IngestError(EXIT.ZERO_LENGTH, 'the source holds no media (zero length)');
  if (!video && hasAudio) throw new IngestError(EXIT.AUDIO_ONLY, 'the source is audio only: it has no video stream');
  if (!video) throw new IngestError(EXIT.NOT_A_VIDEO, 'the source is not a video: it has no video stream');
  if (/^image2$|_pipe$/.test(formatName)) throw new IngestError(EXIT.NOT_A_VIDEO, `the source is a still image (${formatName}), not a video`);
  if (!Number.isFinite(duration) || duration <= 0) throw new IngestError(EXIT.ZERO_LENGTH, 'the source has no duration (zero length)');
  if (duration > MAX_SOURCE_SECONDS) {
    throw new IngestError(EXIT.TOO_LARGE, `the source is ${Math.round(duration)} s long, over the limit of ${MAX_SOURCE_SECONDS} s (MAX_SOURCE_SECONDS)`);
  }
  const coded = { width: video.width ?? 0, height: video.height ?? 0 };
  if (!(coded.width > 0 && coded.height > 0)) throw new IngestError(EXIT.CORRUPT, 'the source’s video has no frame size');
  if (coded.width > MAX_SOURCE_WIDTH || coded.height > MAX_SOURCE_HEIGHT) {
    throw new IngestError(
      EXIT.TOO_LARGE,
      `the source's frames are ${coded.width}×${coded.height}, over the limit of ${MAX_SOURCE_WIDTH}×${MAX_SOURCE_HEIGHT} (MAX_SOURCE_WIDTH, MAX_SOURCE_HEIGHT)`,
    );
  }
  const rotated = rotationOf(video) === 90;
  const sar = ratio(video.sample_aspect_ratio);
  const width = Math.round((rotated ? coded.height : coded.width) * (rotated ? 1 : sar));
  const height = rotated ? Math.round(coded.width * sar) : coded.height;
  const frameRate = [video.avg_frame_rate, video.r_frame_rate].find((r) => r && r !== '0/0');
  return { durationSeconds: Math.round(duration * 1000) / 1000, width, height, displayAspect: width / height, ...(frameRate && { frameRate }), hasAudio };
}
