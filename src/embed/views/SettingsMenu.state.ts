import type { CaptionTrackData, PlayerCommand, PlayerInfo } from '../../../streams/player/types';
import type { MessageKey } from '../i18n/catalogs/en';
import { createI18n, type I18n } from '../i18n/translate';

/** The menu's words where no language is given (the unit tests): English. */
const ENGLISH = createI18n('en');

/** The menu's lists: the main list, and the sub-list each of its rows opens. */
export type Page = 'main' | 'speed' | 'quality' | 'captions';
export type SubPage = Exclude<Page, 'main'>;

/** Each sub-list's title (its row's label in the main list). */
export const PAGE_TITLES: Record<SubPage, MessageKey> = { speed: 'playbackSpeed', quality: 'quality', captions: 'subtitlesCC' };

export const rateLabel = (r: number, i18n: I18n = ENGLISH) => (r === 1 ? i18n.t('normal') : i18n.t('rate', { rate: i18n.number(r) }));
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

/** The `auto` choice while streaming: "Auto (480p)" with the quality on screen, "Auto" before any picture. */
export const autoLabel = (onScreen: string, i18n: I18n = ENGLISH) =>
  onScreen && onScreen !== 'unknown' && onScreen !== 'auto' ? i18n.t('autoWith', { quality: qualityLabel(onScreen) }) : i18n.t('auto');

/** A caption track's name in the interface's language (`Intl.DisplayNames`), the track's own name where it has none. */
export const captionLabel = (track: Pick<CaptionTrackData, 'languageCode' | 'displayName'>, i18n: I18n = ENGLISH) =>
  i18n.languageName(track.languageCode, track.displayName);

/** While the video streams its ladder: the quality preference (`auto`, or the level it is fixed or capped at). */
export interface StreamQuality {
  preference: string;
}

/** The menu's extra entries of the main list: "Stats for nerds" when the page gives a way to open it. */
export interface MenuExtras {
  stats?: boolean;
}

/** A row of the main list: the sub-list it opens and the value chosen there. */
export interface MenuRow {
  page: SubPage;
  value: string;
}

/** One item of the list shown: a main-list row, the Back item of a sub-list, or one of its choices. */
export type MenuItem =
  | { kind: 'row'; key: string; row: MenuRow }
  | { kind: 'back'; key: 'back'; page: SubPage }
  | { kind: 'choice'; key: string; label: string; checked: boolean; command: PlayerCommand }
  | { kind: 'action'; key: 'stats'; label: string };

/** The qualities offered: the video's, without the player's own `auto`. */
const qualitiesOf = (info: PlayerInfo) => info.availableQualityLevels.filter((q) => q !== 'auto');

/** The level a stream's preference checks: the level itself when the ladder has it, else `auto`. */
const chosenLevel = (info: PlayerInfo, stream: StreamQuality) => (qualitiesOf(info).includes(stream.preference) ? stream.preference : 'auto');

/** The quality row's value: the quality on screen, or while streaming what was chosen ("Auto (480p)", "720p"). */
function qualityValue(info: PlayerInfo, i18n: I18n, stream?: StreamQuality): string {
  if (!stream) return qualityLabel(info.playbackQuality);
  const chosen = chosenLevel(info, stream);
  return chosen === 'auto' ? autoLabel(info.playbackQuality, i18n) : qualityLabel(chosen);
}

/**
 * The main list: speed always, quality when the video has several (while streaming, `stream` says what was chosen),
 * captions when it has tracks.
 */
export function menuRows(info: PlayerInfo, stream?: StreamQuality, i18n: I18n = ENGLISH): MenuRow[] {
  const qualities = qualitiesOf(info);
  return [
    { page: 'speed', value: rateLabel(info.playbackRate, i18n) },
    ...(qualities.length > 0 ? [{ page: 'quality' as const, value: qualityValue(info, i18n, stream) }] : []),
    ...(info.captionTracks.length > 0 ? [{ page: 'captions' as const, value: info.captionTrack ? captionLabel(info.captionTrack, i18n) : i18n.t('off') }] : []),
  ];
}

const choice = (key: string, label: string, checked: boolean, command: PlayerCommand): MenuItem => ({ kind: 'choice', key, label, checked, command });

/**
 * The choices of a sub-list, each with the command it sends. While streaming, the quality list is the ladder's levels,
 * highest first, then "Auto (480p)"; the level chosen (or Auto) is checked.
 */
function choicesOf(page: SubPage, info: PlayerInfo, i18n: I18n, stream?: StreamQuality): MenuItem[] {
  if (page === 'speed') {
    return info.availablePlaybackRates.map((r) => choice(`rate-${r}`, rateLabel(r, i18n), r === info.playbackRate, { type: 'setPlaybackRate', rate: r }));
  }
  if (page === 'quality' && stream) {
    const chosen = chosenLevel(info, stream);
    return [
      ...qualitiesOf(info).map((q) => choice(`q-${q}`, qualityLabel(q), q === chosen, { type: 'setPlaybackQuality', quality: q })),
      choice('q-auto', autoLabel(info.playbackQuality, i18n), chosen === 'auto', { type: 'setPlaybackQuality', quality: 'auto' }),
    ];
  }
  if (page === 'quality') {
    return qualitiesOf(info).map((q) => choice(`q-${q}`, qualityLabel(q), q === info.playbackQuality, { type: 'setPlaybackQuality', quality: q }));
  }
  return [
    choice('cc-off', i18n.t('off'), info.captionTrack === null, { type: 'setCaptions', enabled: false }),
    ...info.captionTracks.map((t) =>
      choice(`cc-${t.languageCode}`, captionLabel(t, i18n), info.captionTrack?.languageCode === t.languageCode, {
        type: 'setCaptions',
        enabled: true,
        languageCode: t.languageCode,
      }),
    ),
  ];
}

/**
 * The items of the list `page` shows: the main list's rows (and its extra entries), or Back and the sub-list's
 * choices.
 */
export function menuItems(
  page: Page,
  info: PlayerInfo,
  rows: readonly MenuRow[],
  stream?: StreamQuality,
  extras: MenuExtras = {},
  i18n: I18n = ENGLISH,
): MenuItem[] {
  if (page === 'main') {
    const main: MenuItem[] = rows.map((row) => ({ kind: 'row', key: row.page, row }));
    return extras.stats ? [...main, { kind: 'action', key: 'stats', label: i18n.t('statsForNerds') }] : main;
  }
  return [{ kind: 'back', key: 'back', page }, ...choicesOf(page, info, i18n, stream)];
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
