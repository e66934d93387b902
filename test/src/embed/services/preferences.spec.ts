import { BehaviorSubject, Observable } from 'rxjs';
import type { EmbedPlayer } from '../../../../src/embed/player/EmbedPlayer';
import { startPreferences } from '../../../../src/embed/services/preferences';
import { EMPTY_MEDIA_SNAPSHOT, type MediaSnapshot } from '../../../../streams/player/playerInfo';
import { initialPlayerModel } from '../../../../streams/player/playerModel';
import { configFor } from '../../../streams/player/fixtures';

/** A player whose element snapshots the test drives; `subscriptions` counts the subscribers of its `media$`. */
function fakePlayer() {
  const config = configFor();
  const media = new BehaviorSubject<MediaSnapshot>({ ...EMPTY_MEDIA_SNAPSHOT, volume: 1, muted: false, playbackRate: 1 });
  const counts = { subscriptions: 0 };
  const media$ = new Observable<MediaSnapshot>((subscriber) => {
    counts.subscriptions++;
    return media.subscribe(subscriber);
  });
  const player = {
    config,
    readiness$: new BehaviorSubject<'loading' | 'ready'>('ready'),
    model$: new BehaviorSubject(initialPlayerModel(config)),
    media$,
    command: () => undefined,
  } as unknown as EmbedPlayer;
  const next = (patch: Partial<MediaSnapshot>) => media.next({ ...media.value, ...patch });
  return { player, next, counts };
}

const pref = () => decodeURIComponent(/(?:^|; )PREF=([^;]*)/.exec(document.cookie)?.[1] ?? '');

describe('startPreferences (issue 15: one comparison per media event)', () => {
  beforeEach(() => {
    document.cookie = 'PREF=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
    localStorage.clear();
  });

  it('keeps the volume, mute and rate the viewer changes, not the ones the player started with, and not the time', () => {
    const { player, next } = fakePlayer();
    const prefs = startPreferences(player, window);
    next({ currentTime: 1 });
    next({ currentTime: 2 });
    expect(pref()).toBe('');
    next({ volume: 0.5, currentTime: 3 });
    expect(pref()).toContain('volume=50');
    next({ muted: true });
    next({ playbackRate: 1.5, currentTime: 4 });
    expect(pref()).toMatch(/muted=1/);
    expect(pref()).toMatch(/playback_rate=1\.5/);
    next({ muted: false });
    expect(pref()).toMatch(/muted=0/);
    prefs.stop();
  });

  it('subscribes to the element snapshots once for its three media preferences', () => {
    const { player, next, counts } = fakePlayer();
    const prefs = startPreferences(player, window);
    next({ currentTime: 1 });
    next({ volume: 0.25 });
    expect(counts.subscriptions).toBe(1);
    prefs.stop();
  });

  it('keeps the captions language and quality the model changes to, from ready on, and nothing after stop', () => {
    const { player, next } = fakePlayer();
    const readiness$ = player.readiness$ as BehaviorSubject<'loading' | 'ready'>;
    const model$ = player.model$ as BehaviorSubject<ReturnType<typeof initialPlayerModel>>;
    readiness$.next('loading');
    const prefs = startPreferences(player, window);
    // Before ready nothing is watched: a change then is the player starting, not the viewer.
    next({ volume: 0.3 });
    model$.next({ ...model$.value, qualityPreference: 'small' });
    expect(pref()).toBe('');
    readiness$.next('ready');
    // The values at ready are where the viewer starts from: not written.
    expect(pref()).toBe('');
    model$.next({ ...model$.value, qualityPreference: 'hd720' });
    expect(pref()).toContain('quality=hd720');
    model$.next({ ...model$.value, captions: { ...model$.value.captions, enabled: true, languageCode: 'fr' } });
    expect(pref()).toContain('captions_lang=fr');
    // The same values again (another model change) write nothing new.
    document.cookie = 'PREF=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
    localStorage.clear();
    model$.next({ ...model$.value, loadSeq: model$.value.loadSeq + 1 });
    next({ currentTime: 5 });
    expect(pref()).toBe('');
    prefs.stop();
    next({ volume: 0.9 });
    model$.next({ ...model$.value, qualityPreference: 'large' });
    expect(pref()).toBe('');
  });
});
