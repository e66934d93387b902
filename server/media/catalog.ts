import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isValidVideoId } from '../../streams/config/playerConfig';
import { type CatalogAdaptive, type CatalogStoryboard, checkAdaptive, checkStoryboard } from './catalogAdaptive';
import { type CatalogChapter, type CheckFile, type Entry, type Fail, checkChapters, fileChecker, isEntry, isPositiveInteger, isText } from './catalogChecks';

/** `true` for 11 characters of `[A-Za-z0-9_-]`, the only video ids there are (host protocol §2). */
export { isValidVideoId };

/** The quality names, lowest first: the player's own list (one list for the catalogue and the engine). */
import { QUALITY_ORDER, type Quality } from '../../streams/player/playerModel';
export { QUALITY_ORDER, type Quality };

/** One encoded file of a video. */
export interface Rendition {
  quality: Quality;
  width: number;
  height: number;
  /** Relative to the video's folder ({@link CatalogVideo.root}): its URL is `/media/` or `/library/` + `file`. */
  file: string;
  /** A `<video>`-ready type, e.g. `video/webm; codecs="vp9, opus"`. */
  mimeType: string;
  /** The file's exact size on disk. */
  bytes: number;
}

/** One WebVTT caption track. */
export interface CaptionTrack {
  /** BCP 47 language code, e.g. `en`, `es`, `pt-BR`. */
  languageCode: string;
  languageName: string;
  /** Relative to the video's folder ({@link CatalogVideo.root}). */
  file: string;
}

export interface CatalogVideo {
  id: string;
  title: string;
  author: string;
  /**
   * The channel the video belongs to: `UC` + 22 characters of `[A-Za-z0-9_-]`, one per author (the channel's title is
   * the author), so a viewer subscribes to the author whichever of its videos the embed shows.
   */
  channelId: string;
  /** Measured by ffprobe; 0 when the file cannot be read (the broken sample). */
  durationSeconds: number;
  /** `false`: the owner does not allow playing it on other sites (error 152 in the embed). */
  embeddable: boolean;
  /** Only a signed-in viewer may play it (`LOGIN_REQUIRED`, error 150 in the embed). Absent means anyone. */
  requiresSignIn?: boolean;
  /**
   * Regions (ISO 3166-1 alpha-2, upper case) where it may not play, read from the request's `gl` (`mrm.blocked`,
   * error 151 in the embed). Absent means everywhere.
   */
  blockedRegions?: string[];
  /**
   * Its playback needs the server's heartbeat (`heartbeatParams`): the server stops it (`heartbeat.stop`, error 150)
   * once a playback has played this many seconds.
   */
  heartbeatStopAfterSeconds?: number;
  /** Relative to the video's folder ({@link CatalogVideo.root}). */
  poster?: string;
  /** At least one, lowest quality first (in {@link QUALITY_ORDER}), one per quality. */
  renditions: Rendition[];
  captions: CaptionTrack[];
  /** An adaptive ladder (an ingested video): segments for Media Source Extensions, DASH and HLS manifests. */
  adaptive?: CatalogAdaptive;
  /** Seek-preview thumbnail sheets. */
  storyboard?: CatalogStoryboard;
  /** Named sections of the video, first at 0, in time order (`catalogChecks.ts` `checkChapters`). */
  chapters?: CatalogChapter[];
  /**
   * The folder its files are relative to: absent for the media folder (`media/`, served at `/media/`), `library` for
   * the library of ingested videos (served at `/library/`).
   */
  root?: 'library';
}

export interface CatalogPlaylist {
  /** Usually `PL` + 16 characters. */
  id: string;
  title: string;
  /** Known video ids, at least one, in play order. */
  videoIds: string[];
}

export interface Catalog {
  videos: CatalogVideo[];
  playlists: CatalogPlaylist[];
}

const PLAYLIST_ID = /^[A-Za-z0-9_-]{2,64}$/;
/** A channel id: `UC` + 22 characters of `[A-Za-z0-9_-]` (the accounts' channels follow the same rule). */
const CHANNEL_ID = /^UC[A-Za-z0-9_-]{22}$/;

