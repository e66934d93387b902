import { StrictMode } from 'react';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { BehaviorSubject, Subject } from 'rxjs';
import { EmbedApp } from '../../../../src/embed/views/EmbedApp';
import { buildPlayerShell } from '../../../../src/embed/player/playerShell';
import type { EmbedPlayer, PlayerError, VideoData } from '../../../../src/embed/player/EmbedPlayer';
import type { AdaptiveFormat, PlayerResponse } from '../../../../streams/config/playerConfig';
import { buildPlayerInfo, EMPTY_MEDIA_SNAPSHOT, type MediaSnapshot } from '../../../../streams/player/playerInfo';
import { initialPlayerModel, type PlayerModel } from '../../../../streams/player/playerModel';
import { PlayerState } from '../../../../streams/player/playerState';
import { reducePlayer } from '../../../../streams/player/reducePlayer';
import type { EngineContext } from '../../../../streams/player/reducePlayer';
import { NO_STREAM_STATS, type StreamStats } from '../../../../streams/player/streamStats';
import type { PlayerCommand, PlayerInfo } from '../../../../streams/player/types';
import { configFor, response } from '../../../streams/player/fixtures';

const AVC = 'video/mp4; codecs="avc1.4d401e"';
const rung = (quality: string, width: number, height: number, bitrate: number): AdaptiveFormat => ({
  kind: 'video',
  quality,
  width,
  height,
  bitrate,
  mimeType: AVC,
  initUrl: `/v/${quality}/init.m4s`,
  segmentUrl: `/v/${quality}/$Number$.m4s`,
  startNumber: 1,
  segmentSeconds: 2,
  segmentBytes: [1, 1, 1, 1, 1, 1],
});
const SHEET = '/media/videos/VFviewer001/storyboard/sheet-000.jpg';

/** An answer with a 144p–480p ladder and a storyboard of 2-s thumbnails, 10 to a row. */
function ladderResponse(): PlayerResponse {
  const base = response('VFviewer001');
  return {
    ...base,
    streamingData: {
      ...base.streamingData!,
      adaptiveFormats: [
        rung('tiny', 256, 144, 110_000),
        rung('small', 426, 240, 250_000),
        rung('medium', 640, 360, 500_000),
        rung('large', 854, 480, 900_000),
        { ...rung('', 0, 0, 128_000), kind: 'audio', quality: undefined, mimeType: 'audio/mp4; codecs="mp4a.40.2"' },
      ],
    },
    storyboard: { sheetUrls: [SHEET], intervalSeconds: 2, columns: 10, rows: 10, thumbWidth: 160, thumbHeight: 90, count: 6 },
  };
}

const ctx: EngineContext = { currentTime: 0, state: PlayerState.PLAYING, random: () => 0, canStream: true };

/** A player streaming the ladder with the 480p rendition on screen; the test drives its streams by hand. */
function streamingPlayer() {
  const config = configFor({}, 'VFviewer001');
  let model = reducePlayer(initialPlayerModel(config), { type: 'videoResponse', seq: 0, response: ladderResponse(), autoplay: true }, ctx).model;
  model = reducePlayer(model, { type: 'renditionShown', height: 480 }, ctx).model;
  const media: MediaSnapshot = { ...EMPTY_MEDIA_SNAPSHOT, currentTime: 3, duration: 12, buffered: [[0, 9]] };
  const info = buildPlayerInfo(model, media, PlayerState.PLAYING, { origin: 'http://x', nowMs: 0 });
  const element = document.createElement('video');
  Object.defineProperties(element, { videoWidth: { value: 854 }, videoHeight: { value: 480 } });
  element.getVideoPlaybackQuality = () => ({ droppedVideoFrames: 3, totalVideoFrames: 120 }) as VideoPlaybackQuality;
  const stats$ = new BehaviorSubject<StreamStats>({ ...NO_STREAM_STATS, estimateBps: 2_400_000, optimalQuality: 'large', mimeTypes: { large: AVC } });
  const commands: PlayerCommand[] = [];
  const player: EmbedPlayer = {
    config,
    element$: new BehaviorSubject<HTMLVideoElement | null>(element),
    state$: new BehaviorSubject(PlayerState.PLAYING),
    readiness$: new BehaviorSubject<'loading' | 'ready'>('ready'),
    videoData$: new BehaviorSubject<VideoData | null>({ videoId: 'VFviewer001', title: 'Ladder', author: 'A', durationSeconds: 12 }),
    error$: new BehaviorSubject<PlayerError | null>(null),
    autoplayBlocked$: new BehaviorSubject(false),
    format: undefined,
    quality$: new BehaviorSubject('large'),
    model$: new BehaviorSubject<PlayerModel>(model),
    media$: new BehaviorSubject(media),
    captionCues$: new BehaviorSubject<readonly TextTrackCue[]>([]),
    info$: new BehaviorSubject<PlayerInfo>(info),
    events$: new Subject(),
    streamEvents$: new Subject(),
    streamStats$: stats$,
    command: (c) => commands.push(c),
    attach: () => undefined,
    play: () => undefined,
    pause: () => undefined,
  };
  return { player, commands, model, info };
}

