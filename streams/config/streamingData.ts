/** How a video's media is fetched: the types of the player answer's `streamingData` and `storyboard`. */

/** One playable file of a video (a quality level). URLs are root-relative. */
export interface StreamFormat {
  quality: string;
  width: number;
  height: number;
  url: string;
  mimeType: string;
  contentLength: number;
}

/**
 * One rendition of one track type in an adaptive ladder: an initialisation segment and numbered media segments of
 * (nominally) equal duration, as a DASH `SegmentTemplate` describes them. A video's adaptive formats come in codec
 * families (H.264/AAC in MP4, VP9/Opus in WebM): a video format plays with an audio format of the same container.
 */
export interface AdaptiveFormat {
  kind: 'video' | 'audio';
  /** Video only: the quality name (`tiny` … `hd1080`). */
  quality?: string;
  width?: number;
  height?: number;
  /** Average bits per second over the whole rendition (the ladder's advertised rate). */
  bitrate: number;
  /** The full type for Media Source Extensions, e.g. `video/mp4; codecs="avc1.64001e"`, `audio/webm; codecs="opus"`. */
  mimeType: string;
  /** Root-relative URL of the initialisation segment. */
  initUrl: string;
  /**
   * Root-relative URL template of media segment number k (k counts from `startNumber`): `$Number$` is k,
   * `$Number%05d$` is k zero-padded to five digits.
   */
  segmentUrl: string;
  startNumber: number;
  /** The nominal duration of one segment; the last one may be shorter. */
  segmentSeconds: number;
  /** Each media segment's size in bytes, in order: their count is the number of segments. */
  segmentBytes: number[];
}

/** How the video's media can be fetched: progressive files, and an adaptive ladder when the video has one. */
export interface StreamingData {
  /** Progressive files (audio and video in one), for a browser without Media Source Extensions. */
  formats: StreamFormat[];
  adaptiveFormats?: AdaptiveFormat[];
  /** Root-relative URLs of the same ladder for other players: DASH per codec family, HLS over the fMP4 segments. */
  dashManifestUrls?: Record<string, string>;
  hlsManifestUrl?: string;
}

/**
 * Seek-preview thumbnails: sheets of `columns` × `rows` thumbnails in reading order, one every `intervalSeconds`
 * from 0; thumbnail n is on sheet ⌊n / (columns·rows)⌋.
 */
export interface Storyboard {
  sheetUrls: string[];
  intervalSeconds: number;
  columns: number;
  rows: number;
  thumbWidth: number;
  thumbHeight: number;
  /** The number of thumbnails over all sheets. */
  count: number;
}