/** `true` for a well-formed channel id (`UC` + 22 characters of `[A-Za-z0-9_-]`). */
export const isValidChannelId = (value: unknown): value is string => typeof value === 'string' && CHANNEL_ID.test(value);
const LANGUAGE_CODE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

const qualityRank = (quality: string) => (QUALITY_ORDER as readonly string[]).indexOf(quality);

/**
 * Reads and checks `{mediaDir}/catalog.json` (synchronously: it runs once, at server start).
 *
 * Checked: every video as {@link checkVideo} says, ids unique; a channel id one per author: two authors never share a
 * channel, one author never has two; playlist ids valid and unique, each naming at least one known video.
 *
 * The result holds fresh objects with only the checked fields, renditions sorted lowest quality first.
 *
 * @throws Error naming the catalogue, the bad entry (`videos[3] (VFbrokenvid).renditions[1]`) and what is wrong.
 */
export function loadCatalog(mediaDir: string): Catalog {
  const root = resolve(mediaDir);
  const path = resolve(root, 'catalog.json');
  if (!existsSync(path)) throw new Error(`No catalogue at ${path}: run \`npm run media\`.`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`The catalogue ${path} is not valid JSON: ${(e as Error).message}`, { cause: e });
  }
  const fail = (where: string, what: string): never => {
    throw new Error(`Catalogue ${path}, entry ${where}: ${what}`);
  };
  const checkFile = fileChecker({ root, name: 'media folder', fix: 'npm run media' }, fail);

  if (!isEntry(raw) || !Array.isArray(raw.videos)) throw new Error(`The catalogue ${path} has no "videos" list.`);
  if (raw.playlists !== undefined && !Array.isArray(raw.playlists)) throw new Error(`The catalogue ${path}: "playlists" must be a list.`);

  const seen = new Set<string>();
  const channels = channelRegistry();
  const videos = raw.videos.map((v: unknown, i: number): CatalogVideo => {
    const where = `videos[${i}]${isEntry(v) && typeof v.id === 'string' ? ` (${v.id})` : ''}`;
    if (isEntry(v) && typeof v.id === 'string' && seen.has(v.id)) return fail(where, 'duplicate id');
    const video = checkVideo(where, v, checkFile, fail);
    seen.add(video.id);
    const conflict = channels.claim(video);
    return conflict ? fail(where, conflict) : video;
  });

  const playlistIds = new Set<string>();
  const playlists = ((raw.playlists as unknown[] | undefined) ?? []).map((p: unknown, i: number): CatalogPlaylist => {
    const where = `playlists[${i}]${isEntry(p) && typeof p.id === 'string' ? ` (${p.id})` : ''}`;
    if (!isEntry(p) || typeof p.id !== 'string' || !isText(p.title) || !Array.isArray(p.videoIds)) return fail(where, 'needs id, title and videoIds');
    if (!PLAYLIST_ID.test(p.id)) return fail(where, 'the id must be 2 to 64 characters of [A-Za-z0-9_-]');
    if (playlistIds.has(p.id)) return fail(where, 'duplicate id');
    playlistIds.add(p.id);
    if (p.videoIds.length === 0) return fail(where, 'videoIds is empty');
    for (const videoId of p.videoIds) if (typeof videoId !== 'string' || !seen.has(videoId)) fail(where, `names the unknown video ${String(videoId)}`);
    return { id: p.id, title: p.title, videoIds: [...(p.videoIds as string[])] };
  });

  return { videos, playlists };
}

/**
 * The channels of a catalogue as its videos claim them: one channel per author and one author per channel, so a
 * viewer subscribes to the author whichever of its videos the embed shows. `claim` answers what is wrong, if anything.
 */
