import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useObservable, useObservableEagerState } from 'observable-hooks';
import { distinctUntilChanged, map } from 'rxjs';
import type { PlayerInfo } from '../../../streams/player/types';
import type { EmbedPlayer } from '../player/EmbedPlayer';
import { useI18n } from '../i18n/I18nContext';
import { focusIndex, type MenuItem, menuItems, menuRows, PAGE_TITLES, type Page, wrapIndex } from './SettingsMenu.state';

const ITEM_CLASS: Record<MenuItem['kind'], string> = {
  row: 'vf-menu-item vf-menu-row',
  back: 'vf-menu-item vf-menu-back',
  choice: 'vf-menu-item vf-menu-choice',
  action: 'vf-menu-item vf-menu-action',
};

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

/** What an item's button shows: a row its title, value and chevron; Back its list's title; a choice its tick and label. */
function ItemContent({ item }: { item: MenuItem }) {
  const { t } = useI18n();
  switch (item.kind) {
    case 'row':
      return (
        <>
          <span className="vf-menu-label">{t(PAGE_TITLES[item.row.page])}</span>
          <span className="vf-menu-value">{item.row.value}</span>
          <Chevron />
        </>
      );
    case 'back':
      return (
        <>
          <Chevron back />
          <span className="vf-menu-label">{t('back')}</span>
          <span className="vf-menu-subtitle" aria-hidden="true">
            {t(PAGE_TITLES[item.page])}
          </span>
        </>
      );
    case 'action':
      return <span className="vf-menu-label">{item.label}</span>;
    case 'choice':
      return (
        <>
          <span className="vf-menu-check">{item.checked && <Tick />}</span>
          <span className="vf-menu-label">{item.label}</span>
        </>
      );
  }
}

/**
 * The settings menu, one column as a drill-down (it fits the smallest player): a main list ("Playback speed  Normal >",
 * "Quality  360p >", "Subtitles/CC  Off >") whose rows open a sub-list of radio items headed by a Back item. It follows
 * the WAI-ARIA menu pattern: opening focuses the first row (a sub-list its checked item); ↑/↓ move (wrapping), Home/End
 * go to the ends, → opens a row's sub-list and ← goes back; one Tab stop (roving tabindex); Escape or a choice closes it
 * and `onClose` gives focus back to the Settings button. The tick is an image (aria-hidden), never part of a name.
 * While the video streams its ladder the quality list ends with "Auto (480p)" (the quality on screen) and, with
 * `onStats`, the main list ends with "Stats for nerds", which opens the stats panel.
 */
export function SettingsMenu({ player, info, onClose, onStats }: { player: EmbedPlayer; info: PlayerInfo; onClose: () => void; onStats?: () => void }) {
  const [page, setPage] = useState<Page>('main');
  const [active, setActive] = useState(0);
  const itemRefs = useRef<(HTMLButtonElement | null)[]>([]);
  // While streaming: the preference (auto or a level); null for a progressive file.
  const preference$ = useObservable(() =>
    player.model$.pipe(
      map((m) => (m.streaming ? m.qualityPreference : null)),
      distinctUntilChanged(),
    ),
  );
  const preference = useObservableEagerState(preference$);
  const stream = preference === null ? undefined : { preference };
  const i18n = useI18n();
  const rows = menuRows(info, stream, i18n);
  // The stats describe a stream: the entry shows while the video streams its ladder (the `i` key opens them always).
  const items = menuItems(page, info, rows, stream, { stats: onStats !== undefined && stream !== undefined }, i18n);
  const current = focusIndex(items, active, page);

  const open = (to: Page, focusAt?: number) => {
    setPage(to);
    setActive(focusAt ?? -1);
  };
  /** Back to the main list, on the row of the sub-list left. */
  const back = () =>
    open(
      'main',
      rows.findIndex((r) => r.page === page),
    );
  const run = (item: MenuItem) => {
    if (item.kind === 'row') open(item.row.page);
    else if (item.kind === 'back') back();
    else if (item.kind === 'action') {
      onClose();
      onStats?.();
    } else {
      player.command(item.command);
      onClose();
    }
  };

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
    const i = wrapIndex(to, items.length);
    setActive(i);
    itemRefs.current[i]?.focus();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = itemRefs.current.findIndex((el) => el === document.activeElement);
    const from = at >= 0 ? at : current;
    let handled = true;
    // Into a sub-list and back out follow the reading direction: → and ←, or ← and → right to left.
    const key = i18n.dir === 'rtl' && (e.key === 'ArrowRight' || e.key === 'ArrowLeft') ? (e.key === 'ArrowRight' ? 'ArrowLeft' : 'ArrowRight') : e.key;
    switch (key) {
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
        if (items[from]?.kind === 'row') run(items[from]);
        break;
      case 'ArrowLeft':
        if (page !== 'main') back();
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
    <div className="vf-menu" role="menu" aria-label={i18n.t(page === 'main' ? 'settings' : PAGE_TITLES[page])} data-page={page} onKeyDown={onKeyDown}>
      {items.map((it, i) => (
        <button
          key={`${page}-${it.key}`}
          ref={(el) => {
            itemRefs.current[i] = el;
          }}
          type="button"
          role={it.kind === 'choice' ? 'menuitemradio' : 'menuitem'}
          aria-checked={it.kind === 'choice' ? it.checked : undefined}
          aria-haspopup={it.kind === 'row' ? 'menu' : undefined}
          tabIndex={i === current ? 0 : -1}
          className={ITEM_CLASS[it.kind]}
          onFocus={() => setActive(i)}
          onClick={() => run(it)}
        >
          <ItemContent item={it} />
        </button>
      ))}
    </div>
  );
}
