import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useObservable, useObservableCallback, useObservableState, useSubscription } from 'observable-hooks';
import { fromEvent, map, type Observable, startWith } from 'rxjs';
import { parseBooleanVar } from '../../../streams/config/playerConfig';
import { controlsVisibility } from '../../../streams/player/controlsVisibility';
import { shortcutCommand } from '../../../streams/player/shortcutCommand';
import type { PlayerCommand, PlayerInfo } from '../../../streams/player/types';

/** What the player vars allow: the control bar (`controls`), the keyboard (`disablekb`) and full screen (`fs`). */
export function embedFeatures(vars: { controls?: string; disablekb?: string; fs?: string }) {
  return {
    controls: parseBooleanVar(vars.controls) !== false,
    keyboard: parseBooleanVar(vars.disablekb) !== true,
    allowFullscreen: parseBooleanVar(vars.fs) !== false,
  };
}

/** Keys a focused form control or button keeps for itself. */
export const ownsKey = (target: EventTarget | null, key: string) => {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') return true;
  if (el.tagName === 'BUTTON' && (key === ' ' || key === 'Enter')) return true;
  return (el.getAttribute('role') ?? '').startsWith('menuitem');
};

/**
 * Keyboard focus stays in the player. When the focused element leaves the page (the big play button once playback
 * starts, the end screen's Replay, a closed menu) the browser drops focus to `<body>`, where the shortcuts do not
 * reach; the player element (tabindex -1) takes it back. Only while the frame has focus: a viewer who moved on to the
 * host page is left alone. Programmatic focus keeps the browser's :focus-visible choice, so a mouse user sees no ring.
 */
export function useFocusKeeper(el: HTMLDivElement) {
  useEffect(() => {
    const reclaim = () => {
      const active = document.activeElement;
      if ((active === null || active === document.body) && document.hasFocus() && el.isConnected) el.focus({ preventScroll: true });
    };
    // A removed element gets no blur event in Chromium: watch the player's tree for removals instead.
    const observer = new MutationObserver(reclaim);
    observer.observe(el, { childList: true, subtree: true });
    return () => {
      observer.disconnect();
    };
  }, [el]);
}

/** What the controls add to the shell's root (not a React element): its class, and whether they are shown. */
export function applyRootState(el: HTMLElement, className: string, controlsVisible: string) {
  el.className = className;
  el.dataset.controlsVisible = controlsVisible;
}

/** Native listeners on a shell element (not a React element) for the component's life, each calling the latest handler. */
export function useListeners(target: EventTarget, listeners: Record<string, (e: Event) => void>) {
  const latest = useRef(listeners);
  useLayoutEffect(() => {
    latest.current = listeners;
  });
  const types = Object.keys(listeners).join(' ');
  useEffect(() => {
    const bound = types.split(' ').map((type) => [type, (e: Event) => latest.current[type]?.(e)] as const);
    for (const [type, listener] of bound) target.addEventListener(type, listener);
    return () => {
      for (const [type, listener] of bound) target.removeEventListener(type, listener);
    };
  }, [target, types]);
}

/** The latest value of `value$`, read on demand (a ref): a new value renders nothing. */
export function useLatest<T>(value$: Observable<T>, initial: T): RefObject<T> {
  const latest = useRef(initial);
  useSubscription(value$, (value) => {
    latest.current = value;
  });
  return latest;
}

/**
 * Whether the controls show: they auto-hide while playing, and any pointer or key activity (`onActivity`) brings them
 * back; `onHide` hides them at once while playing (a single tap on the video while they are up).
 */
export function useControlsVisibility(playing: boolean): [onActivity: (e: unknown) => void, visible: boolean, onHide: () => void] {
  const [onActivity, activity$] = useObservableCallback<unknown>((e$) => e$);
  const [onHide, hide$] = useObservableCallback<unknown>((e$) => e$);
  const visible$ = useObservable((inputs$) => controlsVisibility(activity$, inputs$.pipe(map(([p]) => p)), { hide$ }), [playing]);
  return [onActivity, useObservableState(visible$, true), () => onHide(null)];
}

