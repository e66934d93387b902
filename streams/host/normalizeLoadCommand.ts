import { PLAYLIST_LIST_MAX_CHARS, TEXT_INPUT_MAX_CHARS } from '../timing';
import { videoIdFromUrl } from '../player/videoIdFromUrl';
import { isValidVideoId } from '../config/playerConfig';
import { isListType } from '../player/playerStep';
import type { PlayerCommand, PlaylistLoadOptions, VideoLoadOptions } from '../player/types';

/** The load and cue functions of host-protocol §4. */
export const LOAD_FUNCTIONS = ['loadVideoById', 'cueVideoById', 'loadVideoByUrl', 'cueVideoByUrl', 'loadPlaylist', 'cuePlaylist'] as const;
export type LoadFunction = (typeof LOAD_FUNCTIONS)[number];
export const isLoadFunction = (func: string): func is LoadFunction => (LOAD_FUNCTIONS as readonly string[]).includes(func);

/** A normalised command, or the reason it was refused: the host then receives `onError` 2 (`api.invalidparam`). */
export type NormalizedCommand = { ok: true; command: PlayerCommand } | { ok: false; internal: 'api.invalidparam'; reason: string };

/** Longest playlist or URL string we read; anything longer is malformed. */
const MAX_TEXT = TEXT_INPUT_MAX_CHARS;
/** Most video ids one playlist command may carry. */
const MAX_PLAYLIST = 200;

class InvalidParam extends Error {}
const invalid = (reason: string): never => {
  throw new InvalidParam(reason);
};

const isPlainObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const own = (o: Record<string, unknown>, k: string): unknown => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);
const absent = (v: unknown) => v === undefined || v === null;

/** Seconds: a finite number ≥ 0 or a numeric string; `null`/`undefined` are absent; anything else is malformed. */
function seconds(v: unknown, name: string): number | undefined {
  if (absent(v)) return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n) || n < 0) invalid(`${name} is not a number of seconds`);
  return n;
}

function index(v: unknown): number | undefined {
  const n = seconds(v, 'index');
  if (n !== undefined && !Number.isInteger(n)) invalid('index is not an integer');
  return n;
}

function quality(v: unknown): string | undefined {
  if (absent(v)) return undefined;
  if (typeof v !== 'string' || v.length > 50) invalid('suggestedQuality is not a quality name');
  return v as string;
}

/** `rct` / `rctn` of the video load options (spec §3): text the host passes through to the player's logging. */
function trackingText(v: unknown, name: string): string | undefined {
  if (absent(v)) return undefined;
  if (typeof v !== 'string' || v.length > MAX_TEXT) invalid(`${name} is not a text`);
  return v as string;
}

function videoId(v: unknown): string {
  if (!isValidVideoId(v)) invalid('the video id is missing or malformed');
  return v as string;
}

/** The video id of a media URL (spec §5): the player's own rule, one for every caller. */
export const videoIdFromMediaUrl = videoIdFromUrl;

/**
 * The list id in a string a host gives as a playlist: a string of exactly 16 characters, whichever they are, is the
 * list `PL` + string (spec §5; counted as given, untrimmed); otherwise, trimmed, 16 characters of an id are too, and an
 * id with a list prefix is that list. Anything else is no list id (null).
 */
function listIdFrom(given: string): string | null {
  if (given.length === 16) return `PL${given}`;
  const s = given.trim();
  if (/^[A-Za-z0-9_-]{16}$/.test(s)) return `PL${s}`;
  if (/^(?:PL|UU|LL|FL|OL|RD)[A-Za-z0-9_-]{10,62}$/.test(s) && !isValidVideoId(s)) return s;
  return null;
}

/** `playlist`: an array of ids, one id, a comma list of ids, or a list id (see {@link listIdFrom}). */
function playlistOptions(v: unknown): Pick<PlaylistLoadOptions, 'playlist' | 'list' | 'listType'> {
  if (Array.isArray(v)) {
    if (v.length === 0 || v.length > MAX_PLAYLIST) invalid('the playlist is empty or too long');
    return { playlist: v.map(videoId) };
  }
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_TEXT) return invalid('the playlist is missing or malformed');
  const s = v as string;
  const list = listIdFrom(s);
  if (list) return { list, listType: 'playlist' };
  const ids = s
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (ids.length === 0 || ids.length > MAX_PLAYLIST) invalid('the playlist is empty or too long');
  return { playlist: ids.map(videoId) };
}

/**
 * `list` by `listType`: a list id (`playlist`, the default: see {@link listIdFrom}, else 2–64 characters of an id),
 * a channel id or author name (`user_uploads`) or a query (`search`), trimmed. Whether a channel or a search names any
 * video is the server's answer; here only its shape: text, not blank, at most {@link PLAYLIST_LIST_MAX_CHARS}.
 */
