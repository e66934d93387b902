import { Profiler, StrictMode } from 'react';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { BehaviorSubject, Subject } from 'rxjs';
import { EmbedApp } from '../../../../src/embed/views/EmbedApp';
import { buildPlayerShell } from '../../../../src/embed/player/playerShell';
import type { EmbedPlayer, PlayerError, VideoData } from '../../../../src/embed/player/EmbedPlayer';
import { buildPlayerInfo, EMPTY_MEDIA_SNAPSHOT, type MediaSnapshot } from '../../../../streams/player/playerInfo';
import { initialPlayerModel, type PlayerModel } from '../../../../streams/player/playerModel';
import { PlayerState, type PlayerStateValue } from '../../../../streams/player/playerState';
import { reducePlayer } from '../../../../streams/player/reducePlayer';
import { NO_STREAM_STATS } from '../../../../streams/player/streamStats';
import type { PlayerCommand, PlayerInfo } from '../../../../streams/player/types';
import { configFor, response } from '../../../streams/player/fixtures';
import { PLAYER_CONTROLS_AUTOHIDE_MS } from '../../../../streams/timing';

/** A player whose streams the test drives by hand; commands are recorded. */
function fakePlayer(vars: Record<string, string> = {}, state: PlayerStateValue = PlayerState.CUED) {
  const config = configFor(vars);
  const model = reducePlayer(
    initialPlayerModel(config),
    { type: 'videoResponse', seq: 0, response: response('VFsunrise01', true), autoplay: false },
    { currentTime: 0, state, random: () => 0 },
  ).model;
  const media: MediaSnapshot = { ...EMPTY_MEDIA_SNAPSHOT, currentTime: 3, duration: 12, buffered: [[0, 6]] };
  const info$ = new BehaviorSubject<PlayerInfo>(buildPlayerInfo(model, media, state, { origin: 'http://x', nowMs: 0 }));
  const commands: PlayerCommand[] = [];
  const setState = (s: PlayerStateValue, patch: Partial<PlayerInfo> = {}) =>
    info$.next({ ...buildPlayerInfo(model, media, s, { origin: 'http://x', nowMs: 0 }), ...patch });
  const error$ = new BehaviorSubject<PlayerError | null>(null);
  const player: EmbedPlayer = {
    config,
    element$: new BehaviorSubject<HTMLVideoElement | null>(null),
    state$: new BehaviorSubject<PlayerStateValue>(state),
    readiness$: new BehaviorSubject<'loading' | 'ready'>('ready'),
    videoData$: new BehaviorSubject<VideoData | null>({ videoId: 'VFsunrise01', title: 'Sunrise', author: 'Samples', durationSeconds: 12 }),
    error$,
    autoplayBlocked$: new BehaviorSubject(false),
    format: undefined,
    quality$: new BehaviorSubject('medium'),
    model$: new BehaviorSubject<PlayerModel>(model),
    media$: new BehaviorSubject(media),
    captionCues$: new BehaviorSubject<readonly TextTrackCue[]>([]),
    info$,
    events$: new Subject(),
    streamEvents$: new Subject(),
    streamStats$: new BehaviorSubject(NO_STREAM_STATS),
    command: (c) => commands.push(c),
    attach: () => undefined,
    play: () => undefined,
    pause: () => undefined,
  };
  return { player, commands, setState, error$ };
}

/** Renders the controls into a shell as the page has it (the server writes it; here it is built), like `ui.tsx`. */
const hosts: HTMLElement[] = [];
afterEach(() => hosts.splice(0).forEach((host) => host.remove()));
const renderApp = (player: EmbedPlayer, onCommit: () => void = () => undefined) => {
  const host = document.body.appendChild(document.createElement('div'));
  hosts.push(host);
  const shell = buildPlayerShell(host);
  const result = render(
    <StrictMode>
      <Profiler id="embed" onRender={onCommit}>
        <EmbedApp player={player} shell={shell} />
      </Profiler>
    </StrictMode>,
    { container: shell.ui, baseElement: host },
  );
  return { ...result, container: host };
};

