import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { PlayerInfo } from '../../../streams/player/types';
import type { EmbedPlayer } from '../player/EmbedPlayer';

const rateLabel = (r: number) => (r === 1 ? 'Normal' : `${r}×`);
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

type Page = 'main' | 'speed' | 'quality' | 'captions';
const PAGE_TITLES: Record<Exclude<Page, 'main'>, string> = { speed: 'Playback speed', quality: 'Quality', captions: 'Subtitles/CC' };

interface Item {
  key: string;
  role: 'menuitem' | 'menuitemradio';
  checked?: boolean;
  /** A main-list row opens this sub-list. */
  opens?: Exclude<Page, 'main'>;
  className: string;
  content: ReactNode;
  run: () => void;
}

const Chevron = ({ back = false }: { back?: boolean }) => (
  <svg className="vf-menu-chevron" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
    <path fill="currentColor" d={back ? 'M15.4 7.4 14 6l-6 6 6 6 1.4-1.4-4.6-4.6z' : 'M8.6 16.6 10 18l6-6-6-6-1.4 1.4 4.6 4.6z'} />
  </svg>
);
const Tick = () => (
  <svg className="vf-menu-tick" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
    <path fill="currentColor" d="M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4z" />
  </svg>
);

/**
 * The settings menu, one column as a drill-down (it fits the smallest player): a main list ("Playback speed  Normal >",
 * "Quality  360p >", "Subtitles/CC  Off >") whose rows open a sub-list of radio items headed by a Back item. It follows
 * the WAI-ARIA menu pattern: opening focuses the first row (a sub-list its checked item); ↑/↓ move (wrapping), Home/End
 * go to the ends, → opens a row's sub-list and ← goes back; one Tab stop (roving tabindex); Escape or a choice closes it
 * and `onClose` gives focus back to the Settings button. The tick is an image (aria-hidden), never part of a name.
 */
export function SettingsMenu({ player, info, onClose }: { player: EmbedPlayer; info: PlayerInfo; onClose: () => void }) {
  const [page, setPage] = useState<Page>('main');
  const [active, setActive] = useState(0);
  const itemRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const choose = (run: () => void) => () => {
    run();
    onClose();
  };
  const open = (to: Page, focusIndex?: number) => {
    setPage(to);
    setActive(focusIndex ?? -1);
  };

  const captionLabel = info.captionTrack ? info.captionTrack.displayName : 'Off';
  const qualities = info.availableQualityLevels.filter((q) => q !== 'auto');
  const rows: { page: Exclude<Page, 'main'>; value: string }[] = [
    { page: 'speed', value: rateLabel(info.playbackRate) },
    ...(qualities.length > 0 ? [{ page: 'quality' as const, value: QUALITY_LABELS[info.playbackQuality] ?? info.playbackQuality }] : []),
    ...(info.captionTracks.length > 0 ? [{ page: 'captions' as const, value: captionLabel }] : []),
  ];

  const radio = (key: string, label: string, checked: boolean, run: () => void): Item => ({
    key,
    role: 'menuitemradio',
    checked,
    className: 'vf-menu-item vf-menu-choice',
    content: (
      <>
        <span className="vf-menu-check">{checked && <Tick />}</span>
        <span className="vf-menu-label">{label}</span>
      </>
    ),
    run: choose(run),
  });

  let items: Item[];
  if (page === 'main') {
    items = rows.map((row) => ({
      key: row.page,
      role: 'menuitem',
      opens: row.page,
      className: 'vf-menu-item vf-menu-row',
      content: (
        <>
          <span className="vf-menu-label">{PAGE_TITLES[row.page]}</span>
          <span className="vf-menu-value">{row.value}</span>
          <Chevron />
        </>
      ),
      run: () => open(row.page),
    }));
  } else {
    const back: Item = {
      key: 'back',
      role: 'menuitem',
      className: 'vf-menu-item vf-menu-back',
      content: (
        <>
          <Chevron back />
          <span className="vf-menu-label">Back</span>
          <span className="vf-menu-subtitle" aria-hidden="true">
            {PAGE_TITLES[page]}
          </span>
        </>
      ),
      run: () =>
        open(
          'main',
          rows.findIndex((r) => r.page === page),
        ),
    };
    const choices =
      page === 'speed'
        ? info.availablePlaybackRates.map((r) =>
            radio(`rate-${r}`, rateLabel(r), r === info.playbackRate, () => player.command({ type: 'setPlaybackRate', rate: r })),
          )
        : page === 'quality'
          ? qualities.map((q) =>
              radio(`q-${q}`, QUALITY_LABELS[q] ?? q, q === info.playbackQuality, () => player.command({ type: 'setPlaybackQuality', quality: q })),
            )
          : [
              radio('cc-off', 'Off', info.captionTrack === null, () => player.command({ type: 'setCaptions', enabled: false })),
              ...info.captionTracks.map((t) =>
                radio(`cc-${t.languageCode}`, t.displayName, info.captionTrack?.languageCode === t.languageCode, () =>
                  player.command({ type: 'setCaptions', enabled: true, languageCode: t.languageCode }),
                ),
              ),
            ];
    items = [back, ...choices];
  }

  // Where focus goes on opening a list: the index asked for, else the checked item, else the first (after Back).
  const checkedIndex = items.findIndex((it) => it.checked);
  const current = active >= 0 && active < items.length ? active : checkedIndex >= 0 ? checkedIndex : page === 'main' ? 0 : Math.min(1, items.length - 1);
  useEffect(() => {
    itemRefs.current[current]?.focus();
    // Only on opening and on moving between lists (the arrow keys move focus themselves), so `current` is read, not a
    // dependency: a change of the focused item alone must not move focus again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [page]);

  // The buttons register themselves (their ref callbacks); entries of a longer list left before are dropped.
  const itemCount = items.length;
  useLayoutEffect(() => {
    itemRefs.current.length = itemCount;
  });

  const move = (to: number) => {
    const n = items.length;
    const i = ((to % n) + n) % n;
    setActive(i);
    itemRefs.current[i]?.focus();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = itemRefs.current.findIndex((el) => el === document.activeElement);
    const from = at >= 0 ? at : current;
    let handled = true;
    switch (e.key) {
      case 'ArrowDown':
        move(from + 1);
        break;
      case 'ArrowUp':
        move(from - 1);
        break;
      case 'Home':
        move(0);
        break;
      case 'End':
        move(items.length - 1);
        break;
      case 'ArrowRight':
        if (items[from]?.opens) items[from].run();
        break;
      case 'ArrowLeft':
        if (page !== 'main')
          open(
            'main',
            rows.findIndex((r) => r.page === page),
          );
        break;
      case 'Escape':
        onClose();
        break;
      default:
        handled = false;
    }
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  };

  return (
    <div className="vf-menu" role="menu" aria-label={page === 'main' ? 'Settings' : PAGE_TITLES[page]} data-page={page} onKeyDown={onKeyDown}>
      {items.map((it, i) => (
        <button
          key={`${page}-${it.key}`}
          ref={(el) => {
            itemRefs.current[i] = el;
          }}
          type="button"
          role={it.role}
          aria-checked={it.role === 'menuitemradio' ? it.checked === true : undefined}
          aria-haspopup={it.opens ? 'menu' : undefined}
          tabIndex={i === current ? 0 : -1}
          className={it.className}
          onFocus={() => setActive(i)}
          onClick={it.run}
        >
          {it.content}
        </button>
      ))}
    </div>
  );
}
