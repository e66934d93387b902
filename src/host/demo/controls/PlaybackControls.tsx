import { useState } from 'react';
import { numberOr } from '../ControlPanel.state';
import { ControlGroup, type GroupProps, onSubmit } from './ControlGroup';

/** Play, pause, stop, the scrubber and seeking to a time or by five seconds. */
export function PlaybackControls({ player, disabled, duration, currentTime }: GroupProps & { duration: number; currentTime: number }) {
  const [seekText, setSeekText] = useState('5');
  return (
    <ControlGroup title="Playback">
      <div className="row buttons">
        <button type="button" className="primary" disabled={disabled} onClick={() => player?.playVideo()} data-testid="play">
          ▶ Play
        </button>
        <button type="button" disabled={disabled} onClick={() => player?.pauseVideo()} data-testid="pause">
          Pause
        </button>
        <button type="button" disabled={disabled} onClick={() => player?.stopVideo()} data-testid="stop">
          Stop
        </button>
      </div>
      <input
        className="scrubber"
        type="range"
        min={0}
        max={Math.max(duration, 0.001)}
        step={0.1}
        value={Math.min(currentTime, duration)}
        disabled={disabled || duration === 0}
        onChange={(e) => player?.seekTo(Number(e.target.value), true)}
        aria-label="Seek"
        data-testid="scrubber"
      />
      <form className="row" onSubmit={onSubmit(() => player?.seekTo(numberOr(seekText, 0), true))}>
        <label className="narrow">
          <span>Seconds</span>
          <input type="number" min={0} step={0.1} value={seekText} onChange={(e) => setSeekText(e.target.value)} data-testid="seek-input" />
        </label>
        <button type="submit" disabled={disabled} data-testid="seek">
          Seek
        </button>
        <button type="button" disabled={disabled} onClick={() => player?.seekTo(Math.max(0, (player.getCurrentTime() ?? 0) - 5), true)}>
          −5 s
        </button>
        <button type="button" disabled={disabled} onClick={() => player?.seekTo((player.getCurrentTime() ?? 0) + 5, true)}>
          +5 s
        </button>
      </form>
    </ControlGroup>
  );
}
