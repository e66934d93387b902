import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { isValidVideoId } from '../streams/config/playerConfig';

export { isValidVideoId };

/** Quality names from lowest to highest, as the host protocol names them. */
export const QUALITY_ORDER = ['tiny', 'small', 'medium', 'large', 'hd720', 'hd1080', 'highres'] as const;

export interface Rendition {
  quality: string;
  width: number;
  height: number;
  /** Relative to the media folder. */
  file: string;
  mimeType: string;
  bytes: number;
}

export interface CaptionTrack {
  languageCode: string;
  languageName: string;
  file: string;
}

export interface CatalogVideo {
  id: string;
  title: string;
  author: string;
  durationSeconds: number;
  embeddable: boolean;
  poster?: string;
  renditions: Rendition[];
  captions: CaptionTrack[];
}

export interface CatalogPlaylist {
  id: string;
  title: string;
  videoIds: string[];
}

export interface Catalog {
  videos: CatalogVideo[];
  playlists: CatalogPlaylist[];
}

/**
 * Reads and checks `{mediaDir}/catalog.json`: every id valid and unique, every file present inside the media folder,
 * every playlist naming known videos. A malformed catalogue throws an Error naming the bad entry.
 */
export function loadCatalog(mediaDir: string): Catalog {
  const path = resolve(mediaDir, 'catalog.json');
  if (!existsSync(path)) throw new Error(`No catalogue at ${path}: run \`npm run media\`.`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`The catalogue ${path} is not valid JSON: ${(e as Error).message}`);
  }
  const root = resolve(mediaDir);
  const fail = (where: string, what: string): never => {
    throw new Error(`Catalogue entry ${where}: ${what}`);
  };
  const checkFile = (where: string, file: unknown): string => {
    if (typeof file !== 'string' || file === '') return fail(where, 'a file path is missing');
    const full = resolve(root, file);
    if (!full.startsWith(root + sep)) return fail(where, `the file ${file} is outside the media folder`);
    if (!existsSync(full) || !statSync(full).isFile()) return fail(where, `the file ${file} does not exist`);
    return file;
  };
  const c = raw as { videos?: unknown; playlists?: unknown };
  if (!c || typeof c !== 'object' || !Array.isArray(c.videos)) throw new Error(`The catalogue ${path} has no "videos" list.`);
  const seen = new Set<string>();
  const videos = c.videos.map((v: Partial<CatalogVideo>, i: number): CatalogVideo => {
    const where = `videos[${i}]${v && typeof v.id === 'string' ? ` (${v.id})` : ''}`;
    if (!v || typeof v !== 'object') return fail(where, 'not an object');
    if (!isValidVideoId(v.id)) return fail(where, 'the id must be 11 characters of [A-Za-z0-9_-]');
    if (seen.has(v.id)) return fail(where, 'duplicate id');
    seen.add(v.id);
    if (typeof v.title !== 'string' || typeof v.author !== 'string') return fail(where, 'title and author must be text');
    if (typeof v.durationSeconds !== 'number' || !(v.durationSeconds >= 0)) return fail(where, 'durationSeconds must be a number ≥ 0');
    if (!Array.isArray(v.renditions) || v.renditions.length === 0) return fail(where, 'no renditions');
    const renditions = v.renditions.map((r, j) => {
      const rw = `${where}.renditions[${j}]`;
      if (!r || typeof r.quality !== 'string' || !(QUALITY_ORDER as readonly string[]).includes(r.quality)) return fail(rw, 'unknown quality');
      checkFile(rw, r.file);
      return { quality: r.quality, width: Number(r.width), height: Number(r.height), file: r.file, mimeType: String(r.mimeType), bytes: Number(r.bytes) };
    });
    const captions = (Array.isArray(v.captions) ? v.captions : []).map((t, j) => {
      const tw = `${where}.captions[${j}]`;
      if (!t || typeof t.languageCode !== 'string' || typeof t.languageName !== 'string') return fail(tw, 'languageCode and languageName must be text');
      checkFile(tw, t.file);
      return { languageCode: t.languageCode, languageName: t.languageName, file: t.file };
    });
    if (v.poster !== undefined) checkFile(`${where}.poster`, v.poster);
    return { id: v.id, title: v.title, author: v.author, durationSeconds: v.durationSeconds, embeddable: v.embeddable !== false, poster: v.poster, renditions, captions };
  });
  const playlists = (Array.isArray(c.playlists) ? c.playlists : []).map((p: Partial<CatalogPlaylist>, i: number): CatalogPlaylist => {
    const where = `playlists[${i}]`;
    if (!p || typeof p.id !== 'string' || typeof p.title !== 'string' || !Array.isArray(p.videoIds)) return fail(where, 'needs id, title and videoIds');
    for (const id of p.videoIds) if (!seen.has(id)) fail(where, `names the unknown video ${id}`);
    return { id: p.id, title: p.title, videoIds: [...p.videoIds] };
  });
  return { videos, playlists };
}

export const findVideo = (catalog: Catalog, id: string): CatalogVideo | undefined => catalog.videos.find((v) => v.id === id);
export const findPlaylist = (catalog: Catalog, id: string): CatalogPlaylist | undefined => catalog.playlists.find((p) => p.id === id);
