/**
 * Captions: the language shown (`setCaptions`) and the IFrame API's captions module (`setOption('captions', …)`).
 */
import { CAPTIONS_MODULE_NAMES, captionFontSize, mergeCaptionDisplaySettings } from './captionSettings';
import { captionTracksOf, findCaptionTrack, pickCaptionTrack, type PlayerModel } from './playerModel';
import type { EngineInput, PlayerStep, Rule, Rules } from './playerStep';

/** Captions on (in this language, else the one preferred, else the first track) or off. */
const setCaptions: Rule<'setCaptions'> = (model, input) => {
  const tracks = captionTracksOf(model.response);
  const track = input.enabled ? pickCaptionTrack(tracks, input.languageCode ?? model.captions.languageCode) : undefined;
  const captions = { enabled: input.enabled === true, languageCode: track?.languageCode ?? input.languageCode ?? model.captions.languageCode };
  return { model: { ...model, captions }, actions: [{ type: 'captions', languageCode: input.enabled ? (track?.languageCode ?? null) : null }] };
};

/**
 * `setOption('captions', option, value)` (the IFrame API's captions module; `cc` is its alias). A bad value changes
 * nothing:
 * - `track`: `{languageCode}` shows that track (exact code, else the same primary language; an unknown language is
 *   ignored); an object without a language code (`{}`) turns captions off;
 * - `fontSize`: an integer from -1 (small) to 3 (largest);
 * - `displaySettings`: the valid keys of an object are applied (see `captionSettings`);
 * - `reload`: `true` fetches the tracks again and keeps showing the current one.
 */
const setCaptionsOption: Rule<'setOption'> = (model, input, ctx) => {
  const none: PlayerStep = { model, actions: [] };
  if (!CAPTIONS_MODULE_NAMES.includes(input.module)) return none;
  const value = input.value;
  const withSettings = (settings: PlayerModel['subtitlesUserSettings']): PlayerStep =>
    settings === model.subtitlesUserSettings ? none : { model: { ...model, subtitlesUserSettings: settings }, actions: [] };
  const captionsOn = (on: Extract<EngineInput, { type: 'setCaptions' }>) => setCaptions(model, on, ctx);
  switch (input.option) {
    case 'track': {
      if (!value || typeof value !== 'object' || Array.isArray(value)) return none;
      const code = (value as { languageCode?: unknown }).languageCode;
      if (code === undefined || code === null || code === '') return captionsOn({ type: 'setCaptions', enabled: false });
      if (typeof code !== 'string') return none;
      const track = findCaptionTrack(captionTracksOf(model.response), code);
      return track ? captionsOn({ type: 'setCaptions', enabled: true, languageCode: track.languageCode }) : none;
    }
    case 'fontSize': {
      const size = captionFontSize(value);
      return size === undefined ? none : withSettings(mergeCaptionDisplaySettings(model.subtitlesUserSettings, { fontSizeIncrement: size }));
    }
    case 'displaySettings':
      return withSettings(mergeCaptionDisplaySettings(model.subtitlesUserSettings, value));
    case 'reload': {
      const tracks = captionTracksOf(model.response);
      if (value !== true || tracks.length === 0) return none;
      const shown = model.captions.enabled ? (pickCaptionTrack(tracks, model.captions.languageCode)?.languageCode ?? null) : null;
      return { model: { ...model, captionReloads: model.captionReloads + 1 }, actions: [{ type: 'reloadCaptions', captions: tracks, languageCode: shown }] };
    }
  }
  return none;
};

/** The caption rules. */
export const CAPTION_RULES: Rules<'setCaptions' | 'setOption'> = {
  setCaptions,
  setOption: setCaptionsOption,
};