// jsdom has no PointerEvent: a MouseEvent carries the pointer's clientX as the browser's would.
const jsdomWindow = window as unknown as { PointerEvent?: unknown };
const hadPointerEvent = 'PointerEvent' in jsdomWindow;
beforeAll(() => {
  if (!hadPointerEvent) jsdomWindow.PointerEvent = MouseEvent;
});
afterAll(() => {
  if (!hadPointerEvent) delete jsdomWindow.PointerEvent;
});

const hosts: HTMLElement[] = [];
afterEach(() => hosts.splice(0).forEach((host) => host.remove()));
const renderApp = (player: EmbedPlayer) => {
  const host = document.body.appendChild(document.createElement('div'));
  hosts.push(host);
  const shell = buildPlayerShell(host);
  render(
    <StrictMode>
      <EmbedApp player={player} shell={shell} />
    </StrictMode>,
    { container: shell.ui, baseElement: host },
  );
  return host;
};

describe('adaptive views (StrictMode)', () => {
  it('the model streams and shows 480p: the fixture is what the views read', () => {
    const { model, info } = streamingPlayer();
    expect([model.streaming, model.quality, info.playbackQuality]).toEqual([true, 'large', 'large']);
    expect(info.availableQualityLevels).toEqual(['large', 'medium', 'small', 'tiny', 'auto']);
  });

  it('the quality menu reads Auto (480p), lists the ladder and sends the level chosen', () => {
    const { player, commands } = streamingPlayer();
    renderApp(player);
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const row = screen.getByRole('menuitem', { name: /^Quality/ });
    expect(row.textContent).toContain('Auto (480p)');
    fireEvent.click(row);
    const choices = screen.getAllByRole('menuitemradio');
    expect(choices.map((c) => [c.textContent, c.getAttribute('aria-checked')])).toEqual([
      ['480p', 'false'],
      ['360p', 'false'],
      ['240p', 'false'],
      ['144p', 'false'],
      ['Auto (480p)', 'true'],
    ]);
    fireEvent.click(screen.getByRole('menuitemradio', { name: '240p' }));
    expect(commands).toEqual([{ type: 'setPlaybackQuality', quality: 'small' }]);
  });

  it('i opens the stats panel with what plays and how; i again closes it', () => {
    const { player } = streamingPlayer();
    const host = renderApp(player);
    const root = host.querySelector('.vf-player')!;
    expect(screen.queryByRole('region', { name: 'Stats for nerds' })).toBeNull();
    fireEvent.keyDown(root, { key: 'i' });
    const panel = screen.getByRole('region', { name: 'Stats for nerds' });
    expect(panel.getAttribute('aria-live')).toBe('off');
    const value = (label: string) => panel.querySelector(`[data-stat="${label}"] dd`)?.textContent;
    expect([value('Video ID'), value('Current Res'), value('Optimal Res'), value('Codecs')]).toEqual(['VFviewer001', '854×480 (480p)', '854×480 (480p)', AVC]);
    expect([value('Connection Speed'), value('Buffer Health'), value('Dropped Frames')]).toEqual(['2.4 Mbps', '6.00 s', '3 dropped of 120']);
    fireEvent.keyDown(root, { key: 'i' });
    expect(screen.queryByRole('region', { name: 'Stats for nerds' })).toBeNull();
  });

  it('Stats for nerds in the settings menu opens the panel; Close and Escape close it', () => {
    const { player } = streamingPlayer();
    renderApp(player);
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Stats for nerds' }));
    expect(screen.queryByRole('menu')).toBeNull();
    fireEvent.click(within(screen.getByRole('region', { name: 'Stats for nerds' })).getByRole('button', { name: 'Close stats for nerds' }));
    expect(screen.queryByRole('region', { name: 'Stats for nerds' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Stats for nerds' }));
    fireEvent.keyDown(screen.getByRole('button', { name: 'Close stats for nerds' }), { key: 'Escape' });
    expect(screen.queryByRole('region', { name: 'Stats for nerds' })).toBeNull();
  });

  it('a progressive file has no Stats entry in the menu (the i key still opens the panel)', () => {
    const { player, model } = streamingPlayer();
    (player.model$ as BehaviorSubject<PlayerModel>).next({ ...model, streaming: undefined });
    renderApp(player);
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    expect(screen.queryByRole('menuitem', { name: 'Stats for nerds' })).toBeNull();
    fireEvent.keyDown(document.querySelector('.vf-player')!, { key: 'i' });
    expect(screen.getByRole('region', { name: 'Stats for nerds' })).toBeTruthy();
  });

  it('the panel follows the stream: a new estimate shows', () => {
    const { player } = streamingPlayer();
    renderApp(player);
    fireEvent.keyDown(document.querySelector('.vf-player')!, { key: 'i' });
    act(() => (player.streamStats$ as BehaviorSubject<StreamStats>).next({ ...NO_STREAM_STATS, estimateBps: 640_000, optimalQuality: 'small' }));
    const panel = screen.getByRole('region', { name: 'Stats for nerds' });
    expect(panel.querySelector('[data-stat="Connection Speed"] dd')?.textContent).toBe('640 Kbps');
    expect(panel.querySelector('[data-stat="Optimal Res"] dd')?.textContent).toBe('426×240 (240p)');
  });

  it('hovering the seek bar shows the storyboard thumbnail of the time under the pointer', () => {
    const { player } = streamingPlayer();
    renderApp(player);
    const slider = screen.getByRole('slider', { name: 'Seek' });
    slider.getBoundingClientRect = () => ({ left: 0, top: 0, width: 120, height: 10, right: 120, bottom: 10, x: 0, y: 0, toJSON: () => ({}) });
    // 50 px of 120 over 12 s: 5 s, thumbnail 2 (every 2 s), third column of the sheet.
    fireEvent.pointerMove(slider, { clientX: 50 });
    const thumb = document.querySelector<HTMLElement>('.vf-seek-thumbnail')!;
    expect(thumb.style.backgroundImage).toBe(`url("${SHEET}")`);
    expect([thumb.style.backgroundPosition, thumb.style.width, thumb.style.height]).toEqual(['-320px 0px', '160px', '90px']);
    expect(document.querySelector('.vf-seek-hover')!.textContent).toBe('0:05');
    fireEvent.pointerLeave(slider);
    expect(document.querySelector('.vf-seek-thumbnail')).toBeNull();
  });

  it('near an end of the bar the thumbnail stays whole inside it', () => {
    const { player } = streamingPlayer();
    renderApp(player);
    const slider = screen.getByRole('slider', { name: 'Seek' });
    slider.getBoundingClientRect = () => ({ left: 0, top: 0, width: 600, height: 10, right: 600, bottom: 10, x: 0, y: 0, toJSON: () => ({}) });
    const leftAt = (clientX: number) => {
      fireEvent.pointerMove(slider, { clientX });
      return document.querySelector<HTMLElement>('.vf-seek-hover')!.style.left;
    };
    // Half a 160-px thumbnail from each end; between them it follows the pointer.
    expect([leftAt(10), leftAt(300), leftAt(590)]).toEqual(['80px', '300px', '520px']);
  });

  it('a video without a storyboard shows the time alone', () => {
    const { player, model } = streamingPlayer();
    (player.model$ as BehaviorSubject<PlayerModel>).next({ ...model, response: { ...model.response!, storyboard: undefined } });
    renderApp(player);
    const slider = screen.getByRole('slider', { name: 'Seek' });
    slider.getBoundingClientRect = () => ({ left: 0, top: 0, width: 120, height: 10, right: 120, bottom: 10, x: 0, y: 0, toJSON: () => ({}) });
    fireEvent.pointerMove(slider, { clientX: 50 });
    expect(document.querySelector('.vf-seek-hover')!.textContent).toBe('0:05');
    expect(document.querySelector('.vf-seek-thumbnail')).toBeNull();
  });
});
