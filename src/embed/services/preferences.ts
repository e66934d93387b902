import { filter, first, Subscription } from 'rxjs';
import { createPreferenceStore } from '../../../streams/identity/preferences';
import { PREFERENCE_COOKIE_NAME } from '../../../streams/identity/parsePreferenceCookie';
import { frameCookie } from './frameCookie';
import type { EmbedPlayer } from '../player/EmbedPlayer';
import { numberText } from '../../../streams/shared/numberText';

/** The preference keys the player keeps (word characters only, never `f` + a number: spec §5). */
export const PLAYER_PREFERENCE_KEYS = {
  volume: 'volume',
  muted: 'muted',
  captionsLanguage: 'captions_lang',
  playbackRate: 'playback_rate',
  quality: 'quality',
} as const;

/**
 * The viewer's player choices kept in the preference cookie (spec §5/§9, `PREF`, 63072000 s; {@link frameCookie}): volume, mute, captions
 * language, playback rate and quality. They are applied when the player is ready — so a choice made in one embed is
 * there in the next — and every later change the viewer (or the host) makes is written back. Player variables the
 * host set for this embed (`mute=1`, `cc_lang_pref`, `cc_load_policy`) win over a stored choice.
 */
export function startPreferences(player: EmbedPlayer, win: Window): { stop(): void } {
  // The cookie, with a copy in the frame's storage where the browser blocks cookies in frames on other sites.
  const cookie = frameCookie(win, PREFERENCE_COOKIE_NAME);
  const store = createPreferenceStore({
    readCookie: cookie.read,
    writeCookie: cookie.write,
    // `SameSite=None; Secure` lets the cookie work in a frame on another site; it needs a secure context (https, or
    // loopback).
    secure: win.isSecureContext,
  });
  const vars = player.config.args.playerVars;
  const keys = PLAYER_PREFERENCE_KEYS;
  const subscriptions = new Subscription();
  const save = (key: string, value: string) => {
    try {
      if (store.get(key) !== value) store.set(key, value);
    } catch (error) {
      console.warn('[vidframe] preference not kept:', error instanceof Error ? error.message : error);
    }
  };

  const ready$ = player.readiness$.pipe(
    filter((r) => r === 'ready'),
    first(),
  );
  subscriptions.add(
    ready$.subscribe(() => {
      const volume = Number(store.get(keys.volume));
      if (Number.isFinite(volume) && volume >= 0 && volume <= 100) player.command({ type: 'setVolume', volume });
      const muted = store.get(keys.muted);
      if (vars.mute === undefined && (muted === '1' || muted === '0')) player.command({ type: muted === '1' ? 'mute' : 'unMute' });
      const rate = Number(store.get(keys.playbackRate));
      if (Number.isFinite(rate) && rate > 0) player.command({ type: 'setPlaybackRate', rate });
      const quality = store.get(keys.quality);
      if (quality) player.command({ type: 'setPlaybackQuality', quality });
      const captions = store.get(keys.captionsLanguage);
      if (captions !== undefined && vars.cc_lang_pref === undefined && vars.cc_load_policy === undefined) {
        player.command(captions === '' ? { type: 'setCaptions', enabled: false } : { type: 'setCaptions', enabled: true, languageCode: captions });
      }
    }),
  );

  // Changes after the stored choices were applied are the viewer's: written back. Each preference's value as the
  // player shows it is remembered from the first snapshot after ready; a different one later is a change, saved.
  // Two plain subscriptions rather than a pipeline of four stages per preference, for what is a comparison of five
  // values: it holds less of the page's heap (docs/performance.md). The element's snapshot
  // comes with every media event (four times a second while playing): a tick compares three values, and only a
  // snapshot in which one of them changed writes.
  const shown = new Map<string, string>();
  const watch = (key: string, value: string) => {
    const before = shown.get(key);
    shown.set(key, value);
    if (before !== undefined && before !== value) save(key, value);
  };
  subscriptions.add(
    ready$.subscribe(() => {
      let volume = NaN;
      let muted: boolean | undefined;
      let rate = NaN;
      subscriptions.add(
        player.media$.subscribe((m) => {
          if (m.volume === volume && m.muted === muted && m.playbackRate === rate) return;
          ({ volume, muted, playbackRate: rate } = m);
          watch(keys.volume, numberText(Math.round(m.volume * 100)));
          watch(keys.muted, m.muted ? '1' : '0');
          watch(keys.playbackRate, numberText(m.playbackRate));
        }),
      );
      subscriptions.add(
        player.model$.subscribe((m) => {
          watch(keys.captionsLanguage, m.captions.enabled ? (m.captions.languageCode ?? '') : '');
          watch(keys.quality, m.qualityPreference);
        }),
      );
    }),
  );
  return { stop: () => subscriptions.unsubscribe() };
}
