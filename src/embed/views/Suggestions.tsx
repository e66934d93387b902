import { type MouseEvent, useId, useState } from 'react';
import { useObservable, useObservableState } from 'observable-hooks';
import { defer, filter, map, switchMap, tap } from 'rxjs';
import type { Suggestion } from '../../../streams/player/endScreenSuggestions';
import type { SuggestionLoader } from '../services/suggestions';
import { useI18n } from '../i18n/I18nContext';
import './suggestions.css';

/**
 * The suggestions for `videoId`, asked only once they are `wanted` (the video ended, or paused after its start): a
 * video nobody pauses makes no call. A video is asked once; one whose answer was empty (a failed call answers none) is
 * asked again the next time they are wanted. Until they come, and for another video, none.
 */
export function useSuggestions(load: SuggestionLoader | undefined, videoId: string | undefined, wanted: boolean): Suggestion[] {
  const got$ = useObservable(
    (inputs$) =>
      defer(() => {
        let answered: readonly [SuggestionLoader, string] | null = null;
        return inputs$.pipe(
          filter(([l, id, w]) => l !== undefined && id !== undefined && w),
          map(([l, id]) => [l!, id!] as const),
          filter(([l, id]) => answered === null || answered[0] !== l || answered[1] !== id),
          switchMap(([l, id]) =>
            l(id).pipe(
              tap((list) => (answered = list.length > 0 ? [l, id] : answered)),
              map((list) => ({ videoId: id, list })),
            ),
          ),
        );
      }),
    [load, videoId, wanted],
  );
  const got = useObservableState(got$, null);
  return got && got.videoId === videoId ? got.list : [];
}

/** The embed URL of another video with this page's player parameters (what the link offers a new tab, a copy). */
const embedHref = (videoId: string) => {
  const url = new URL(window.location.href);
  url.pathname = `/embed/${encodeURIComponent(videoId)}`;
  url.searchParams.delete('start');
  return url.href;
};

/**
 * The suggestions as a list of links (WAI-ARIA: a list of links is a `<ul>` of `<a href>`; each link's name is the
 * title, the channel and the length). A plain click loads the video through the player's own `loadVideo` command, so
 * the host page sees it as any other video change (its state and video-data events); a modified click (new tab,
 * window) follows the link to that video's embed with the same player parameters.
 */
export function SuggestionList({
  suggestions,
  onOpen,
  id,
  className,
  hidden,
}: {
  suggestions: Suggestion[];
  onOpen: (videoId: string) => void;
  id?: string;
  className: string;
  hidden?: boolean;
}) {
  const { t } = useI18n();
  const open = (e: MouseEvent<HTMLAnchorElement>, videoId: string) => {
    if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    onOpen(videoId);
  };
  return (
    <ul className={`vf-suggestions ${className}`} id={id} aria-label={t('suggestedVideos')} hidden={hidden}>
      {suggestions.map((s) => (
        <li key={s.videoId} className="vf-suggestion-item">
          <a
            className="vf-suggestion"
            href={embedHref(s.videoId)}
            target="_self"
            aria-label={t('suggestionName', { title: s.title, channel: s.channel, length: s.length })}
            onClick={(e) => open(e, s.videoId)}
          >
            {/* The words in the order of the link's name, apart (label in name); CSS draws the thumbnail first. */}
            <span className="vf-suggestion-title">{s.title}</span> <span className="vf-suggestion-channel">{s.channel}</span>{' '}
            <span className="vf-suggestion-thumb">
              {s.thumbnailUrl && <img src={s.thumbnailUrl} alt="" loading="lazy" />}
              <span className="vf-suggestion-length">{s.length}</span>
            </span>
          </a>
        </li>
      ))}
    </ul>
  );
}

/**
 * The pause screen's "More videos" strip, above the control bar: a disclosure button (WAI-ARIA disclosure:
 * `aria-expanded`, `aria-controls`) that opens and collapses a row of suggestions. It starts open, as YouTube's does.
 */
export function MoreVideos({ suggestions, onOpen }: { suggestions: Suggestion[]; onOpen: (videoId: string) => void }) {
  const [open, setOpen] = useState(true);
  const listId = useId();
  const { t } = useI18n();
  if (suggestions.length === 0) return null;
  return (
    <div className={open ? 'vf-morevideos vf-morevideos-open' : 'vf-morevideos'}>
      <button type="button" className="vf-morevideos-toggle" aria-expanded={open} aria-controls={listId} onClick={() => setOpen(!open)}>
        {t(open ? 'hideMoreVideos' : 'moreVideos')}
      </button>
      <SuggestionList suggestions={suggestions} onOpen={onOpen} id={listId} className="vf-morevideos-list" hidden={!open} />
    </div>
  );
}
