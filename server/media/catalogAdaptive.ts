import { QUALITY_ORDER, type Quality } from '../../streams/player/playerModel';
import { type CheckFile, type Entry, type Fail, isEntry, isPositiveInteger, isPositiveNumber, isText } from './catalogChecks';

/**
 * The optional parts of a catalogue entry that an ingested video has (docs/adaptive-streaming.md, "The catalogue
 * entry"): its adaptive ladder and its seek-preview storyboard. Paths are relative to the entry's folder, as the
 * entry's other files are; the player answer turns them into root-relative URLs.
 */

/** One rendition of one track type: an initialisation file and numbered media segments of one nominal duration. */
export interface CatalogAdaptiveFormat {
  kind: 'video' | 'audio';
  /** Video only. */
  quality?: Quality;
  /** Video only. */
  width?: number;
  height?: number;
  /** Bits per second over the whole rendition. */
  bitrate: number;
  /** `video/<container>; codecs="…"` or `audio/<container>; codecs="…"`. */
  mimeType: string;
  init: string;
  /** The path of segment number k: `$Number$` is k, `$Number%05d$` is k zero-padded to five digits. */
  segments: string;
  startNumber: number;
  segmentSeconds: number;
  /** Each segment's size, in order: their count is the number of segments. */
  segmentBytes: number[];
}

export interface CatalogAdaptive {
  segmentSeconds: number;
  /** A DASH manifest per codec family (`h264`, `vp9`). */
  dash: Record<string, string>;
  /** An HLS playlist over the fMP4 segments, when the entry has one. */
  hls?: string;
  /** At least one video and one audio format in each container. */
  formats: CatalogAdaptiveFormat[];
}

export interface CatalogStoryboard {
  sheets: string[];
  intervalSeconds: number;
  columns: number;
  rows: number;
  thumbWidth: number;
  thumbHeight: number;
  /** Thumbnails over all sheets: more than fit on all sheets but the last, no more than fit on all of them. */
  count: number;
}

/** A segment is never longer than this: the ladder's promise, which the player's buffer rules build on. */
export const MAX_SEGMENT_SECONDS = 4;

/** The number placeholder of a DASH `SegmentTemplate`: `$Number$` or `$Number%0<width>d$`. */
const NUMBER_TOKEN = /\$Number(?:%0([1-9])d)?\$/;
const MIME_TYPE = /^(video|audio)\/([a-z0-9.+-]+)\s*;\s*codecs\s*=\s*"?[^"]+"?\s*$/i;
const FAMILY = /^[a-z0-9]{1,16}$/;

/** The template with its one `$Number…$` placeholder replaced by `n` (padded as the placeholder says). */
export function segmentPath(template: string, n: number): string {
  return template.replace(NUMBER_TOKEN, (_token, width?: string) => String(n).padStart(width ? Number(width) : 0, '0'));
}

/** `true` for a template with exactly one `$Number$` / `$Number%0Nd$` and no other `$`. */
export const isSegmentTemplate = (template: string): boolean => NUMBER_TOKEN.test(template) && template.replace(NUMBER_TOKEN, '').indexOf('$') < 0;

const isSegmentSeconds = (value: unknown): value is number => isPositiveNumber(value) && value <= MAX_SEGMENT_SECONDS;

/**
 * Checks an entry's `adaptive` part: a segment duration in (0, {@link MAX_SEGMENT_SECONDS}]; DASH manifests per codec
 * family (at least one) and the HLS playlist, when named, present; formats each with a kind, a quality and a size for
 * video, a positive bitrate, a `type/container; codecs="…"` type of its kind, an initialisation file, a segment
 * template, a start number, a segment duration in the same range, and the size of every segment matching its file;
 * a quality at most once per container; at least one video and one audio format in each container.
 */
export function checkAdaptive(where: string, raw: unknown, checkFile: CheckFile, fail: Fail): CatalogAdaptive {
  if (!isEntry(raw)) return fail(where, 'must be an object');
  if (!isSegmentSeconds(raw.segmentSeconds)) return fail(`${where}.segmentSeconds`, `must be a number of seconds in (0, ${MAX_SEGMENT_SECONDS}]`);
  if (!isEntry(raw.dash) || Object.keys(raw.dash).length === 0) return fail(`${where}.dash`, 'must name a DASH manifest per codec family');
  const dash: Record<string, string> = {};
  for (const [family, file] of Object.entries(raw.dash)) {
    if (!FAMILY.test(family)) return fail(`${where}.dash`, `the codec family ${JSON.stringify(family)} must be 1 to 16 lower-case letters or digits`);
    checkFile(`${where}.dash.${family}`, file);
    dash[family] = file as string;
  }
  if (raw.hls !== undefined) checkFile(`${where}.hls`, raw.hls);
  if (!Array.isArray(raw.formats) || raw.formats.length === 0) return fail(`${where}.formats`, 'must be a list of at least one video and one audio format');
  const formats = raw.formats.map((f: unknown, i: number) => checkFormat(`${where}.formats[${i}]`, f, checkFile, fail));
  const containers = new Map<string, { video: Set<string>; audio: number }>();
  formats.forEach((f, i) => {
    const container = containerOf(f.mimeType);
    const seen = containers.get(container) ?? { video: new Set<string>(), audio: 0 };
    containers.set(container, seen);
    if (f.kind === 'audio') seen.audio += 1;
    else if (seen.video.has(f.quality!)) fail(`${where}.formats[${i}]`, `duplicate quality ${f.quality} in ${container}`);
    else seen.video.add(f.quality!);
  });
  for (const [container, seen] of containers) {
    if (seen.video.size === 0 || seen.audio === 0) fail(`${where}.formats`, `the ${container} formats need at least one video and one audio format`);
  }
  return { segmentSeconds: raw.segmentSeconds, dash, ...(raw.hls !== undefined && { hls: raw.hls as string }), formats };
}

