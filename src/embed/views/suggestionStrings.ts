/**
 * The words of the end screen's suggestions, the pause screen's "More videos" strip and the double-tap seek indicator,
 * in one place (plain English; the translation of every view's words reads them from here).
 */
export const SUGGESTION_STRINGS = {
  suggestionsLabel: 'Suggested videos',
  moreVideos: 'More videos',
  hideMoreVideos: 'Hide more videos',
  /** A suggestion's accessible name: its title, channel and length. */
  suggestionName: (title: string, channel: string, length: string) => `${title}, ${channel}, ${length}`,
  /** The double-tap indicator's words (under its arrows). */
  seekSeconds: (seconds: number) => `${seconds} seconds`,
  /** What the live region announces of a double-tap seek. */
  seekAnnouncement: (direction: -1 | 1, seconds: number) => (direction < 0 ? `Back ${seconds} seconds` : `Forward ${seconds} seconds`),
} as const;