function listOptions(list: unknown, listType: unknown): Pick<PlaylistLoadOptions, 'list' | 'listType'> {
  if (typeof list !== 'string' || list.trim() === '') return invalid('the list is missing or not a text');
  if (list.length > PLAYLIST_LIST_MAX_CHARS) return invalid('the list is too long');
  if (!absent(listType) && !isListType(listType)) invalid('unknown listType');
  const type = isListType(listType) ? listType : 'playlist';
  const trimmed = list.trim();
  if (type === 'playlist') {
    const id = listIdFrom(list) ?? (/^[A-Za-z0-9_-]{2,64}$/.test(trimmed) ? trimmed : invalid('the list id is malformed'));
    return { list: id, listType: type };
  }
  return { list: trimmed, listType: type };
}

const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

function videoOptions(func: LoadFunction, args: unknown[]): VideoLoadOptions {
  const byUrl = func === 'loadVideoByUrl' || func === 'cueVideoByUrl';
  const first = args[0];
  if (isPlainObject(first)) {
    const startSeconds = seconds(own(first, 'startSeconds'), 'startSeconds');
    const endSeconds = seconds(own(first, 'endSeconds'), 'endSeconds');
    if (startSeconds !== undefined && endSeconds !== undefined && endSeconds <= startSeconds) invalid('endSeconds is not after startSeconds');
    const suggestedQuality = quality(own(first, 'suggestedQuality'));
    const rct = trackingText(own(first, 'rct'), 'rct');
    const rctn = trackingText(own(first, 'rctn'), 'rctn');
    if (byUrl) {
      const mediaContentUrl = own(first, 'mediaContentUrl');
      const id = videoIdFromMediaUrl(mediaContentUrl) ?? invalid('the media URL names no video');
      return defined({ videoId: id, mediaContentUrl: mediaContentUrl as string, startSeconds, endSeconds, suggestedQuality, rct, rctn });
    }
    return defined({ videoId: videoId(own(first, 'videoId')), startSeconds, endSeconds, suggestedQuality, rct, rctn });
  }
  const startSeconds = seconds(args[1], 'startSeconds');
  const suggestedQuality = quality(args[2]);
  if (byUrl) {
    const id = videoIdFromMediaUrl(first) ?? invalid('the media URL names no video');
    return defined({ videoId: id, mediaContentUrl: first as string, startSeconds, suggestedQuality });
  }
  return defined({ videoId: videoId(first), startSeconds, suggestedQuality });
}

function playlistLoadOptions(args: unknown[]): PlaylistLoadOptions {
  const first = args[0];
  if (isPlainObject(first)) {
    const playlist = own(first, 'playlist');
    const source = !absent(playlist) ? playlistOptions(playlist) : listOptions(own(first, 'list'), own(first, 'listType'));
    return defined({
      ...source,
      index: index(own(first, 'index')) ?? 0,
      startSeconds: seconds(own(first, 'startSeconds'), 'startSeconds'),
      suggestedQuality: quality(own(first, 'suggestedQuality')),
    });
  }
  return defined({
    ...playlistOptions(first),
    index: index(args[1]) ?? 0,
    startSeconds: seconds(args[2], 'startSeconds'),
    suggestedQuality: quality(args[3]),
  });
}

/**
 * Turns one load or cue command of the wire (host-protocol §4) into a {@link PlayerCommand} with one options object
 * (spec §5): positional `(videoId, startSeconds, suggestedQuality)` or object `{videoId, startSeconds, endSeconds,
 * suggestedQuality, rct, rctn}` (`rct`/`rctn`, spec §3, are texts passed through to the player's logging); by URL, the id from `/v/{id}`, `/e/{id}` or `/embed/{id}`; playlists `(playlist, index,
 * startSeconds, suggestedQuality)` or `{playlist | list, listType, index, startSeconds, suggestedQuality}`, where
 * `playlist` is an id array, one id, a comma list, or a string of exactly 16 characters (any) meaning list `PL` + string,
 * and `list` is a list id, a channel (`user_uploads`) or a search query (`search`), at most {@link PLAYLIST_LIST_MAX_CHARS}.
 * `load*` plays (`autoplay: true`); `cue*` leaves the video cued.
 *
 * Every malformed argument (wrong type, missing or bad id, negative or non-numeric seconds, unknown list type) gives
 * `{ ok: false, internal: 'api.invalidparam' }`, which the host sees as `onError` 2. Never throws.
 */
export function normalizeLoadCommand(func: LoadFunction, args: readonly unknown[]): NormalizedCommand {
  const autoplay = func.startsWith('load');
  try {
    if (func === 'loadPlaylist' || func === 'cuePlaylist') {
      return { ok: true, command: { type: 'loadPlaylist', options: playlistLoadOptions([...args]), autoplay } };
    }
    return { ok: true, command: { type: 'loadVideo', options: videoOptions(func, [...args]), autoplay } };
  } catch (e) {
    return { ok: false, internal: 'api.invalidparam', reason: e instanceof InvalidParam ? e.message : 'malformed arguments' };
  }
}
