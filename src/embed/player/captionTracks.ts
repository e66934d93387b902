import { BehaviorSubject, type Observable } from 'rxjs';
import type { CaptionTrackInfo } from '../../../streams/config/playerConfig';
import { numberText } from '../../../streams/shared/numberText';

/**
 * The element's caption tracks and the cues showing. The element is the record of what it has: its `<track>`s (the
 * ones built here) and the one track in `hidden` mode, the language shown.
 */
export interface CaptionTracks {
  /** The cues showing now (`[]` when none), hot, replaying the latest; a list only when it is not the one shown. */
  readonly cues$: Observable<readonly TextTrackCue[]>;
  /**
   * Gives the element these tracks. `reload` > 0 asks for the files again under a new URL, past every cache (the
   * `reload`-th reload); with 0 the same tracks as the element has are kept as they are.
   */
  setTracks(el: HTMLVideoElement, tracks: readonly CaptionTrackInfo[], reload?: number): void;
  /** Shows the track of this language (its cues), or none. */
  show(el: HTMLVideoElement, languageCode: string | null): void;
  /** No cues showing. */
  clear(): void;
}

/** Whether two lists of cues are the same cues, in the same order. */
export function sameCues(a: readonly TextTrackCue[], b: readonly TextTrackCue[]): boolean {
  return a === b || (a.length === b.length && a.every((cue, i) => cue === b[i]));
}

/** The cues of a track showing now, in order ([] when it has none or is not loaded). */
function activeCuesOf(track: TextTrack): readonly TextTrackCue[] {
  const cues = track.activeCues;
  return cues ? Array.from(cues) : [];
}

export function createCaptionTracks(): CaptionTracks {
  const cues$ = new BehaviorSubject<readonly TextTrackCue[]>([]);
  /** The `<track>` elements built here, as given (without a reload URL). */
  const built = new WeakSet<Element>();

  // An empty list again (each load of a video without captions on, each loop) would render the player for nothing.
  const showCues = (cues: readonly TextTrackCue[]) => {
    if (!sameCues(cues$.value, cues)) cues$.next(cues);
  };

  /** Whether the element has these tracks, built here as given, in this order. */
  const hasTracks = (el: HTMLVideoElement, tracks: readonly CaptionTrackInfo[]) => {
    const shown = Array.from(el.querySelectorAll('track'));
    return (
      shown.length === tracks.length &&
      shown.every((t, i) => {
        const track = tracks[i];
        return track !== undefined && built.has(t) && t.getAttribute('src') === track.url && t.srclang === track.languageCode && t.label === track.languageName;
      })
    );
  };

  const setTracks = (el: HTMLVideoElement, tracks: readonly CaptionTrackInfo[], reload = 0) => {
    // The same tracks again (the video loaded again, a loop): the element keeps its track elements, their loaded cues
    // and listeners, and a shown track does not fetch its file again.
    if (reload === 0 && hasTracks(el, tracks)) return;
    el.querySelectorAll('track').forEach((t) => t.remove());
    for (const t of tracks) {
      const track = el.ownerDocument.createElement('track');
      track.kind = 'subtitles';
      track.src = reload > 0 ? `${t.url}${t.url.includes('?') ? '&' : '?'}reload=${numberText(reload)}` : t.url;
      track.srclang = t.languageCode;
      track.label = t.languageName;
      if (reload === 0) built.add(track);
      track.track.mode = 'disabled';
      track.track.addEventListener('cuechange', () => {
        if (track.track.mode === 'hidden') showCues(activeCuesOf(track.track));
      });
      el.appendChild(track);
    }
  };

  const show = (el: HTMLVideoElement, languageCode: string | null) => {
    let cues: readonly TextTrackCue[] = [];
    for (const track of Array.from(el.textTracks)) {
      const on = languageCode !== null && track.language === languageCode;
      track.mode = on ? 'hidden' : 'disabled';
      if (on) cues = activeCuesOf(track);
    }
    showCues(cues);
  };

  return { cues$, setTracks, show, clear: () => showCues([]) };
}