/** The container of a format's type: `mp4` for `video/mp4; codecs="…"`. */
const containerOf = (mimeType: string): string => (MIME_TYPE.exec(mimeType)?.[2] ?? '').toLowerCase();

function checkFormat(where: string, f: unknown, checkFile: CheckFile, fail: Fail): CatalogAdaptiveFormat {
  if (!isEntry(f) || (f.kind !== 'video' && f.kind !== 'audio')) return fail(where, 'kind must be video or audio');
  const kind = f.kind;
  const video = kind === 'video' ? videoFields(where, f, fail) : {};
  if (!isPositiveNumber(f.bitrate)) return fail(`${where}.bitrate`, 'must be a positive number of bits per second');
  const type = isText(f.mimeType) ? MIME_TYPE.exec(f.mimeType) : null;
  if (type?.[1]?.toLowerCase() !== kind) return fail(`${where}.mimeType`, `must be ${kind}/<container>; codecs="…", not ${JSON.stringify(f.mimeType)}`);
  checkFile(`${where}.init`, f.init);
  if (!isText(f.segments) || !isSegmentTemplate(f.segments)) {
    return fail(`${where}.segments`, `the template ${JSON.stringify(f.segments)} must hold one $Number$ or $Number%0Nd$ and no other $`);
  }
  if (!Number.isSafeInteger(f.startNumber) || (f.startNumber as number) < 0) return fail(`${where}.startNumber`, 'must be a whole number ≥ 0');
  if (!isSegmentSeconds(f.segmentSeconds)) return fail(`${where}.segmentSeconds`, `must be a number of seconds in (0, ${MAX_SEGMENT_SECONDS}]`);
  if (!Array.isArray(f.segmentBytes) || f.segmentBytes.length === 0) return fail(`${where}.segmentBytes`, 'must list the size of every segment');
  const startNumber = f.startNumber as number;
  const segmentBytes = f.segmentBytes.map((bytes: unknown, k: number) => {
    const file = segmentPath(f.segments as string, startNumber + k);
    const size = checkFile(`${where}.segmentBytes[${k}]`, file);
    if (bytes !== size) return fail(`${where}.segmentBytes[${k}]`, `is ${JSON.stringify(bytes)} but ${file} has ${size} bytes`);
    return size;
  });
  return {
    kind,
    ...video,
    bitrate: f.bitrate,
    mimeType: f.mimeType as string,
    init: f.init as string,
    segments: f.segments,
    startNumber,
    segmentSeconds: f.segmentSeconds,
    segmentBytes,
  };
}

function videoFields(where: string, f: Entry, fail: Fail): Pick<CatalogAdaptiveFormat, 'quality' | 'width' | 'height'> {
  if (typeof f.quality !== 'string' || !(QUALITY_ORDER as readonly string[]).includes(f.quality)) {
    return fail(`${where}.quality`, `unknown quality ${JSON.stringify(f.quality)} (one of ${QUALITY_ORDER.join(', ')})`);
  }
  if (!isPositiveInteger(f.width) || !isPositiveInteger(f.height)) return fail(where, 'width and height must be positive integers');
  return { quality: f.quality as Quality, width: f.width, height: f.height };
}

/**
 * Checks an entry's `storyboard`: sheets present (at least one), a positive interval, positive whole columns, rows,
 * thumbnail sizes and count, and a count the sheets hold with none of them empty.
 */
export function checkStoryboard(where: string, raw: unknown, checkFile: CheckFile, fail: Fail): CatalogStoryboard {
  if (!isEntry(raw)) return fail(where, 'must be an object');
  const { sheets, intervalSeconds, columns, rows, thumbWidth, thumbHeight, count } = raw;
  if (!Array.isArray(sheets) || sheets.length === 0) return fail(`${where}.sheets`, 'must list at least one sheet');
  sheets.forEach((sheet, i) => checkFile(`${where}.sheets[${i}]`, sheet));
  if (!isPositiveNumber(intervalSeconds)) return fail(`${where}.intervalSeconds`, 'must be a positive number of seconds');
  if (![columns, rows, thumbWidth, thumbHeight, count].every(isPositiveInteger)) {
    return fail(where, 'columns, rows, thumbWidth, thumbHeight and count must be positive integers');
  }
  const perSheet = (columns as number) * (rows as number);
  if ((count as number) > perSheet * sheets.length || (count as number) <= perSheet * (sheets.length - 1)) {
    return fail(`${where}.count`, `${String(count)} thumbnails do not fill ${sheets.length} sheet(s) of ${String(columns)}×${String(rows)}`);
  }
  return {
    sheets: [...(sheets as string[])],
    intervalSeconds,
    columns: columns as number,
    rows: rows as number,
    thumbWidth: thumbWidth as number,
    thumbHeight: thumbHeight as number,
    count: count as number,
  };
}