/** Whether the document shows an element in full screen. */
export function useFullscreen(): boolean {
  const fullscreen$ = useObservable(() =>
    fromEvent(document, 'fullscreenchange').pipe(
      map(() => document.fullscreenElement !== null),
      startWith(document.fullscreenElement != null),
    ),
  );
  return useObservableState(fullscreen$, false);
}

/** Leaves full screen, or shows `el` in full screen. */
export function toggleFullscreen(el: HTMLElement) {
  if (document.fullscreenElement) void document.exitFullscreen?.().catch(() => undefined);
  else void el.requestFullscreen?.().catch(() => undefined);
}

/**
 * The player's panels: the settings menu and the playlist (one at a time: both sit top right), the shortcut list and
 * the stats panel.
 * Closing the settings menu (Escape, a choice) puts focus back on the Settings button (WAI-ARIA menu button); closing
 * the shortcut list puts it back where it was before, else on the player.
 */
export function usePanels(root: HTMLElement) {
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [playlistOpen, setPlaylistOpen] = useState(false);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const [statsOpen, setStatsOpen] = useState(false);
  const beforeShortcuts = useRef<HTMLElement | null>(null);
  return {
    settingsOpen,
    playlistOpen,
    shortcutsOpen,
    statsOpen,
    /** The stats panel opens (its menu entry) or opens and closes (its key); it takes no focus: playback goes on. */
    openStats: (open: boolean) => setStatsOpen(open),
    toggleStats: () => setStatsOpen((open) => !open),
    openSettings: (open: boolean) => {
      setSettingsOpen(open);
      if (open) setPlaylistOpen(false);
    },
    openPlaylist: (open: boolean) => {
      setPlaylistOpen(open);
      if (open) setSettingsOpen(false);
    },
    closeSettings: () => {
      setSettingsOpen(false);
      root.querySelector<HTMLElement>('.vf-settings')?.focus();
    },
    closePlaylist: () => setPlaylistOpen(false),
    /** Escape: the settings menu and the playlist close. */
    closeMenus: () => {
      setSettingsOpen(false);
      setPlaylistOpen(false);
    },
    openShortcuts: () => {
      beforeShortcuts.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      setSettingsOpen(false);
      setShortcutsOpen(true);
    },
    closeShortcuts: () => {
      setShortcutsOpen(false);
      const back = beforeShortcuts.current;
      (back && back.isConnected && back !== document.body ? back : root).focus({ preventScroll: true });
    },
  };
}

export type Panels = ReturnType<typeof usePanels>;

interface ShortcutKeyOptions {
  /** `disablekb` off. */
  keyboard: boolean;
  allowFullscreen: boolean;
  panels: Panels;
  /** The latest info (the view's keeps the time of its last non-time change): ←/→/j/l seek from now. */
  latestInfo: RefObject<PlayerInfo>;
  toggleFullscreen: () => void;
  command: (command: PlayerCommand) => void;
}

/**
 * What a key pressed on the player does: nothing when the keyboard is off or a focused control keeps the key; Escape
 * closes the menus; a shortcut ({@link shortcutCommand}) sends its command or opens its view.
 */
export function onShortcutKey(e: KeyboardEvent, { keyboard, allowFullscreen, panels, latestInfo, toggleFullscreen, command }: ShortcutKeyOptions) {
  if (!keyboard || ownsKey(e.target, e.key)) return;
  if (e.key === 'Escape') {
    panels.closeMenus();
    return;
  }
  const result = shortcutCommand(e, latestInfo.current);
  if (!result) return;
  e.preventDefault();
  if ('view' in result) {
    if (result.view === 'shortcuts') panels.openShortcuts();
    else if (result.view === 'stats') panels.toggleStats();
    else if (allowFullscreen) toggleFullscreen();
  } else command(result.command);
}
