import { BehaviorSubject } from 'rxjs';
import { bindShellClicks, bindShellState, buildPlayerShell, findPlayerShell } from '../../../../src/embed/player/playerShell';
import { servicesDue$, viewerReach$ } from '../../../../src/embed/page/chunkDemands';
import { configFor } from '../../../streams/player/fixtures';
import type { VideoData } from '../../../../src/embed/player/EmbedPlayer';
import { PlayerState, type PlayerStateValue } from '../../../../streams/player/playerState';
import type { PlayerReadiness } from '../../../../streams/player/playerReadiness';
import type { PlayerCommand } from '../../../../streams/player/types';
import { SERVICES_LATEST_LOAD_MS } from '../../../../streams/timing';

/** A window whose load state and idle callbacks the test drives (idle 5 ms after asked). */
function fakeWindow(readyState: DocumentReadyState) {
  const target = new EventTarget();
  return Object.assign(target, {
    document: { readyState },
    requestIdleCallback: (cb: (d: { didTimeout: boolean; timeRemaining(): number }) => void) =>
      setTimeout(() => cb({ didTimeout: false, timeRemaining: () => 10 }), 5) as unknown as number,
    cancelIdleCallback: (handle: number) => clearTimeout(handle),
  }) as unknown as Window;
}

describe('servicesDue$: when the services are brought in, and from when the controls may be (issue 15)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('after ready, on the first idle period of a loaded page; not before ready', () => {
    const readiness$ = new BehaviorSubject<PlayerReadiness>('loading');
    const due = jest.fn();
    servicesDue$(readiness$, fakeWindow('complete')).subscribe(due);
    jest.advanceTimersByTime(100);
    expect(due).not.toHaveBeenCalled();
    readiness$.next('ready');
    jest.advanceTimersByTime(4);
    expect(due).not.toHaveBeenCalled(); // waits for the idle period
    jest.advanceTimersByTime(1);
    expect(due).toHaveBeenCalledTimes(1);
  });

  it('a page still loading waits for its load event, then for idle', () => {
    const win = fakeWindow('interactive');
    const due = jest.fn();
    servicesDue$(new BehaviorSubject<PlayerReadiness>('ready'), win).subscribe(due);
    jest.advanceTimersByTime(200);
    expect(due).not.toHaveBeenCalled();
    win.dispatchEvent(new Event('load'));
    jest.advanceTimersByTime(5);
    expect(due).toHaveBeenCalledTimes(1);
  });

  it('at SERVICES_LATEST_LOAD_MS at the latest, ready or not, once', () => {
    const due = jest.fn();
    servicesDue$(new BehaviorSubject<PlayerReadiness>('loading'), fakeWindow('interactive')).subscribe(due);
    jest.advanceTimersByTime(SERVICES_LATEST_LOAD_MS - 1);
    expect(due).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    jest.advanceTimersByTime(5000);
    expect(due).toHaveBeenCalledTimes(1);
  });
});

describe('the player shell', () => {
  it('is found where the server wrote it, or built when the page has none', () => {
    const container = document.createElement('div');
    container.innerHTML = '<div class="vf-player" tabindex="-1"><video class="vf-video" src="/m.webm" preload="auto"></video><div class="vf-ui"></div></div>';
    const written = container.querySelector('video');
    expect(findPlayerShell(container).video).toBe(written);
    const empty = document.createElement('div');
    const built = findPlayerShell(empty);
    expect(built.root.parentElement).toBe(empty);
    expect(built.video.className).toBe('vf-video');
    expect(built.video.hasAttribute('src')).toBe(false);
    expect(built.ui.parentElement).toBe(built.root);
  });

  it('until the controls come, a click on the video plays, or pauses a playing one; released, it does nothing', () => {
    const shell = buildPlayerShell(document.createElement('div'));
    const state$ = new BehaviorSubject<PlayerStateValue>(PlayerState.CUED);
    const commands: PlayerCommand[] = [];
    const release = bindShellClicks(shell, { state$, command: (c) => commands.push(c) });
    shell.video.click();
    state$.next(PlayerState.PLAYING);
    shell.video.click();
    release();
    shell.video.click();
    expect(commands).toEqual([{ type: 'play' }, { type: 'pause' }]);
  });

  it('until the controls come, k and Space on the focused player play or pause it (Space not scrolling); released, they do nothing', () => {
    const shell = buildPlayerShell(document.createElement('div'));
    const state$ = new BehaviorSubject<PlayerStateValue>(PlayerState.PLAYING);
    const commands: PlayerCommand[] = [];
    const release = bindShellClicks(shell, { state$, command: (c) => commands.push(c) });
    const press = (key: string, init: KeyboardEventInit = {}, target: Element = shell.root) => {
      const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init });
      target.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(press('k')).toBe(true);
    state$.next(PlayerState.PAUSED);
    expect(press(' ')).toBe(true);
    // Not a shortcut, a modified key, a held key, or a key meant for something inside the player: left alone.
    expect([press('j'), press('k', { ctrlKey: true }), press('k', { repeat: true }), press('k', {}, shell.ui)]).toEqual([false, false, false, false]);
    release();
    expect(press('k')).toBe(false);
    expect(commands).toEqual([{ type: 'pause' }, { type: 'play' }]);
  });
});

