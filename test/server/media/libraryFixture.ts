import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * A small fake library entry, as the ingest writes one (docs/adaptive-streaming.md): files of made-up bytes under
 * `videos/<id>/<version>/`, and the entry that names them. The server checks sizes and presence, never the bytes.
 */

export type LibraryEntryJson = Record<string, unknown> & { id: string; adaptive: Record<string, unknown> & { formats: Array<Record<string, unknown>> } };

/** Writes `bytes` made-up bytes (their value is `fill`) to `file` inside `dir`. */
function writeBytes(dir: string, file: string, bytes: number, fill = 0x41): void {
  mkdirSync(dirname(join(dir, file)), { recursive: true });
  writeFileSync(join(dir, file), Buffer.alloc(bytes, fill));
}

/** Sizes of the segments of format `n`: different per segment and per format, so a mix-up shows. */
const sizesOf = (n: number, segments: number): number[] => Array.from({ length: segments }, (_, k) => 100 + 10 * n + k);

/**
 * Writes the files of one video into `libraryDir` and returns its entry (not yet written: {@link writeEntry}). An H.264
 * family (two video renditions and one audio, fMP4, `$Number%05d$`) and a VP9 family (one of each, WebM, `$Number$`).
 */
export function writeLibraryVideo(libraryDir: string, id: string, { version = 'v1', title = 'A library video', segments = 3 } = {}): LibraryEntryJson {
  const base = `videos/${id}/${version}`;
  const file = (name: string, bytes: number) => {
    writeBytes(libraryDir, `${base}/${name}`, bytes);
    return `${base}/${name}`;
  };
  const format = (n: number, over: Record<string, unknown>, family: 'h264' | 'vp9') => {
    const ext = family === 'h264' ? 'm4s' : 'webm';
    const template = family === 'h264' ? `${base}/h264/seg-${n}-$Number%05d$.m4s` : `${base}/vp9/seg-${n}-$Number$.webm`;
    const sizes = sizesOf(n, segments);
    sizes.forEach((size, k) => writeBytes(libraryDir, template.replace(/\$Number(%05d)?\$/, (_t, pad?: string) => String(k + 1).padStart(pad ? 5 : 0, '0')), size));
    return {
      ...over,
      init: file(`${family}/init-${n}.${ext}`, 20 + n),
      segments: template,
      startNumber: 1,
      segmentSeconds: 2,
      segmentBytes: sizes,
    };
  };
  const h264 = (kind: 'video' | 'audio') => (kind === 'video' ? 'video/mp4; codecs="avc1.4d401e"' : 'audio/mp4; codecs="mp4a.40.2"');
  const vp9 = (kind: 'video' | 'audio') => (kind === 'video' ? 'video/webm; codecs="vp09.00.10.08"' : 'audio/webm; codecs="opus"');
  return {
    id,
    title,
    author: 'Library Author',
    channelId: 'UClibraryAuthor000000000',
    durationSeconds: 2 * segments - 0.5,
    embeddable: true,
    poster: file('poster.jpg', 64),
    renditions: [{ quality: 'medium', width: 640, height: 360, file: file('progressive.mp4', 300), mimeType: 'video/mp4; codecs="avc1.4d401e, mp4a.40.2"', bytes: 300 }],
    captions: [],
    adaptive: {
      segmentSeconds: 2,
      dash: { h264: file('h264/manifest.mpd', 40), vp9: file('vp9/manifest.mpd', 41) },
      hls: file('h264/master.m3u8', 42),
      formats: [
        format(0, { kind: 'video', quality: 'tiny', width: 256, height: 144, bitrate: 104_000, mimeType: h264('video') }, 'h264'),
        format(1, { kind: 'video', quality: 'medium', width: 640, height: 360, bitrate: 480_000, mimeType: h264('video') }, 'h264'),
        format(2, { kind: 'audio', bitrate: 128_000, mimeType: h264('audio') }, 'h264'),
        format(3, { kind: 'video', quality: 'tiny', width: 256, height: 144, bitrate: 80_000, mimeType: vp9('video') }, 'vp9'),
        format(4, { kind: 'audio', bitrate: 96_000, mimeType: vp9('audio') }, 'vp9'),
      ],
    },
    storyboard: {
      sheets: [file('storyboard/sheet-000.jpg', 50), file('storyboard/sheet-001.jpg', 51)],
      intervalSeconds: 2,
      columns: 2,
      rows: 1,
      thumbWidth: 160,
      thumbHeight: 90,
      count: 3,
    },
  };
}

/** Writes an entry as the ingest does: to a temporary name, then renamed into `entries/<name>` in one step. */
export function writeEntry(libraryDir: string, entry: unknown, name = `${(entry as { id: string }).id}.json`): void {
  mkdirSync(join(libraryDir, 'entries'), { recursive: true });
  const temporary = join(libraryDir, 'entries', `.${name}.${process.pid}.tmp`);
  writeFileSync(temporary, typeof entry === 'string' ? entry : JSON.stringify(entry));
  renameSync(temporary, join(libraryDir, 'entries', name));
}