export function channelRegistry(): { claim(video: Pick<CatalogVideo, 'author' | 'channelId'>): string | undefined } {
  const channelOfAuthor = new Map<string, string>();
  const authorOfChannel = new Map<string, string>();
  return {
    claim({ author, channelId }) {
      const authorsChannel = channelOfAuthor.get(author) ?? channelId;
      const channelsAuthor = authorOfChannel.get(channelId) ?? author;
      if (authorsChannel !== channelId) return `the author ${JSON.stringify(author)} already has the channel ${authorsChannel} (one channel per author)`;
      if (channelsAuthor !== author) return `the channel ${channelId} already belongs to the author ${JSON.stringify(channelsAuthor)} (one author per channel)`;
      channelOfAuthor.set(author, channelId);
      authorOfChannel.set(channelId, author);
      return undefined;
    },
  };
}

/**
 * Checks one catalogue entry, wherever it sits (`media/catalog.json` or the library), its file paths relative to its
 * folder (`checkFile`): the id valid (11 characters of `[A-Za-z0-9_-]`); title, author and a duration ≥ 0; a channel
 * id (`UC` + 22 characters); `embeddable` a boolean when present (absent means `true`); at least one rendition, each
 * with a known quality (once per video), a positive width and height, a type, and a file with exactly the stated
 * `bytes`; the poster and every caption file present; caption languages valid and unique; the viewer rules
 * (`requiresSignIn`, `blockedRegions`, `heartbeatStopAfterSeconds`) well-formed when present; the adaptive ladder and
 * the storyboard as `catalogAdaptive.ts` checks them, and the chapters as
 * `catalogChecks.ts` checks them, when present.
 *
 * `fix` is what regenerates the folder's files, for the messages.
 *
 * @returns a fresh object with only the checked fields, renditions sorted lowest quality first.
 */
export function checkVideo(where: string, v: unknown, checkFile: CheckFile, fail: Fail, fix = 'npm run media'): CatalogVideo {
  if (!isEntry(v)) return fail(where, 'not an object');
  const { id, title, author, channelId, durationSeconds, embeddable = true, poster, requiresSignIn, blockedRegions, heartbeatStopAfterSeconds } = v;
  if (!isValidVideoId(id)) return fail(where, `the id ${JSON.stringify(id)} must be 11 characters of [A-Za-z0-9_-]`);
  if (!isText(title) || typeof author !== 'string') return fail(where, 'title and author must be text');
  if (!isValidChannelId(channelId)) return fail(where, `the channelId ${JSON.stringify(channelId)} must be UC and 22 characters of [A-Za-z0-9_-]`);
  if (typeof durationSeconds !== 'number' || !Number.isFinite(durationSeconds) || durationSeconds < 0) {
    return fail(where, 'durationSeconds must be a number ≥ 0');
  }
  if (typeof embeddable !== 'boolean') return fail(where, 'embeddable must be true or false');
  const access = viewerRules(where, { requiresSignIn, blockedRegions, heartbeatStopAfterSeconds }, fail);
  if (poster !== undefined) checkFile(`${where}.poster`, poster);

  if (!Array.isArray(v.renditions) || v.renditions.length === 0) return fail(where, 'no renditions');
  const qualities = new Set<string>();
  const renditions = v.renditions.map((r: unknown, j: number): Rendition => {
    const rw = `${where}.renditions[${j}]`;
    if (!isEntry(r) || typeof r.quality !== 'string' || qualityRank(r.quality) < 0) {
      return fail(rw, `unknown quality (one of ${QUALITY_ORDER.join(', ')})`);
    }
    if (qualities.has(r.quality)) return fail(rw, `duplicate quality ${r.quality}`);
    qualities.add(r.quality);
    const size = checkFile(rw, r.file);
    if (!isPositiveInteger(r.width) || !isPositiveInteger(r.height)) return fail(rw, 'width and height must be positive integers');
    if (!isText(r.mimeType)) return fail(rw, 'mimeType is missing');
    if (r.bytes !== size) return fail(rw, `bytes is ${JSON.stringify(r.bytes)} but ${String(r.file)} has ${size} bytes (run \`${fix}\`)`);
    return { quality: r.quality as Quality, width: r.width, height: r.height, file: r.file as string, mimeType: r.mimeType, bytes: size };
  });
  renditions.sort((a, b) => qualityRank(a.quality) - qualityRank(b.quality));

  if (v.captions !== undefined && !Array.isArray(v.captions)) return fail(where, 'captions must be a list');
  const languages = new Set<string>();
  const captions = ((v.captions as unknown[] | undefined) ?? []).map((t: unknown, j: number): CaptionTrack => {
    const tw = `${where}.captions[${j}]`;
    if (!isEntry(t) || !isText(t.languageCode) || !isText(t.languageName)) return fail(tw, 'languageCode and languageName must be text');
    if (!LANGUAGE_CODE.test(t.languageCode)) return fail(tw, `the language code ${t.languageCode} is not a BCP 47 code like en or pt-BR`);
    if (languages.has(t.languageCode)) return fail(tw, `duplicate language ${t.languageCode}`);
    languages.add(t.languageCode);
    checkFile(tw, t.file);
    return { languageCode: t.languageCode, languageName: t.languageName, file: t.file as string };
  });
  const adaptive = v.adaptive === undefined ? undefined : checkAdaptive(`${where}.adaptive`, v.adaptive, checkFile, fail);
  const storyboard = v.storyboard === undefined ? undefined : checkStoryboard(`${where}.storyboard`, v.storyboard, checkFile, fail);
  const chapters = v.chapters === undefined ? undefined : checkChapters(`${where}.chapters`, v.chapters, durationSeconds, fail);

  return {
    id,
    title,
    author,
    channelId,
    durationSeconds,
    embeddable,
    ...access,
    ...(poster !== undefined ? { poster: poster as string } : {}),
    renditions,
    captions,
    ...(adaptive && { adaptive }),
    ...(storyboard && { storyboard }),
    ...(chapters && { chapters }),
  };
}