describe('the shell without the controls (issue 15: they load on demand)', () => {
  it("keeps the frame's size, id and theme, the player's state and readiness, the video's poster and name, and the title", () => {
    const base = configFor();
    const config = { ...base, args: { ...base.args, theme: 'light' as const } };
    const shell = buildPlayerShell(document.createElement('div'));
    shell.video.setAttribute('aria-label', 'As the server wrote it');
    const state$ = new BehaviorSubject<PlayerStateValue>(PlayerState.UNSTARTED);
    const readiness$ = new BehaviorSubject<PlayerReadiness>('loading');
    const videoData$ = new BehaviorSubject<VideoData | null>(null);
    document.title = 'before';
    const subscription = bindShellState(shell, { config, state$, readiness$, videoData$ });
    const root = shell.root;
    expect([root.id, root.style.width, root.dataset.theme, root.dataset.state, root.dataset.readiness]).toEqual([
      'video-player',
      '100%',
      'light',
      '-1',
      'loading',
    ]);
    // Until the video data comes the element keeps what the server wrote; the title waits for ready.
    expect([shell.video.getAttribute('aria-label'), document.title]).toEqual(['As the server wrote it', 'before']);
    videoData$.next({ videoId: 'VFsunrise01', title: 'Sunrise', author: 'Samples', durationSeconds: 12, posterUrl: '/p.jpg' });
    expect(document.title).toBe('before');
    readiness$.next('ready');
    state$.next(PlayerState.BUFFERING);
    expect([root.dataset.readiness, root.dataset.state, shell.video.getAttribute('poster'), shell.video.getAttribute('aria-label'), document.title]).toEqual([
      'ready',
      '3',
      '/p.jpg',
      'Sunrise',
      'Sunrise - VidFrame',
    ]);
    videoData$.next({ videoId: 'VFcitylight', title: 'City lights', author: 'Samples', durationSeconds: 9 });
    expect([shell.video.hasAttribute('poster'), document.title]).toEqual([false, 'City lights - VidFrame']);
    // A video loading or failed has no data: no poster or name of the one before.
    videoData$.next({ videoId: 'VFsunrise01', title: 'Sunrise', author: 'Samples', durationSeconds: 12, posterUrl: '/p.jpg' });
    videoData$.next(null);
    expect([shell.video.hasAttribute('poster'), shell.video.getAttribute('aria-label')]).toEqual([false, 'Video player']);
    subscription.unsubscribe();
    state$.next(PlayerState.PLAYING);
    expect(root.dataset.state).toBe('3');
  });

  it('viewerReach$: a pointer, touch, key or focus in the frame says the viewer reaches for the player; a mouse leaving does not', () => {
    const seen: string[] = [];
    const subscription = viewerReach$(window).subscribe((e) => seen.push(e.type));
    document.body.dispatchEvent(new Event('pointerout', { bubbles: true }));
    document.body.dispatchEvent(new Event('pointerover', { bubbles: true }));
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'k', bubbles: true }));
    // Seen in the capture phase, even when a handler stops it.
    const stopper = document.createElement('button');
    document.body.appendChild(stopper);
    stopper.addEventListener('pointerdown', (e) => e.stopPropagation());
    stopper.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    stopper.focus();
    window.dispatchEvent(new Event('focus'));
    subscription.unsubscribe();
    document.body.dispatchEvent(new Event('touchstart', { bubbles: true }));
    expect(seen).toEqual(['pointerover', 'keydown', 'pointerdown', 'focusin', 'focus']);
    stopper.remove();
  });
});
