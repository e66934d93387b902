import { type Catalog, findPlaylist } from './catalog';

/**
 * The lists a host may name besides a catalogue playlist (spec §3 `listType`): a channel's uploads and a title search.
 * The IFrame API's documentation names a user for `user_uploads` (its example is a user name), so a channel is found by
 * its id or by its author's name.
 */

/** A list the catalogue answers: its id (null for a search, which has none), its title, its videos in play order. */
export interface CatalogList {
  id: string | null;
  title: string;
  /** At least one. */
  videoIds: string[];
}

/** The uploads list of a channel: `UU` + what follows the channel id's `UC` (the platform's naming of that list). */
export const uploadsListId = (channelId: string): string => `UU${channelId.slice(2)}`;

/** An author's name compared without case and with runs of white space as one space. */
const nameKey = (name: string): string => name.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The uploads of the channel that `channel` names: its channel id (`UC…`), its uploads list id (`UU…`) or its author's
 * name (case and spacing aside). Every catalogue video of that channel, in catalogue order, whether or not it plays
 * here: one that cannot says so when it comes up, as in any list. `undefined` when no channel is named so.
 */
export function channelUploads(catalog: Catalog, channel: string): CatalogList | undefined {
  const id = channel.trim();
  const key = nameKey(channel);
  const owner = catalog.videos.find((v) => v.channelId === id || uploadsListId(v.channelId) === id || (key !== '' && nameKey(v.author) === key));
  if (!owner) return undefined;
  const videoIds = catalog.videos.filter((v) => v.channelId === owner.channelId).map((v) => v.id);
  return { id: uploadsListId(owner.channelId), title: `Uploads from ${owner.author}`, videoIds };
}

/** The words of a text, as a search compares them: runs of letters and digits, lower-cased. */
export const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * The catalogue videos whose title has every word of `query` (whole words, case aside), in catalogue order.
 * `undefined` when the query has no word or no title matches.
 */
export function searchCatalog(catalog: Catalog, query: string): CatalogList | undefined {
  const words = wordsOf(query);
  if (words.length === 0) return undefined;
  const videoIds = catalog.videos
    .filter((v) => {
      const title = new Set(wordsOf(v.title));
      return words.every((w) => title.has(w));
    })
    .map((v) => v.id);
  return videoIds.length > 0 ? { id: null, title: query.trim(), videoIds } : undefined;
}

/** A list by id: a catalogue playlist, or a channel's uploads list (`UU…`). */
export function findList(catalog: Catalog, id: string): CatalogList | undefined {
  const playlist = findPlaylist(catalog, id);
  if (playlist) return playlist;
  const owner = catalog.videos.find((v) => uploadsListId(v.channelId) === id);
  return owner && channelUploads(catalog, owner.channelId);
}
