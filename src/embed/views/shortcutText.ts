import { KEYBOARD_SEEK_LARGE_S, KEYBOARD_SEEK_SMALL_S } from '../../../streams/timing';
import { VOLUME_STEP, type ShortcutListEntry } from '../../../streams/player/shortcutCommand';
import type { I18n } from '../i18n/translate';

/** Each shortcut's words, by the key that does it (`ShortcutListEntry.sample`), in the interface's language. */
const ACTIONS: Record<string, (i18n: I18n) => string> = {
  k: ({ t }) => t('shortcutPlayPause'),
  j: ({ t, duration }) => t('shortcutBack', { duration: duration(KEYBOARD_SEEK_LARGE_S) }),
  l: ({ t, duration }) => t('shortcutForward', { duration: duration(KEYBOARD_SEEK_LARGE_S) }),
  ArrowLeft: ({ t, duration }) => t('shortcutBack', { duration: duration(KEYBOARD_SEEK_SMALL_S) }),
  ArrowRight: ({ t, duration }) => t('shortcutForward', { duration: duration(KEYBOARD_SEEK_SMALL_S) }),
  ArrowUp: ({ t, number }) => t('shortcutVolumeUp', { percent: number(VOLUME_STEP / 100, { style: 'percent' }) }),
  ArrowDown: ({ t, number }) => t('shortcutVolumeDown', { percent: number(VOLUME_STEP / 100, { style: 'percent' }) }),
  m: ({ t }) => t('shortcutMute'),
  c: ({ t }) => t('shortcutSubtitles'),
  f: ({ t }) => t('shortcutFullScreen'),
  '5': ({ t, number }) => t('shortcutJump', { from: number(0, { style: 'percent' }), to: number(0.9, { style: 'percent' }) }),
  i: ({ t }) => t('shortcutStats'),
  '?': ({ t }) => t('shortcutList'),
};

/** What a shortcut does, in words (the list's English where a shortcut has no translation yet: the unit test fails then). */
export const shortcutText = (entry: ShortcutListEntry, i18n: I18n): string => ACTIONS[entry.sample]?.(i18n) ?? entry.action;

/** Whether every shortcut of the list has its words in the catalogs. */
export const everyShortcutTranslated = (entries: readonly ShortcutListEntry[]): boolean => entries.every((e) => e.sample in ACTIONS);
