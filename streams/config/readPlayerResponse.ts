import type { PlayerResponse } from './playerConfig';

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object' && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const optional = (value: unknown, check: (v: unknown) => boolean) => value === undefined || check(value);
/** Every field named in `checks` passes its check (a field missing from `value` is checked as `undefined`). */
const has = (value: unknown, checks: Record<string, (v: unknown) => boolean>): value is Fields =>
  isObject(value) && Object.entries(checks).every(([key, check]) => check(value[key]));
const listOf = (check: (v: unknown) => boolean) => (value: unknown) => Array.isArray(value) && value.every(check);

const isPlayabilityStatus = (v: unknown) =>
  has(v, { status: (s) => isString(s) && s !== '', reason: (r) => optional(r, isString), errorCode: (c) => optional(c, isString) });
const isVideoDetails = (v: unknown) =>
  has(v, {
    videoId: isString,
    title: isString,
    author: isString,
    lengthSeconds: isNumber,
    channelId: (c) => optional(c, isString),
    thumbnailUrl: (t) => optional(t, isString),
  });
const isFormat = (v: unknown) => has(v, { quality: isString, url: isString, mimeType: isString, width: isNumber, height: isNumber, contentLength: isNumber });
const isVideoKind = (v: unknown) => has(v, { kind: (k) => k === 'video', quality: isString, width: isNumber, height: isNumber });
const isAudioKind = (v: unknown) =>
  has(v, { kind: (k) => k === 'audio', quality: (q) => optional(q, isString), width: (w) => optional(w, isNumber), height: (h) => optional(h, isNumber) });
/** A rendition of the adaptive ladder: a video one names its quality and size; every one its type, bitrate and segments. */
const isAdaptiveFormat = (v: unknown) =>
  (isVideoKind(v) || isAudioKind(v)) &&
  has(v, {
    bitrate: isNumber,
    mimeType: isString,
    initUrl: isString,
    segmentUrl: isString,
    startNumber: isNumber,
    segmentSeconds: isNumber,
    segmentBytes: listOf(isNumber),
  });
const isStringRecord = (v: unknown) => isObject(v) && Object.values(v).every(isString);
const isStreamingData = (v: unknown) =>
  has(v, {
    formats: listOf(isFormat),
    adaptiveFormats: (a) => optional(a, listOf(isAdaptiveFormat)),
    dashManifestUrls: (d) => optional(d, isStringRecord),
    hlsManifestUrl: (h) => optional(h, isString),
  });
const isStoryboard = (v: unknown) =>
  has(v, {
    sheetUrls: listOf(isString),
    intervalSeconds: isNumber,
    columns: isNumber,
    rows: isNumber,
    thumbWidth: isNumber,
    thumbHeight: isNumber,
    count: isNumber,
  });
const isCaptionTrack = (v: unknown) => has(v, { languageCode: isString, languageName: isString, url: isString });
const isChapter = (v: unknown) => has(v, { title: isString, timeRangeStartMillis: isNumber });
const isBeacon = (v: unknown) => has(v, { baseUrl: isString });

const PLAYER_RESPONSE_FIELDS: Record<string, (v: unknown) => boolean> = {
  playabilityStatus: isPlayabilityStatus,
  videoDetails: (v) => optional(v, isVideoDetails),
  streamingData: (v) => optional(v, isStreamingData),
  storyboard: (v) => optional(v, isStoryboard),
  captions: (v) => optional(v, (c) => has(c, { tracks: listOf(isCaptionTrack) })),
  chapters: (v) => optional(v, listOf(isChapter)),
  playbackTracking: (v) => optional(v, (t) => has(t, { videostatsPlaybackUrl: isBeacon, videostatsWatchtimeUrl: isBeacon })),
};

/**
 * Reads an answer body of the player call (`POST /youtubei/v1/player`) as a {@link PlayerResponse}, or `undefined`
 * when it is not one: no body (an empty or non-JSON answer), JSON that is not an object, no `playabilityStatus` with
 * a `status`, or a part the player reads (details, formats, the adaptive formats and their manifest URLs, the
 * storyboard, caption tracks, chapters, ping beacons) of the wrong type. A status other than `OK` is a response too: the player
 * reports its `errorCode`.
 * The player takes only what this returns, so a bad answer is a failed load and never an exception inside it.
 * Fields the player does not read are left as they are. Pure; never throws, whatever the body is.
 */
export function readPlayerResponse(body: unknown): PlayerResponse | undefined {
  return has(body, PLAYER_RESPONSE_FIELDS) ? (body as unknown as PlayerResponse) : undefined;
}
