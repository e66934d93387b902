import type { PlayerCommand, PlayerInfo } from '../../../streams/player/types';

/** The menu's lists: the main list, and the sub-list each of its rows opens. */
export type Page = 'main' | 'speed' | 'quality' | 'captions';
export type SubPage = Exclude<Page, 'main'>;

export const PAGE_TITLES: Record<SubPage, string> = { speed: 'Playback speed', quality: 'Quality', captions: 'Subtitles/CC' };

export const rateLabel = (r: number) => (r === 1 ? 'Normal' : `${r}×`);
const QUALITY_LABELS: Record<string, string> = {
  tiny: '144p',
  small: '240p',
  medium: '360p',
  large: '480p',
  hd720: '720p',
  hd1080: '1080p',
  highres: '4K',
  auto: 'Auto',
};
export const qualityLabel = (q: string) => QUALITY_LABELS[q] ?? q;

/** A row of the main list: the sub-list it opens and the value chosen there. */
export interface MenuRow {
  page: SubPage;
  value: string;
}

/** One item of the list shown: a main-list row, the Back item of a sub-list, or one of its choices. */
export type MenuItem =
  | { kind: 'row'; key: string; row: MenuRow }
  | { kind: 'back'; key: 'back'; page: SubPage }
  | { kind: 'choice'; key: string; label: string; checked: boolean; command: PlayerCommand };

/** The qualities offered: the video's, without the player's own `auto`. */
const qualitiesOf = (info: PlayerInfo) => info.availableQualityLevels.filter((q) => q !== 'auto');

/** The main list: speed always, quality when the video has several, captions when it has tracks. */
export function menuRows(info: PlayerInfo): MenuRow[] {
  const qualities = qualitiesOf(info);
  return [
    { page: 'speed', value: rateLabel(info.playbackRate) },
    ...(qualities.length > 0 ? [{ page: 'quality' as const, value: qualityLabel(info.playbackQuality) }] : []),
    ...(info.captionTracks.length > 0 ? [{ page: 'captions' as const, value: info.captionTrack ? info.captionTrack.displayName : 'Off' }] : []),
  ];
}

const choice = (key: string, label: string, checked: boolean, command: PlayerCommand): MenuItem => ({ kind: 'choice', key, label, checked, command });

/** The choices of a sub-list, each with the command it sends. */
function choicesOf(page: SubPage, info: PlayerInfo): MenuItem[] {
  if (page === 'speed') {
    return info.availablePlaybackRates.map((r) => choice(`rate-${r}`, rateLabel(r), r === info.playbackRate, { type: 'setPlaybackRate', rate: r }));
  }
  if (page === 'quality') {
    return qualitiesOf(info).map((q) => choice(`q-${q}`, qualityLabel(q), q === info.playbackQuality, { type: 'setPlaybackQuality', quality: q }));
  }
  return [
    choice('cc-off', 'Off', info.captionTrack === null, { type: 'setCaptions', enabled: false }),
    ...info.captionTracks.map((t) =>
      choice(`cc-${t.languageCode}`, t.displayName, info.captionTrack?.languageCode === t.languageCode, {
        type: 'setCaptions',
        enabled: true,
        languageCode: t.languageCode,
      }),
    ),
  ];
}

/** The items of the list `page` shows: the main list's rows, or Back and the sub-list's choices. */
export function menuItems(page: Page, info: PlayerInfo, rows: readonly MenuRow[]): MenuItem[] {
  if (page === 'main') return rows.map((row) => ({ kind: 'row', key: row.page, row }));
  return [{ kind: 'back', key: 'back', page }, ...choicesOf(page, info)];
}

/** Where focus goes on opening a list: the index asked for (`active`), else the checked item, else the first (after Back). */
export function focusIndex(items: readonly MenuItem[], active: number, page: Page): number {
  if (active >= 0 && active < items.length) return active;
  const checkedIndex = items.findIndex((it) => it.kind === 'choice' && it.checked);
  if (checkedIndex >= 0) return checkedIndex;
  return page === 'main' ? 0 : Math.min(1, items.length - 1);
}

/** `to` wrapped into `0 … n - 1` (↑ on the first item goes to the last, ↓ on the last to the first). */
export const wrapIndex = (to: number, n: number) => ((to % n) + n) % n;