const REGION = /^[A-Z]{2}$/;

/** The checked viewer rules of one entry: only those it states. */
function viewerRules(
  where: string,
  { requiresSignIn, blockedRegions, heartbeatStopAfterSeconds }: Entry,
  fail: Fail,
): Pick<CatalogVideo, 'requiresSignIn' | 'blockedRegions' | 'heartbeatStopAfterSeconds'> {
  if (requiresSignIn !== undefined && typeof requiresSignIn !== 'boolean') return fail(where, 'requiresSignIn must be true or false');
  if (blockedRegions !== undefined && (!Array.isArray(blockedRegions) || !blockedRegions.every((r) => typeof r === 'string' && REGION.test(r)))) {
    return fail(where, 'blockedRegions must be a list of two-letter upper-case region codes (ISO 3166-1 alpha-2)');
  }
  const stopAfter = heartbeatStopAfterSeconds;
  if (stopAfter !== undefined && (typeof stopAfter !== 'number' || !Number.isFinite(stopAfter) || stopAfter <= 0)) {
    return fail(where, 'heartbeatStopAfterSeconds must be a number > 0');
  }
  return {
    ...(requiresSignIn === true && { requiresSignIn: true }),
    ...(blockedRegions !== undefined && { blockedRegions: [...(blockedRegions as string[])] }),
    ...(stopAfter !== undefined && { heartbeatStopAfterSeconds: stopAfter as number }),
  };
}

/** The video with this id, or `undefined`. */
export const findVideo = (catalog: Catalog, id: string): CatalogVideo | undefined => catalog.videos.find((v) => v.id === id);

/** The playlist with exactly this id (the 16-character `PL` rule belongs to the host protocol), or `undefined`. */
export const findPlaylist = (catalog: Catalog, id: string): CatalogPlaylist | undefined => catalog.playlists.find((p) => p.id === id);

/** A catalogue channel: its id and its title, which is its videos' author. */
export interface CatalogChannel {
  id: string;
  title: string;
}

/** The channel with this id (a channel exists when a catalogue video names it), or `undefined`. */
export function findChannel(catalog: Catalog, id: unknown): CatalogChannel | undefined {
  const video = typeof id === 'string' ? catalog.videos.find((v) => v.channelId === id) : undefined;
  return video && { id: video.channelId, title: video.author };
}

/** The channel a catalogue video belongs to. */
export const channelOf = (video: CatalogVideo): CatalogChannel => ({ id: video.channelId, title: video.author });
