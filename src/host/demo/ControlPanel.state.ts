import { useState } from 'react';
import type { PlayerInfoCache } from '../sdk/types';
import type { Catalog } from './catalog';

/** The speeds offered before the embed delivered its own. */
export const FALLBACK_RATES = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2];

/** The number a field holds, or `fallback` when it is empty or not a number. */
export const numberOr = (text: string, fallback: number) => {
  const n = Number(text);
  return text.trim() !== '' && Number.isFinite(n) ? n : fallback;
};

/** A playlist field: a catalogue list id (PL…) or ids separated by commas; the index is a whole number from 0. */
export function playlistArgs(playlistText: string, indexText: string) {
  const text = playlistText.trim();
  const index = Math.max(0, Math.trunc(numberOr(indexText, 0)));
  if (/^PL[\w-]+$/.test(text) && !text.includes(',')) return { list: text, listType: 'playlist', index };
  return {
    playlist: text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    index,
  };
}

/** The size the size fields ask for (whole pixels), or `undefined` when either is not positive. */
export function sizeFromFields(width: string, height: string): { width: number; height: number } | undefined {
  const w = Math.round(numberOr(width, 640));
  const h = Math.round(numberOr(height, 360));
  return w > 0 && h > 0 ? { width: w, height: h } : undefined;
}

/** What the panel's controls show of the cache, with an unstarted player's values where nothing was delivered. */
export function playbackReadings(info: PlayerInfoCache) {
  return {
    duration: typeof info.duration === 'number' ? info.duration : 0,
    currentTime: typeof info.currentTime === 'number' ? info.currentTime : 0,
    volume: typeof info.volume === 'number' ? info.volume : 100,
    rates: info.availablePlaybackRates?.length ? info.availablePlaybackRates : FALLBACK_RATES,
    qualities: info.availableQualityLevels ?? [],
    tracks: info.captionTracks ?? [],
  };
}

/**
 * The load fields: they say what is loaded. They start at the first video and follow every video the player loads,
 * however it was loaded; what the viewer types stays until the next video arrives.
 */
export function useLoadFields(info: PlayerInfoCache, catalog: Catalog, embedHost: string, initialVideoId: string) {
  const [catalogId, setCatalogId] = useState(initialVideoId);
  const [videoId, setVideoId] = useState(initialVideoId);
  const [mediaUrl, setMediaUrl] = useState(`${embedHost}/embed/${initialVideoId}`);
  const [fieldsFor, setFieldsFor] = useState(initialVideoId);
  // An empty id (video data not known yet) keeps the fields as they are.
  const loadedId = info.videoData?.video_id || fieldsFor;
  if (loadedId !== fieldsFor) {
    // Adjusting state to a changed input during render, as React documents it (no effect, no extra paint).
    setFieldsFor(loadedId);
    if (catalog.videos.length === 0 || catalog.videos.some((v) => v.id === loadedId)) setCatalogId(loadedId);
    setVideoId(loadedId);
    setMediaUrl(`${embedHost}/embed/${loadedId}`);
  }
  return { catalogId, setCatalogId, videoId, setVideoId, mediaUrl, setMediaUrl };
}
