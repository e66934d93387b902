/**
 * The names ingest derives when the command line gives none: the video id and the version from the source's bytes,
 * the channel id from the author's name, the title from the file name. Each is deterministic, so ingesting the same
 * file twice names the same things.
 */
import { createHash } from 'node:crypto';
import { basename, extname } from 'node:path';
import { MAX_TEXT_CHARS } from './ingestArgs';

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** The default video id: 11 base64url characters of the source's SHA-256 (`sourceDigest`, hex). */
export const videoIdFromDigest = (sourceDigest: string): string => Buffer.from(sourceDigest, 'hex').toString('base64url').slice(0, 11);

/**
 * The author's channel: `UC` + 22 base64url characters of a digest of the name, so one author has one channel on every
 * machine, and two authors (almost surely) never share one.
 */
export const channelIdFor = (author: string): string => `UC${sha256(`vidframe-channel\n${author}`).toString('base64url').slice(0, 22)}`;

/**
 * The version folder's name: a digest of the source's bytes and the ladder settings (hex, 16 characters), so the same
 * file with the same settings always lands in the same folder, and anything else in another.
 */
export const versionOf = (sourceDigest: string, settings: Record<string, unknown>): string =>
  sha256(`${sourceDigest}\n${JSON.stringify(settings)}`)
    .toString('hex')
    .slice(0, 16);

/** The default title: the file name without its extension, underscores as spaces (`My_trip.mp4` → `My trip`). */
export function titleFromFileName(file: string): string {
  const title = basename(file, extname(file))
    .replace(/_+/g, ' ')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_TEXT_CHARS);
  return title === '' ? 'Untitled video' : title;
}
