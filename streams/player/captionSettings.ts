/**
 * The captions module's options as the public IFrame Player API exposes them (`getOptions('captions')`,
 * `getOption('captions', …)`, `setOption('captions', …)`; host-protocol §5 `apiInfoDelivery`), and the display
 * settings a host or viewer may change, validated here so a bad value is ignored rather than rendered.
 *
 * Display settings use the public player's names and encodings (`getSubtitlesUserSettings`):
 * - `background`, `color`, `windowColor`: `#rgb` or `#rrggbb`;
 * - `backgroundOpacity`, `textOpacity`, `windowOpacity`: 0–1;
 * - `fontFamily`: 1 monospaced serif, 2 proportional serif, 3 monospaced sans-serif, 4 proportional sans-serif,
 *   5 casual, 6 cursive, 7 small capitals;
 * - `charEdgeStyle`: 0 none, 1 drop shadow, 2 raised, 3 depressed, 4 outline;
 * - `fontSizeIncrement`: the `fontSize` option, -1 small, 0 normal, 1 large, 2 larger, 3 largest.
 */
import { CAPTION_FONT_SCALE_PER_STEP, CAPTION_FONT_SIZE_MAX, CAPTION_FONT_SIZE_MIN } from '../timing';
import { numberText } from '../shared/numberText';

/** What `getOptions('captions')` answers, in the public player's order. */
export const CAPTIONS_MODULE_OPTIONS = ['reload', 'fontSize', 'track', 'tracklist', 'displaySettings'] as const;

/** The module names a host may use for captions (`cc` is the public player's older alias). */
export const CAPTIONS_MODULE_NAMES: readonly string[] = ['captions', 'cc'];

export type CaptionDisplaySettings = {
  background: string;
  backgroundOpacity: number;
  color: string;
  textOpacity: number;
  /** 1–7, see the file comment. */
  fontFamily: number;
  /** -1–3: the `fontSize` option. */
  fontSizeIncrement: number;
  /** 0–4, see the file comment. */
  charEdgeStyle: number;
  windowColor: string;
  windowOpacity: number;
};

/** White text on a 75 % dark box in a proportional sans-serif, normal size, no window: the public player's default. */
export const DEFAULT_CAPTION_DISPLAY_SETTINGS: CaptionDisplaySettings = {
  background: '#080808',
  backgroundOpacity: 0.75,
  color: '#ffffff',
  textOpacity: 1,
  fontFamily: 4,
  fontSizeIncrement: 0,
  charEdgeStyle: 0,
  windowColor: '#080808',
  windowOpacity: 0,
};

const isInteger = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const isOpacity = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1;

/** `#rgb` / `#rrggbb` (any case) as lower-case `#rrggbb`; anything else undefined (no CSS text from a host is used). */
export function normalizeCaptionColor(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(v)?.[1]?.toLowerCase();
  if (hex === undefined) return undefined;
  return hex.length === 3 ? `#${[...hex].map((c) => c + c).join('')}` : `#${hex}`;
}

/** A `fontSize` value: an integer from -1 (small) to 3 (largest); anything else undefined. */
export function captionFontSize(v: unknown, min = CAPTION_FONT_SIZE_MIN, max = CAPTION_FONT_SIZE_MAX): number | undefined {
  return isInteger(v, min, max) ? v : undefined;
}

type Check = (v: unknown) => unknown;
const CHECKS: { [K in keyof CaptionDisplaySettings]: Check } = {
  background: normalizeCaptionColor,
  backgroundOpacity: (v) => (isOpacity(v) ? v : undefined),
  color: normalizeCaptionColor,
  textOpacity: (v) => (isOpacity(v) ? v : undefined),
  fontFamily: (v) => (isInteger(v, 1, 7) ? v : undefined),
  fontSizeIncrement: (v) => captionFontSize(v),
  charEdgeStyle: (v) => (isInteger(v, 0, 4) ? v : undefined),
  windowColor: normalizeCaptionColor,
  windowOpacity: (v) => (isOpacity(v) ? v : undefined),
};

/**
 * `current` with every valid key of `patch` applied; unknown keys and bad values are left out, and a `patch` that is
 * not a plain object changes nothing. Returns `current` itself when nothing changed.
 */
export function mergeCaptionDisplaySettings(current: CaptionDisplaySettings, patch: unknown): CaptionDisplaySettings {
  if (!patch || typeof patch !== 'object' || Array.isArray(patch)) return current;
  let next = current;
  for (const key of Object.keys(CHECKS) as (keyof CaptionDisplaySettings)[]) {
    if (!Object.prototype.hasOwnProperty.call(patch, key)) continue;
    const value = CHECKS[key]((patch as Record<string, unknown>)[key]);
    if (value !== undefined && value !== next[key]) next = { ...next, [key]: value };
  }
  return next;
}

/** The full, valid settings from a possibly partial or foreign record (a snapshot's `subtitlesUserSettings`). */
export const captionDisplaySettingsOf = (record: unknown): CaptionDisplaySettings => mergeCaptionDisplaySettings(DEFAULT_CAPTION_DISPLAY_SETTINGS, record);

/** What the view applies to the cue box: only values derived from validated settings. */
export interface CaptionStyle {
  /** Multiplies the base cue font size. */
  fontScale: number;
  /** 1–7: the view maps it to a font stack. */
  fontFamily: number;
  /** 0–4: the view maps it to a text shadow. */
  edgeStyle: number;
  /** CSS colours, `rgba(r, g, b, a)`. */
  color: string;
  background: string;
  window: string;
}

const rgba = (hex: string, alpha: number) => {
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${numberText((n >> 16) & 255)}, ${numberText((n >> 8) & 255)}, ${numberText(n & 255)}, ${numberText(Math.round(alpha * 1000) / 1000)})`;
};

/** The cue box's style for some settings (validated again, so any record is safe to pass). */
export function captionStyle(settings: unknown, scalePerStep = CAPTION_FONT_SCALE_PER_STEP): CaptionStyle {
  const s = captionDisplaySettingsOf(settings);
  return {
    fontScale: 1 + s.fontSizeIncrement * scalePerStep,
    fontFamily: s.fontFamily,
    edgeStyle: s.charEdgeStyle,
    color: rgba(s.color, s.textOpacity),
    background: rgba(s.background, s.backgroundOpacity),
    window: rgba(s.windowColor, s.windowOpacity),
  };
}
