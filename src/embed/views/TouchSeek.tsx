import { type RefObject, useRef, useState } from 'react';
import { useObservableCallback, useSubscription } from 'observable-hooks';
import { doubleTapSeek, type Tap, type TapGesture } from '../../../streams/player/doubleTapSeek';
import type { PlayerCommand, PlayerInfo } from '../../../streams/player/types';
import { useListeners } from './EmbedApp.state';
import { useI18n } from '../i18n/I18nContext';
import './touchSeek.css';

/** A double-tap seek run on screen: its direction and how far it has gone. */
export interface TouchSeekRun {
  direction: -1 | 1;
  seconds: number;
}

interface TouchSeekOptions {
  video: HTMLVideoElement;
  latestInfo: RefObject<PlayerInfo>;
  command: (command: PlayerCommand) => void;
  /** A single tap: the controls show, or hide when they are up. */
  onToggleControls: () => void;
}

/**
 * Touch on the video ({@link doubleTapSeek}): a double tap on its left or right half seeks 10 s back or on (more taps,
 * more steps, from where the run began), a single tap toggles the controls. Returns the run on screen, and whether the
 * latest pointer on the video was a finger: the video's mouse handlers (click plays or pauses, double click goes full
 * screen) leave a finger's taps to this rule.
 */
export function useTouchSeek({ video, latestInfo, command, onToggleControls }: TouchSeekOptions): [run: TouchSeekRun | null, touched: () => boolean] {
  const [run, setRun] = useState<TouchSeekRun | null>(null);
  const lastPointer = useRef('');
  const base = useRef(0);
  const [onTap, gestures$] = useObservableCallback<TapGesture, Tap>((taps$) => doubleTapSeek(taps$));
  useListeners(video, {
    pointerdown: (e) => {
      const pointer = e as PointerEvent;
      lastPointer.current = pointer.pointerType;
      if (pointer.pointerType !== 'touch') return;
      const box = video.getBoundingClientRect();
      onTap({ x: pointer.clientX - box.left, width: box.width });
    },
  });
  useSubscription(gestures$, (g) => {
    if (g.type === 'toggleControls') onToggleControls();
    else if (g.type === 'seekEnd') setRun(null);
    else {
      const info = latestInfo.current;
      if (g.count === 1) base.current = info.currentTime;
      const end = info.duration > 0 ? info.duration : Infinity;
      command({ type: 'seek', seconds: Math.min(Math.max(base.current + g.seconds, 0), end), allowSeekAhead: true });
      setRun({ direction: g.direction, seconds: Math.abs(g.seconds) });
    }
  });
  return [run, () => lastPointer.current === 'touch'];
}

/**
 * The double-tap seek indicator: a ripple on the tapped half with arrows and "10 seconds" (hidden from assistive
 * technology), and a polite live region, always present (a region added with its text may go unannounced), that
 * says where the video went.
 */
export function TouchSeekIndicator({ run }: { run: TouchSeekRun | null }) {
  const i18n = useI18n();
  return (
    <>
      {run && (
        <div className={run.direction < 0 ? 'vf-tapseek vf-tapseek-back' : 'vf-tapseek vf-tapseek-forward'} aria-hidden="true">
          <span className="vf-tapseek-arrows">{run.direction < 0 ? '◀◀◀' : '▶▶▶'}</span>
          <span className="vf-tapseek-text">{i18n.duration(run.seconds)}</span>
        </div>
      )}
      <div className="vf-tapseek-status" role="status" aria-live="polite">
        {run ? i18n.t(run.direction < 0 ? 'shortcutBack' : 'shortcutForward', { duration: i18n.duration(run.seconds) }) : ''}
      </div>
    </>
  );
}