describe('EmbedApp (StrictMode)', () => {
  it('a cued video shows the title and the big play button, which sends play', () => {
    const { player, commands } = fakePlayer();
    renderApp(player);
    expect(screen.getByText('Sunrise')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Play' }));
    expect(commands).toEqual([{ type: 'play' }]);
  });

  it('the control bar renders from state and sends commands', () => {
    const { player, commands, setState } = fakePlayer();
    renderApp(player);
    act(() => setState(PlayerState.PLAYING));
    const slider = screen.getByRole('slider', { name: 'Seek' });
    expect(slider.getAttribute('aria-valuenow')).toBe('3');
    expect(slider.getAttribute('aria-valuetext')).toBe('3 seconds of 12 seconds');
    expect(document.querySelectorAll('.vf-seek-buffered')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Pause (k)' }));
    fireEvent.click(screen.getByRole('button', { name: 'Mute (m)' }));
    fireEvent.change(screen.getByRole('slider', { name: 'Volume' }), { target: { value: '40' } });
    fireEvent.click(screen.getByRole('button', { name: 'Subtitles (c)' }));
    // The settings menu is a drill-down: a main list whose rows open the radio items.
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    fireEvent.click(screen.getByRole('menuitem', { name: /^Playback speed/ }));
    fireEvent.click(screen.getByRole('menuitemradio', { name: '1.5×' }));
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    fireEvent.click(screen.getByRole('menuitem', { name: /^Quality/ }));
    fireEvent.click(screen.getByRole('menuitemradio', { name: '240p' }));
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    fireEvent.click(screen.getByRole('menuitem', { name: /^Subtitles/ }));
    fireEvent.click(screen.getByRole('menuitemradio', { name: 'Spanish' }));
    expect(commands).toEqual([
      { type: 'pause' },
      { type: 'mute' },
      { type: 'setVolume', volume: 40 },
      { type: 'setCaptions', enabled: true },
      { type: 'setPlaybackRate', rate: 1.5 },
      { type: 'setPlaybackQuality', quality: 'small' },
      { type: 'setCaptions', enabled: true, languageCode: 'es' },
    ]);
    expect(screen.getByText('0:03')).toBeTruthy();
    expect(screen.getByText('0:12')).toBeTruthy();
  });

  it('arrow keys seek from the latest time, not from the time of the last render of the view (issue 15 render rate)', () => {
    const { player, commands, setState } = fakePlayer();
    const { container } = renderApp(player);
    act(() => setState(PlayerState.PLAYING, { currentTime: 3, duration: 120 }));
    // Only the time moves: the player view does not render again, yet → must seek from 60 s.
    act(() => setState(PlayerState.PLAYING, { currentTime: 60, duration: 120 }));
    fireEvent.keyDown(container.querySelector('.vf-player')!, { key: 'ArrowRight' });
    expect(commands).toEqual([{ type: 'seek', seconds: 65, allowSeekAhead: true }]);
  });

  it('keyboard shortcuts send commands, unless disablekb=1', () => {
    const { player, commands } = fakePlayer();
    const { container, unmount } = renderApp(player);
    const root = container.querySelector('.vf-player')!;
    fireEvent.keyDown(root, { key: 'k' });
    fireEvent.keyDown(root, { key: 'ArrowRight' });
    fireEvent.keyDown(root, { key: 'm' });
    expect(commands).toEqual([{ type: 'play' }, { type: 'seek', seconds: 8, allowSeekAhead: true }, { type: 'mute' }]);
    unmount();
    const off = fakePlayer({ disablekb: '1' });
    const r = renderApp(off.player);
    fireEvent.keyDown(r.container.querySelector('.vf-player')!, { key: 'k' });
    expect(off.commands).toEqual([]);
  });

  it('controls=0 hides the control bar', () => {
    const { player } = fakePlayer({ controls: '0' });
    renderApp(player);
    expect(screen.queryByRole('toolbar')).toBeNull();
    expect(screen.queryByRole('slider', { name: 'Seek' })).toBeNull();
  });

  it('buffering shows the spinner; the end shows replay; an error shows the error screen instead', () => {
    const { player, commands, setState, error$ } = fakePlayer();
    renderApp(player);
    act(() => setState(PlayerState.BUFFERING));
    expect(screen.getByRole('status', { name: 'Loading' })).toBeTruthy();
    act(() => setState(PlayerState.ENDED));
    // Two replay buttons: the end screen's and the control bar's.
    fireEvent.click(document.querySelector('.vf-end-replay')!);
    fireEvent.click(screen.getAllByRole('button', { name: 'Replay' })[1]);
    expect(commands).toEqual([{ type: 'play' }, { type: 'play' }]);
    act(() => error$.next({ internal: 'embedder.identity.denied', code: 152, message: 'Not allowed here.' }));
    const alert = screen.getByRole('alert');
    expect(alert.getAttribute('data-error-code')).toBe('152');
    expect(alert.textContent).toContain('Not allowed here.');
    expect(screen.queryByRole('toolbar')).toBeNull();
  });

  it('a playlist shows previous/next and a panel whose items play', () => {
    const { player, commands, setState } = fakePlayer();
    renderApp(player);
    act(() => setState(PlayerState.PLAYING, { playlist: ['VFsunrise01', 'VFcitylight'], playlistIndex: 0 }));
    act(() =>
      (player.model$ as BehaviorSubject<PlayerModel>).next({
        ...(player.model$ as BehaviorSubject<PlayerModel>).value,
        playlist: { ids: ['VFsunrise01', 'VFcitylight'], listId: null, title: 'Demo', titles: { VFcitylight: 'City lights' }, index: 0, order: null },
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Next video' }));
    fireEvent.click(screen.getByRole('button', { name: 'Playlist' }));
    fireEvent.click(screen.getByRole('button', { name: /City lights/ }));
    expect(commands).toEqual([{ type: 'nextVideo' }, { type: 'playVideoAt', index: 1 }]);
  });

  it('the auto-hidden control bar keeps its played bar still (its time and slider value stay live for screen readers); it catches up when it shows, or takes focus (issue 15)', () => {
    jest.useFakeTimers();
    try {
      const { player, setState } = fakePlayer();
      const { container } = renderApp(player);
      const at = (t: number) => act(() => setState(PlayerState.PLAYING, { currentTime: t, duration: 12 }));
      at(3);
      const chrome = container.querySelector('.vf-chrome')!;
      const slider = screen.getByRole('slider', { name: 'Seek' });
      const played = container.querySelector<HTMLElement>('.vf-seek-played')!;
      expect([screen.getByText('0:03'), slider.getAttribute('aria-valuenow'), played.style.width]).toEqual([expect.anything(), '3', '25%']);
      // No activity while playing: the bar hides.
      act(() => jest.advanceTimersByTime(PLAYER_CONTROLS_AUTOHIDE_MS));
      expect(chrome.classList.contains('vf-chrome-hidden')).toBe(true);
      at(6);
      // Hidden is only transparent: what a screen reader reads moves on (once a second), the played part does not.
      expect([container.querySelector('.vf-time-current')!.textContent, slider.getAttribute('aria-valuenow'), played.style.width]).toEqual([
        '0:06',
        '6',
        '25%',
      ]);
      // A pointer move shows it: the latest time at once.
      fireEvent.pointerMove(container.querySelector('.vf-player')!);
      expect(chrome.classList.contains('vf-chrome-hidden')).toBe(false);
      expect([container.querySelector('.vf-time-current')!.textContent, slider.getAttribute('aria-valuenow'), played.style.width]).toEqual([
        '0:06',
        '6',
        '50%',
      ]);
      // Hidden again, then keyboard focus on the seek bar (`:focus-within` shows it): the time moves while focused.
      act(() => jest.advanceTimersByTime(PLAYER_CONTROLS_AUTOHIDE_MS));
      expect(chrome.classList.contains('vf-chrome-hidden')).toBe(true);
      at(9);
      expect([container.querySelector('.vf-time-current')!.textContent, played.style.width]).toEqual(['0:09', '50%']);
      act(() => slider.focus());
      expect([container.querySelector('.vf-time-current')!.textContent, slider.getAttribute('aria-valuenow'), played.style.width]).toEqual([
        '0:09',
        '9',
        '75%',
      ]);
      at(10.5);
      expect(container.querySelector('.vf-time-current')!.textContent).toBe('0:10');
    } finally {
      jest.useRealTimers();
    }
  });

  it('the time text and the slider value move with the whole second without a render of the controls, shown or auto-hidden (issue 15)', () => {
    jest.useFakeTimers();
    try {
      const { player, setState } = fakePlayer();
      let commits = 0;
      const { container } = renderApp(player, () => commits++);
      const at = (t: number) => act(() => setState(PlayerState.PLAYING, { currentTime: t, duration: 12 }));
      at(3);
      const slider = screen.getByRole('slider', { name: 'Seek' });
      const read = () => [
        container.querySelector('.vf-time-current')!.textContent,
        container.querySelector('.vf-time-duration')!.textContent,
        slider.getAttribute('aria-valuenow'),
        slider.getAttribute('aria-valuetext'),
        slider.getAttribute('aria-valuemax'),
      ];
      expect(read()).toEqual(['0:03', '0:12', '3', '3 seconds of 12 seconds', '12']);
      commits = 0;
      // Shown: ticks within a second and across seconds.
      at(3.4);
      at(4.1);
      expect(read()).toEqual(['0:04', '0:12', '4', '4 seconds of 12 seconds', '12']);
      expect(commits).toBe(0);
      // Auto-hidden (one render of the bar, to hide it), then more seconds.
      act(() => jest.advanceTimersByTime(PLAYER_CONTROLS_AUTOHIDE_MS));
      expect(container.querySelector('.vf-chrome')!.classList.contains('vf-chrome-hidden')).toBe(true);
      commits = 0;
      at(5.2);
      at(6.9);
      expect(read()).toEqual(['0:06', '0:12', '6', '6 seconds of 12 seconds', '12']);
      expect(commits).toBe(0);
      // A new duration renders the bar (its maximum) and is written to the text.
      at(7);
      act(() => setState(PlayerState.PLAYING, { currentTime: 7, duration: 65 }));
      expect(read()).toEqual(['0:07', '1:05', '7', '7 seconds of 1 minute 5 seconds', '65']);
    } finally {
      jest.useRealTimers();
    }
  });

  it('a video looping by itself (loop=1, a playlist of one) shows no end screen, title or controls at its loop; an end that is not a loop does (issue 15)', () => {
    jest.useFakeTimers();
    try {
      const { player, setState } = fakePlayer();
      const { container } = renderApp(player);
      const loopOne = { playlist: ['VFsunrise01'], playlistIndex: 0, loop: true, currentTime: 5, duration: 12 };
      act(() => setState(PlayerState.PLAYING, loopOne));
      act(() => jest.advanceTimersByTime(PLAYER_CONTROLS_AUTOHIDE_MS));
      const chrome = container.querySelector('.vf-chrome')!;
      const look = () => [chrome.classList.contains('vf-chrome-hidden'), !!container.querySelector('.vf-endscreen'), screen.queryByText('Sunrise') !== null];
      expect(look()).toEqual([true, false, false]);
      for (const s of [PlayerState.ENDED, PlayerState.UNSTARTED, PlayerState.BUFFERING, PlayerState.PLAYING]) {
        act(() => setState(s, loopOne));
        expect(look()).toEqual([true, false, false]);
      }
      // Without the loop the end is an end: the end screen, the title, the controls.
      act(() => setState(PlayerState.ENDED, { ...loopOne, loop: false }));
      expect(look()).toEqual([false, true, true]);
    } finally {
      jest.useRealTimers();
    }
  });
});
