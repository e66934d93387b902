import type { PlayerShell } from '../player/playerShell';
import { onShortcutKey, useListeners } from './EmbedApp.state';
import { type TouchSeekRun, useTouchSeek } from './TouchSeek';

interface PlayerSurfaceOptions {
  shell: PlayerShell;
  /** The shortcut keys' options, whose latest info, command and full-screen toggle the taps and clicks use too. */
  keys: Parameters<typeof onShortcutKey>[1];
  playing: boolean;
  error: boolean;
  controlsVisible: boolean;
  onActivity: (e: unknown) => void;
  onHide: () => void;
}

/**
 * What the viewer's pointer, finger and keys do on the player's surface (the shell's root and video, not React's
 * elements). On the root: a pointer move or press, or a key, is activity (the controls show) and keys are shortcuts.
 * On the video: a mouse click plays or pauses, a double click goes full screen; a finger's taps are
 * {@link useTouchSeek}'s (a single tap toggles the controls, a double tap on a half seeks), so a finger on the video
 * is no activity of its own: the single tap decides once the double-tap window has passed. Returns the double-tap
 * seek run on screen.
 */
export function usePlayerSurface(o: PlayerSurfaceOptions): TouchSeekRun | null {
  const { shell } = o;
  const fingerOnVideo = (e: Event) => (e as PointerEvent).pointerType === 'touch' && e.target === shell.video;
  const [run, touched] = useTouchSeek({
    video: shell.video,
    latestInfo: o.keys.latestInfo,
    command: o.keys.command,
    onToggleControls: () => (o.playing && o.controlsVisible ? o.onHide() : o.onActivity(null)),
  });
  useListeners(shell.root, {
    pointermove: (e) => !fingerOnVideo(e) && o.onActivity(e),
    pointerdown: (e) => !fingerOnVideo(e) && o.onActivity(e),
    keydown: (e) => {
      o.onActivity(e);
      onShortcutKey(e as KeyboardEvent, o.keys);
    },
  });
  useListeners(shell.video, {
    click: () => !o.error && !touched() && o.keys.command({ type: o.playing ? 'pause' : 'play' }),
    dblclick: () => o.keys.allowFullscreen && !touched() && o.keys.toggleFullscreen(),
  });
  return run;
}
