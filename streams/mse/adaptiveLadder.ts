import type { AdaptiveFormat } from '../config/playerConfig';
import { QUALITY_ORDER } from '../player/playerModel';

/** The formats of one container that play together: video renditions lowest bitrate first, and one audio track. */
export interface CodecFamily {
  /** `mp4` or `webm`: the container part of the types (`video/mp4` → `mp4`). */
  container: string;
  video: AdaptiveFormat[];
  audio: AdaptiveFormat;
}

/** What the browser says of decoding a format (`MediaCapabilities.decodingInfo`). */
export interface Decoding {
  supported: boolean;
  smooth: boolean;
  powerEfficient: boolean;
}

const containerOf = (mimeType: string): string => /^[a-z]+\/([a-z0-9.+-]+)/i.exec(mimeType)?.[1]?.toLowerCase() ?? '';

/**
 * The codec families of a ladder: its formats grouped by container, each with at least one video rendition and an
 * audio track (the highest-bitrate one when there are several), renditions lowest first. A container without both is
 * left out.
 */
export function codecFamilies(formats: readonly AdaptiveFormat[]): CodecFamily[] {
  const byContainer = new Map<string, AdaptiveFormat[]>();
  for (const f of formats) {
    const key = containerOf(f.mimeType);
    byContainer.set(key, [...(byContainer.get(key) ?? []), f]);
  }
  const families: CodecFamily[] = [];
  for (const [container, list] of byContainer) {
    const video = list.filter((f) => f.kind === 'video').sort((a, b) => a.bitrate - b.bitrate);
    const audio = list.filter((f) => f.kind === 'audio').sort((a, b) => b.bitrate - a.bitrate)[0];
    if (video.length > 0 && audio) families.push({ container, video, audio });
  }
  return families;
}

/**
 * The family to play: among those whose every format decodes, the one whose renditions all decode smoothly and
 * power-efficiently first, then smoothly, then any; on a tie the smaller one (the lower top bitrate: VP9 over H.264
 * at the same heights). A rendition that does not decode is dropped from its family. Undefined when none decodes.
 */
export function chooseFamily(families: readonly CodecFamily[], decodes: (format: AdaptiveFormat) => Decoding): CodecFamily | undefined {
  const ranked = families
    .map((family) => {
      const video = family.video.filter((f) => decodes(f).supported);
      const audioOk = decodes(family.audio).supported;
      const rank = video.every((f) => decodes(f).smooth && decodes(f).powerEfficient) ? 0 : video.every((f) => decodes(f).smooth) ? 1 : 2;
      return { family: { ...family, video }, ok: audioOk && video.length > 0, rank, top: video[video.length - 1]?.bitrate ?? 0 };
    })
    .filter((c) => c.ok)
    .sort((a, b) => a.rank - b.rank || a.top - b.top);
  return ranked[0]?.family;
}

const rank = (quality: string | undefined) => (QUALITY_ORDER as readonly string[]).indexOf(quality ?? '');

/**
 * The highest rendition index a quality preference allows (`setPlaybackQuality`, `suggestedQuality`): the rendition
 * of that quality, else the highest below it, else the lowest; `null` for `auto`, `default` or an unknown name (no cap).
 */
export function capIndexFor(video: readonly AdaptiveFormat[], preference: string): number | null {
  if (rank(preference) < 0) return null;
  let index = 0;
  video.forEach((f, i) => {
    if (rank(f.quality) <= rank(preference)) index = i;
  });
  return index;
}
