import { catchError, defer, map, of, shareReplay } from 'rxjs';

export interface CatalogVideo {
  id: string;
  title: string;
  author: string;
  durationSeconds: number;
  embeddable?: boolean;
  /** Viewer rules: the video plays only for a signed-in viewer, outside these regions, or this long per playback. */
  requiresSignIn?: boolean;
  blockedRegions?: string[];
  heartbeatStopAfterSeconds?: number;
}

/** Whether every viewer can play the whole video (embeddable, with media, and no viewer rule). */
export const playsForEveryone = (v: CatalogVideo): boolean =>
  v.embeddable !== false && v.durationSeconds > 0 && v.requiresSignIn !== true && !v.blockedRegions?.length && v.heartbeatStopAfterSeconds === undefined;
export interface CatalogPlaylist {
  id: string;
  title: string;
  videoIds: string[];
}
export interface Catalog {
  videos: CatalogVideo[];
  playlists: CatalogPlaylist[];
}

const EMPTY_CATALOG: Catalog = { videos: [], playlists: [] };

/**
 * The sample catalogue the reference server publishes with the media (`/media/catalog.json`, root-relative: the
 * page's own server), read once and shared; an unreachable or malformed catalogue is an empty one.
 */
export const catalog$ = defer(() => fetch('/media/catalog.json').then((r) => (r.ok ? (r.json() as Promise<Partial<Catalog>>) : ({} as Partial<Catalog>)))).pipe(
  map((c): Catalog => ({
    videos: Array.isArray(c.videos) ? c.videos : [],
    playlists: Array.isArray(c.playlists) ? c.playlists : [],
  })),
  catchError(() => of(EMPTY_CATALOG)),
  shareReplay({ bufferSize: 1, refCount: false }),
);
