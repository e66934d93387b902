import { distinctUntilChanged, filter, first, map, merge, type Observable, shareReplay, skip, Subscription, switchMap } from 'rxjs';
import { createPreferenceStore } from '../../streams/identity/preferences';
import { PREFERENCE_COOKIE_NAME } from '../../streams/identity/parsePreferenceCookie';
import { frameCookie } from './frameCookie';
import type { EmbedPlayer } from './EmbedPlayer';
import { numberText } from '../../streams/shared/numberText';

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

  // Changes after the stored choices were applied are the viewer's: written back.
  /** A preference's value as the player shows it; its changes after the stored choices were applied are written back. */
  const watched = <T>(state$: Observable<T>, key: string, valueOf: (state: T) => string) =>
    state$.pipe(
      map(valueOf),
      distinctUntilChanged(),
      skip(1),
      map((value) => [key, value] as const),
    );
  const changes$ = ready$.pipe(
    switchMap(() => {
      // The element's snapshot comes with every media event (four times a second while playing): one comparison per
      // event, and the three media preferences see only a snapshot in which one of their values changed (issue 15).
      const choices$ = player.media$.pipe(
        distinctUntilChanged((a, b) => a.volume === b.volume && a.muted === b.muted && a.playbackRate === b.playbackRate),
        shareReplay({ bufferSize: 1, refCount: true }),
      );
      return merge(
        watched(choices$, keys.volume, (m) => numberText(Math.round(m.volume * 100))),
        watched(choices$, keys.muted, (m) => (m.muted ? '1' : '0')),
        watched(choices$, keys.playbackRate, (m) => numberText(m.playbackRate)),
        watched(player.model$, keys.captionsLanguage, (m) => (m.captions.enabled ? (m.captions.languageCode ?? '') : '')),
        watched(player.model$, keys.quality, (m) => m.qualityPreference),
      );
    }),
  );
  subscriptions.add(changes$.subscribe(([key, value]) => save(key, value)));
  return { stop: () => subscriptions.unsubscribe() };
}
